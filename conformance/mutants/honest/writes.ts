import type { Mutant } from "../base.js";
import { bodyText, errorAnswer, errorOf, mapResponseJson, sub, withText } from "./support.js";

// Honest variants of write answers the spec does not fix: the payload of adjustments and variants
// calls, the replayed marker of batch lines, the values of reorder_method, and which of the allowed
// refusals a duplicate batch pair, an unknown body reference or a read-only customer field gets.

const LEVELS = /^\/products\/[^/]+\/inventory$/;
const VARIANTS = /^\/products\/([^/]+)\/variants$/;
const CUSTOMER_WRITE = /^\/customers(\/[^/]+)?$/;
/** Customer fields only the API writes (spec, Customer: do_not_sell_share "read only", is_walk_in "system"). */
const CUSTOMER_READ_ONLY = ["id", "do_not_sell_share", "is_walk_in", "created_at", "updated_at", "version"];
/** reorder_method values of this server (spec-choices: ours are `none` and `reorder_point`). */
const REORDER: Record<string, string> = { none: "manual", reorder_point: "min_level" };

const ok = (status: number) => status >= 200 && status < 300;

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
];
