import type { Mutant } from "../base.js";
import {
  bodyText,
  errorAnswer,
  errorOf,
  jsonOf,
  liveRows,
  mapBodyText,
  mapQueryParam,
  mapResponseJson,
  type Next,
  storeState,
  sub,
  withText,
} from "./support.js";

// Honest variants of write answers the spec does not fix: the payload of adjustments and variants
// calls, the success status of stock writes, the fields of batch lines, the values of reorder_method,
// which of the allowed refusals a duplicate batch pair, an unknown body reference or a read-only
// customer field gets, what a customer update does with a version, what "same body" means for a
// retry, and how ?sku= matches.

const LEVELS = /^\/products\/[^/]+\/inventory$/;
const VARIANTS = /^\/products\/([^/]+)\/variants$/;
const CUSTOMER_WRITE = /^\/customers(\/[^/]+)?$/;
/** Customer fields only the API writes (spec, Customer: do_not_sell_share "read only", is_walk_in "system"). */
const CUSTOMER_READ_ONLY = ["id", "do_not_sell_share", "is_walk_in", "created_at", "updated_at", "version"];
/** reorder_method values of this server (spec-choices: ours are `none` and `reorder_point`). */
const REORDER: Record<string, string> = { none: "manual", reorder_point: "min_level" };

const ok = (status: number) => status >= 200 && status < 300;

const STOCK_SET = /^\/products\/[^/]+\/inventory\/[^/]+$/;
const CUSTOMER = /^\/customers\/[^/]+$/;

/** A JSON document's text with the keys of every object sorted: two spellings of one document agree. */
function canonical(text: string): string | undefined {
  // Past 15 digits JSON.parse rounds, and two different numbers could read as one.
  if (/\d{16}/.test(text)) return undefined;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          )
        : v;
  try {
    return JSON.stringify(sorted(JSON.parse(text)));
  } catch {
    return undefined;
  }
}

/** Retries spelled differently are sent on with the first spelling of the document (at most this many kept). */
const SPELLINGS_KEPT = 10_000;

function sameDocumentReplays(next: Next): Next {
  const first = new Map<string, { text: string; doc: string }>();
  return async (req) => {
    const key = req.headers["idempotency-key"];
    if (key === undefined || sub(req) === null || !req.body) return next(req);
    const text = bodyText(req);
    const doc = canonical(text);
    if (doc === undefined) return next(req);
    const id = `${req.headers["authorization"]}\n${key}\n${req.method} ${req.path}?${req.query}`;
    const seen = first.get(id);
    if (seen === undefined) {
      if (first.size >= SPELLINGS_KEPT) first.delete(first.keys().next().value as string);
      first.set(id, { text, doc });
      return next(req);
    }
    return next(seen.doc === doc && seen.text !== text ? withText(req, seen.text) : req);
  };
}

