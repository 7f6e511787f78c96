import type { Mutant } from "../base.js";
import {
  bothWays,
  isControl,
  mapBodyText,
  mapQuery,
  mapQueryParam,
  mapResponseJson,
  mapResponseText,
  sub,
} from "./support.js";

// Honest variants with other opaque tokens: row versions, cursors, ids and generated codes in another
// format (translated back wherever a client sends them), and a null cursor on the last page of a list.

/** "v" and the number in base 36: opaque, not decimal, and new on every change. */
const toOpaque = (decimal: string): string => `v${BigInt(decimal).toString(36)}`;

function fromOpaque(opaque: string): string | undefined {
  const m = /^v([0-9a-z]+)$/.exec(opaque);
  if (!m) return undefined;
  let n = 0n;
  for (const ch of m[1] as string) n = n * 36n + BigInt(parseInt(ch, 36));
  return n.toString();
}

/** Routes whose `version` is an InventoryLevel's: "version | string (bigint as string)" is not open. */
const LEVELS = (req: { path: string }): boolean =>
  /^\/[^/]+\/v1\/products\/[^/]+\/inventory\/?$/.test(req.path) || /^\/_sim\/stores\/[^/]+\/stock\//.test(req.path);

/** An opaque cursor of this server: `pg.` and the hex of the simulator's cursor. */
const CURSOR = /^pg\.((?:[0-9a-f]{2})+)$/;

/** A UUID in any case, anywhere in a text (a path, a query, a JSON or form body, a header). */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** What each of the 32 hex digits of a UUID is shifted by (mod 16); the version digit (12) is kept. */
const SHIFT = [..."7c3e91b5d2a6f4839e58c1b7a9d3f6e2"].map((h) => parseInt(h, 16));

/**
 * Another UUID for each UUID, by a fixed shift of every hex digit: the version digit and the two
 * variant bits stay, so a valid UUID stays one of the same version (and an invalid one stays invalid);
 * the case is kept, as path ids match in any case (spec-choices, Path ids).
 */
function shiftUuid(uuid: string, sign: 1 | -1): string {
  const upper = /[A-F]/.test(uuid) && !/[a-f]/.test(uuid);
  let i = 0;
  const out = uuid.replace(/[0-9a-f]/gi, (h) => {
    const d = parseInt(h, 16);
    const k = SHIFT[i] as number;
    const n = i === 12 ? d : i === 16 ? (d & 0xc) | ((d + sign * k) & 3) : (d + sign * k + 16) % 16;
    i++;
    return n.toString(16);
  });
  return upper ? out.toUpperCase() : out;
}

/** Generated SKUs and customer codes (`PRD-` or `CUS-` and 8, `ERASED-` and 10 letters and digits). */
const CODE = /(?<![A-Za-z0-9-])((?:PRD|CUS)-[A-Za-z0-9]{8}|ERASED-[A-Za-z0-9]{10})(?![A-Za-z0-9-])/gi;
/** The code with the case of its letters after the prefix swapped: case-insensitive equality is kept. */
const swapCase = (code: string): string => {
  const dash = code.indexOf("-");
  const tail = [...code.slice(dash + 1)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
  return code.slice(0, dash + 1) + tail.join("");
};

export const tokenVariants: readonly Mutant[] = [
  {
    name: "honest.opaque-versions",
    breaks:
      'Allowed: row versions "v" + base 36 (v1a, v1b, ...), new on every change but not decimal; version and expected_version sent back are read in that format. Spec, Resources: "Every resource row carries version, an opaque string that increases with every change to that row." (spec-choices, Row version: any string that changes on every change). InventoryLevel versions stay decimal: "version | string (bigint as string)".',
    caughtBy: [],
    wrap: (next) => async (req) => {
      // Versions the server gave out come back in update bodies (version, expected_version).
      const back = (text: string) =>
        text.replace(
          /"(version|expected_version)"(\s*):(\s*)"(v[0-9a-z]+)"/g,
          (all, key: string, a: string, b: string, v: string) => {
            const decimal = fromOpaque(v);
            return decimal === undefined ? all : `"${key}"${a}:${b}"${decimal}"`;
          },
        );
      const res = await next(mapBodyText(req, back));
      if (LEVELS(req)) return res;
      return mapResponseText(res, (text) =>
        text.replace(/"version":"(\d+)"/g, (_all, d: string) => `"version":"${toOpaque(d)}"`),
      );
    },
  },
  {
    name: "honest.opaque-cursors",
    breaks:
      'Allowed: cursors in another opaque format (pg. and hex); a cursor not of that format is unreadable (400 naming cursor). Spec, Pagination 1: "cursor is opaque and must be passed back unchanged. An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error." (spec-choices, Cursor format: any opaque string)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const s = sub(req);
      if (s === null) return next(req);
      const sent = mapQuery(req, (q) =>
        mapQueryParam(q, "cursor", (c) => {
          const m = CURSOR.exec(c);
          return m ? Buffer.from(m[1] as string, "hex").toString("utf8") : c === "" ? c : "~unreadable~";
        }),
      );
      return mapResponseJson(await next(sent), (b) => {
        if (b !== null && typeof b === "object" && typeof b.next_cursor === "string")
          b.next_cursor = `pg.${Buffer.from(b.next_cursor, "utf8").toString("hex")}`;
        return b;
      });
    },
  },
  {
    name: "honest.last-page-null-cursor",
    breaks:
      'Allowed: next_cursor null on the last non-empty page (has_more false). Spec, Pagination 2: "An empty page returns next_cursor: null; keep the cursor already held." says nothing of a last non-empty page (spec-choices, next_cursor on the last non-empty page: either null or a cursor).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || isControl(req)) return res;
      return mapResponseJson(res, (b) =>
        b !== null &&
        typeof b === "object" &&
        Array.isArray(b.data) &&
        b.data.length > 0 &&
        b.has_more === false &&
        typeof b.next_cursor === "string"
          ? { ...b, next_cursor: null }
          : b,
      );
    },
  },
  {
    name: "honest.other-ids",
    breaks:
      'Allowed: every id is another UUID than the simulator\'s (each hex digit shifted, version and variant kept), read back wherever a client sends one (paths, queries, bodies, headers, the control plane). Spec, What the service does 5: "Ids are UUID strings."',
    caughtBy: [],
    wrap: bothWays(
      (text) => text.replace(UUID, (u) => shiftUuid(u, -1)),
      (text) => text.replace(UUID, (u) => shiftUuid(u, 1)),
    ),
  },
  {
    name: "honest.generated-codes",
    breaks:
      'Allowed: generated SKUs and customer codes with their letters in lower case (PRD-x7k2m9qa, CUS-...), and the erasure placeholder likewise; the codes a client sends are read back the same way, so case-insensitive matching and uniqueness are kept. Spec, Product: "If left out at create, the service generates one that starts with PRD-." (spec-choices, Generated SKU: any SKU starting with PRD-); Customer: "customer_code | string" and Delete rules: "customer_code replaced by a placeholder" give no form.',
    caughtBy: [],
    wrap: bothWays(
      (text) => text.replace(CODE, swapCase),
      (text) => text.replace(CODE, swapCase),
    ),
  },
];
