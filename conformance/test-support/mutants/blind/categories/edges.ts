import type { SimRequest } from "../../../../../src/http/types.js";
import type { Mutant } from "../../base.js";
import {
  bodyJson,
  derived,
  json,
  keyOf,
  on,
  params,
  prefixOf,
  re,
  sub,
  withBody,
  withJson,
  withKey,
  withQuery,
} from "../util.js";
import { isObject } from "./util.js";

// Edge inputs: values at and just past each bound, keys and SKUs that differ only in case, empty
// against missing, a date where a date-time is required.

const LIST =
  /^\/(products|brands|categories|tags|suppliers|customers|customer-groups|sales|outlets|payment-types|taxes)$/;
const isProductWrite = (req: SimRequest): boolean =>
  on(req, "POST", re("/products")) || on(req, "PATCH", re("/products/:id"));
const KEY_OPTIONAL = [
  ["POST", re("/products")],
  ["POST", re("/products/:id/variants")],
  ["PUT", re("/products/:id/inventory/:id")],
  ["POST", re("/customers")],
  ["POST", re("/(brands|categories|tags|suppliers)")],
] as const;
/** Exactly three decimal places (0.125, not 0.12 nor 0.1255). */
const threeDecimals = (n: unknown): n is number =>
  typeof n === "number" &&
  Number.isFinite(n) &&
  Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6 &&
  Math.round(n * 1000) % 10 !== 0;