export const writeVariants: readonly Mutant[] = [
  {
    name: "honest.adjustment-record",
    breaks:
      'Allowed: POST /inventory/adjustments answers the adjustment record {id, quantity, reason_id} instead of a stock write result. Spec, Endpoints: the row gives the adjustment\'s payload and "Idempotency-Key required", no response (spec-choices, Adjustment response "not shown": any data object).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || sub(req) !== "/inventory/adjustments" || !ok(res.status)) return res;
      return mapResponseJson(res, (b) => {
        const d = b.data;
        let sent: any = {};
        try {
          sent = JSON.parse(bodyText(req));
        } catch {
          // the answer was a success, so the body was a document
        }
        return { data: { id: d.adjustment_id, quantity: d.delta, reason_id: sent.reason_id ?? null } };
      });
    },
  },
  {
    name: "honest.variants-in-object",
    breaks:
      'Allowed: POST /products/{id}/variants answers {data: {parent_id, variants: [children]}}. Spec, Endpoints: the row gives the request payload only (spec-choices, Variants response: "200 or 201; any payload").',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const parent = VARIANTS.exec(sub(req) ?? "")?.[1];
      if (req.method !== "POST" || parent === undefined || !ok(res.status)) return res;
      return mapResponseJson(res, (b) => ({ data: { parent_id: parent, variants: b.data } }));
    },
  },
  {
    name: "honest.batch-replayed-omitted",
    breaks:
      'Allowed: batch line results carry replayed only on a replay (true), never replayed: false. Spec, Resources: "replayed (boolean) is true only on an idempotency replay." (spec-choices, replayed: absent when false).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || sub(req) !== "/inventory/batch" || !ok(res.status)) return res;
      return mapResponseJson(res, (b) => ({
        ...b,
        data: (b.data as any[]).map(({ replayed, ...line }) => (replayed === true ? { ...line, replayed } : line)),
      }));
    },
  },
  {
    name: "honest.reorder-method-values",
    breaks:
      'Allowed: InventoryLevel reorder_method values manual and min_level. Spec, Resources: "reorder_method | string" gives no values (spec-choices, InventoryLevel reorder_method: any string).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !LEVELS.test(sub(req) ?? "") || !ok(res.status)) return res;
      return mapResponseJson(res, (b) => ({
        ...b,
        data: (b.data as any[]).map((l) => ({ ...l, reorder_method: REORDER[l.reorder_method] ?? l.reorder_method })),
      }));
    },
  },
  {
    name: "honest.duplicate-pair-422",
    breaks:
      'Allowed: a batch naming a product and outlet pair twice answers 422 UNPROCESSABLE naming the later line. Spec, Inventory rules 3: "A product and outlet pair may appear only once per batch." gives no status (spec-choices: 400 or 422).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || sub(req) !== "/inventory/batch" || res.status !== 400) return res;
      const e = errorOf(res);
      if (
        e?.code !== "VALIDATION_FAILED" ||
        !e.fields?.length ||
        !e.fields.every((f) => /appears earlier in the batch/.test(f.message))
      )
        return res;
      return mapResponseJson({ ...res, status: 422 }, () => ({
        error: { code: "UNPROCESSABLE", message: "A product and outlet pair appears twice.", fields: e.fields },
      }));
    },
  },
  {
    name: "honest.body-reference-404",
    breaks:
      'Allowed: an unknown product (id or sku) or outlet named in an adjustment or batch body answers 404 NOT_FOUND. Spec, Errors: "NOT_FOUND | 404 | missing, ..." next to "UNPROCESSABLE | 422 | referenced thing not found" (spec-choices, Unknown product or outlet: 404 or 422 for body references).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req);
      if (req.method !== "POST" || (s !== "/inventory/adjustments" && s !== "/inventory/batch") || res.status !== 422)
        return res;
      const e = errorOf(res);
      if (
        e?.code !== "UNPROCESSABLE" ||
        !e.fields?.length ||
        !e.fields.every((f) => /(^|\.)(product_id|sku|outlet_id)$/.test(f.field))
      )
        return res;
      // Spec, Errors: fields appear only for field-specific problems; a 404 names none here.
      return errorAnswer(res, 404, "NOT_FOUND", `Not found: ${e.fields.map((f) => f.field).join(", ")}.`);
    },
  },
  {
    name: "honest.customer-read-only-refused",
    breaks:
      'Allowed: a customer create or update that sends a read-only field (id, do_not_sell_share, is_walk_in, created_at, updated_at, version) answers 400 VALIDATION_FAILED naming it. Spec, Customer: "do_not_sell_share | boolean; read only; ... never through this API"; Resources: "No resource accepts unknown properties"; only products promise that "a read document can be sent straight back" (spec-choices, Read-only fields on write: refused with 400).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const s = sub(req);
      if (
        (req.method !== "POST" && req.method !== "PATCH") ||
        !CUSTOMER_WRITE.test(s ?? "") ||
        (req.method === "POST") !== (s === "/customers")
      )
        return next(req);
      let body: any;
      try {
        body = JSON.parse(bodyText(req));
      } catch {
        return next(req);
      }
      const named =
        typeof body === "object" && body !== null && !Array.isArray(body)
          ? CUSTOMER_READ_ONLY.filter((k) => k in body)
          : [];
      if (named.length === 0) return next(req);
      // The simulator refuses a body that is not an object after authentication, limits, the
      // idempotency record and the path id, where this server refuses the read-only fields; the
      // document wrapped in an array keeps bodies apart under one Idempotency-Key.
      const res = await next(withText(req, `[${bodyText(req)}]`));
      if (res.status !== 400 || errorOf(res)?.fields?.[0]?.field !== "body") return res;
      return mapResponseJson(res, () => ({
        error: {
          code: "VALIDATION_FAILED",
          message: `Read-only fields: ${named.join(", ")}.`,
          fields: named.map((field) => ({ field, message: "is read only" })),
        },
      }));
    },
  },
  {
    name: "honest.stock-writes-201",
    breaks:
      'Allowed: PUT of stock answers 201 when it records a change (200 when it changes nothing), and POST /inventory/batch answers 201. Spec, Endpoints: "Not shown: the HTTP success status of creates and writes other than the 204 of deletes." (spec-choices, Inventory success statuses: 200 or 201)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req) ?? "";
      if (res.status !== 200) return res;
      if (req.method === "POST" && s === "/inventory/batch") return { ...res, status: 201 };
      if (req.method !== "PUT" || !STOCK_SET.test(s)) return res;
      return jsonOf(res)?.data?.changed === true ? { ...res, status: 201 } : res;
    },
  },
  {
    name: "honest.batch-results-null",
    breaks:
      'Allowed: batch line results carry changed, previous, on_hand and delta as null. Spec, Resources: "InventoryBatchLineResult product_id, outlet_id (uuid), changed (boolean or null), previous, on_hand, delta (number or null)." (spec-choices: null)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || sub(req) !== "/inventory/batch" || !ok(res.status)) return res;
      return mapResponseJson(res, (b) => ({
        ...b,
        data: (b.data as any[]).map((l) => ({ ...l, changed: null, previous: null, on_hand: null, delta: null })),
      }));
    },
  },
  {
    name: "honest.batch-sku-own",
    breaks:
      'Allowed: a batch line given by sku echoes the product\'s own SKU (as stored), not the text the line sent. Spec, Resources: "sku is echoed only when the line was given by sku."; Inventory rules 2: "A sku is matched case-insensitively" (spec-choices, sku on a batch line result: the product\'s own SKU).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || sub(req) !== "/inventory/batch" || !ok(res.status)) return res;
      const lines = jsonOf(res)?.data;
      if (!Array.isArray(lines) || !lines.some((l) => typeof l?.sku === "string")) return res;
      const products = liveRows((await storeState(next, req))?.catalog?.products);
      const skuOf = new Map(products.map((p) => [p.id, p.sku]));
      return mapResponseJson(res, (b) => ({
        ...b,
        data: (b.data as any[]).map((l) =>
          typeof l.sku === "string" ? { ...l, sku: skuOf.get(l.product_id) ?? l.sku } : l,
        ),
      }));
    },
  },
  {
    name: "honest.customer-version-ignored",
    breaks:
      'Allowed: a customer update ignores version and expected_version (a stale one answers 200). Spec, Product write rules 6: "Sending version (or expected_version) with an update that no longer matches answers 409 STALE_VERSION." is stated for products only (spec-choices, version or expected_version on PATCH /customers/{id}: ignored).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      if (req.method !== "PATCH" || !CUSTOMER.test(sub(req) ?? "")) return next(req);
      return next(
        mapBodyText(req, (text) => {
          try {
            const body = JSON.parse(text);
            if (body === null || typeof body !== "object" || Array.isArray(body)) return text;
            if (!("version" in body) && !("expected_version" in body)) return text;
            const { version: _v, expected_version: _e, ...rest } = body;
            return JSON.stringify(rest);
          } catch {
            return text;
          }
        }),
      );
    },
  },
  {
    name: "honest.same-document-replays",
    breaks:
      'Allowed: a retry under the same Idempotency-Key whose body is the same JSON document spelled differently (key order, white space) is a replay, not IDEMPOTENCY_KEY_REUSED. Spec, Limits: "A retry with the same key and same body returns the same status and data" does not say whether "same body" means the bytes or the document (spec-choices, The same document under one key, spelled differently: not judged either way).',
    caughtBy: [],
    wrap: sameDocumentReplays,
  },
  {
    name: "honest.sku-lookup-any-case",
    breaks:
      'Allowed: GET /products?sku= matches a live product\'s SKU without regard to case. Spec, Endpoints: "query sku (exact lookup)"; Inventory rules 2: "A sku is matched case-insensitively against live products only" (spec-choices, SKU uniqueness and lookup: a case-insensitive ?sku= match too).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const sku = new URLSearchParams(req.query).getAll("sku");
      if (req.method !== "GET" || sub(req) !== "/products" || sku.length !== 1) return next(req);
      const wanted = (sku[0] as string).toLowerCase();
      const products = liveRows((await storeState(next, req))?.catalog?.products);
      const stored = products.find((p) => typeof p.sku === "string" && p.sku.toLowerCase() === wanted)?.sku;
      if (stored === undefined) return next(req);
      return next({ ...req, query: mapQueryParam(req.query, "sku", () => stored) });
    },
  },
];
