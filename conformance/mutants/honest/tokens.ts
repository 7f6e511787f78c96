import type { Mutant } from "../base.js";
import { isControl, mapBodyText, mapQuery, mapQueryParam, mapResponseJson, mapResponseText, sub } from "./support.js";

// Honest variants with other opaque tokens: row versions and cursors in another format (translated
// back wherever a client sends them), and a null cursor on the last page of a list.

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
];