export const edgeMutants: readonly Mutant[] = [
  {
    name: "blind.edges.limit-200-refused",
    breaks:
      'Endpoints: "Common to list endpoints: query limit (integer 1 to 200, default 50)" (the bound check is limit < 200: 200 answers 400)',
    caughtBy: ["pagination.each-row-once"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (req.method !== "GET" || !LIST.test(sub(req) ?? "") || q.get("limit") !== "200") return next(req);
      q.set("limit", "201");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.edges.ten-codes-refused",
    breaks:
      'Resources, Product: "codes | array of ProductCode | At most 10." (the cap check is codes.length >= 10: ten codes answer 422)',
    caughtBy: ["catalog.cap-codes"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!isProductWrite(req) || !isObject(b) || !Array.isArray(b.codes) || b.codes.length !== 10) return next(req);
      const last = b.codes[9];
      if (!isObject(last) || typeof last.code !== "string") return next(req);
      return next(withBody(req, { ...b, codes: [...b.codes, { type: "custom", code: `${last.code}~cap` }] }));
    },
  },
  {
    name: "blind.edges.twenty-one-tags-accepted",
    breaks:
      'Resources, Product: "tags | array of ProductTag | At most 20." (the cap check is tags.length > 21: a 21st tag is dropped and the write saved)',
    caughtBy: ["catalog.cap-tags"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!isProductWrite(req) || !isObject(b) || !Array.isArray(b.tags) || b.tags.length !== 21) return next(req);
      return next(withBody(req, { ...b, tags: b.tags.slice(0, 20) }));
    },
  },
  {
    name: "blind.edges.hundred-batch-lines-refused",
    breaks:
      'Endpoints: "POST | /inventory/batch | inventory:write | {lines: [...]}, 1 to 100 lines" (the bound check is lines < 100: a batch of exactly 100 lines answers 400)',
    caughtBy: ["model.inventory"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!on(req, "POST", re("/inventory/batch")) || !isObject(b) || !Array.isArray(b.lines) || b.lines.length !== 100)
        return next(req);
      return next(withBody(req, { ...b, lines: [...b.lines, b.lines[99]] }));
    },
  },
  {
    name: "blind.edges.key-of-255-refused",
    breaks:
      'Limits: "Idempotency key | 1 to 255 printable characters without spaces" (the column holds 254: a key of 255 characters answers 400)',
    caughtBy: ["idempotency.key-format"],
    wrap: (next) => async (req) => {
      const key = req.headers["idempotency-key"];
      return sub(req) !== null && req.method !== "GET" && key?.length === 255
        ? next(withKey(req, `${key}x`))
        : next(req);
    },
  },
  {
    name: "blind.edges.key-case-folded",
    breaks:
      'Limits, Idempotency: "A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED." (keys are stored lower-cased: a new request under a key that differs only in case from an earlier one answers 422 IDEMPOTENCY_KEY_REUSED, or replays the earlier answer)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) => {
      const key = req.headers["idempotency-key"];
      return sub(req) !== null && req.method !== "GET" && key && key !== key.toLowerCase()
        ? next(withKey(req, key.toLowerCase()))
        : next(req);
    },
  },
  {
    name: "blind.edges.empty-key-ignored",
    breaks:
      'Limits: "Idempotency key | 1 to 255 printable characters without spaces" (an empty Idempotency-Key on a route where the key is optional is taken as no key)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) =>
      req.headers["idempotency-key"] === "" && KEY_OPTIONAL.some(([m, p]) => on(req, m, p))
        ? next(withKey(req, undefined))
        : next(req),
  },
  {
    name: "blind.edges.completed-from-date-accepted",
    breaks:
      'Sales list rules 1: "completed_from and completed_to filter completed_at; they must be UTC ending in Z" (a bare date, 2026-01-01, is read as midnight UTC)',
    caughtBy: ["model.customers"],
    wrap: (next) => async (req) => {
      if (!on(req, "GET", re("/sales"))) return next(req);
      const q = params(req);
      let changed = false;
      for (const k of ["completed_from", "completed_to"]) {
        const v = q.get(k);
        if (v && /^\d{4}-\d{2}-\d{2}$/.test(v)) {
          q.set(k, `${v}T00:00:00Z`);
          changed = true;
        }
      }
      return next(changed ? withQuery(req, q) : req);
    },
  },
  {
    name: "blind.edges.three-decimals-refused",
    breaks:
      'Resources, InventoryLevel: "on_hand | number, up to 3 decimal places" (stock writes take at most 2 decimal places: 4.125 answers 400)',
    caughtBy: ["idempotency.optional-routes"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      const field = on(req, "PUT", re("/products/:id/inventory/:id"))
        ? "on_hand"
        : on(req, "POST", re("/inventory/adjustments"))
          ? "quantity"
          : undefined;
      if (!field || !isObject(b) || !threeDecimals(b[field])) return next(req);
      const res = await next(withBody(req, { ...b, [field]: b[field] + 0.0004 }));
      const e = json(res)?.error;
      if (res.status !== 400 || !e) return res;
      return withJson(res, JSON.parse(JSON.stringify({ error: e }).replace(/3 decimal places/g, "2 decimal places")));
    },
  },
  {
    name: "blind.edges.batch-sku-non-ascii-case",
    breaks:
      'Inventory rules 2: "A sku is matched case-insensitively against live products only, never against barcodes." (the match folds ASCII letters only: café-mug does not find CAFÉ-MUG)',
    caughtBy: ["model.inventory"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      const nonAscii = (s: unknown): s is string => typeof s === "string" && /[^\u0000-\u007f]/.test(s);
      if (!on(req, "POST", re("/inventory/batch")) || !isObject(b) || !Array.isArray(b.lines)) return next(req);
      if (!b.lines.some((l: any) => nonAscii(l?.sku))) return next(req);
      const prefix = prefixOf(req) ?? "";
      const token = await keyOf(next, req, prefix, "full");
      const fold = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
      const lines: unknown[] = [];
      let changed = false;
      for (const l of b.lines.slice(0, 100)) {
        if (!nonAscii(l?.sku)) {
          lines.push(l);
          continue;
        }
        let found = false;
        for (const spelling of new Set([l.sku, l.sku.toUpperCase(), l.sku.toLowerCase()])) {
          const look = derived(req, "GET", `/${prefix}/v1/products`, `sku=${encodeURIComponent(spelling)}`, {
            authorization: `Bearer ${token}`,
          });
          const rows: { sku: string }[] = json(await next(look))?.data ?? [];
          found ||= rows.some((p) => fold(p.sku) === fold(l.sku));
        }
        lines.push(found ? l : { ...l, sku: `${l.sku}\u0000` });
        changed ||= !found;
      }
      return next(changed ? withBody(req, { ...b, lines: [...lines, ...b.lines.slice(100)] }) : req);
    },
  },
  {
    name: "blind.edges.attribute-position-3-refused",
    breaks:
      'Errors: "Cap exceptions: over 3 variant attributes or a position outside 1 to 3 answers 400 VALIDATION_FAILED, not 422." (positions are checked as 0 to 2 after a one-off conversion: position 3 answers 400)',
    caughtBy: ["catalog.variant-attribute-limits"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!isProductWrite(req) || !isObject(b) || !Array.isArray(b.variant_attributes)) return next(req);
      if (!b.variant_attributes.some((a: any) => a?.position === 3)) return next(req);
      const attrs = b.variant_attributes.map((a: any) => (a?.position === 3 ? { ...a, position: 4 } : a));
      return next(withBody(req, { ...b, variant_attributes: attrs }));
    },
  },
  {
    name: "blind.edges.empty-codes-untouched",
    breaks:
      'Product write rules 3: "key left out means untouched; an array replaces the collection; [] clears it." (codes: [] is skipped like a missing key, so the codes stay)',
    caughtBy: ["catalog.collections-replace"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!on(req, "PATCH", re("/products/:id")) || !isObject(b) || !Array.isArray(b.codes) || b.codes.length > 0)
        return next(req);
      const { codes: _codes, ...rest } = b;
      return next(withBody(req, rest));
    },
  },
];
