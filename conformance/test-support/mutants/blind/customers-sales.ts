import type { Mutant } from "../base.js";
import {
  bodyJson,
  errorCode,
  isReset,
  json,
  on,
  params,
  re,
  reError,
  sub,
  withBody,
  withJson,
  withQuery,
} from "./util.js";

// Blind mutants of customers (erasure, the walk-in customer) and of the sales feed.

const CUSTOMER = re("/customers/:id");
const SALES = re("/sales");
const SALE = re("/sales/:id");

export const customerSalesMutants: readonly Mutant[] = [
  {
    name: "blind.erasure-keeps-email",
    breaks:
      'Delete rules: "customer | marked deleted; name, email, phone, address and other personal details scrubbed" (the email is kept for the mailing list)',
    caughtBy: ["customers.erasure"],
    wrap: (next) => {
      const kept = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) kept.clear();
        if (on(req, "DELETE", CUSTOMER)) {
          const email = json(await next({ ...req, method: "GET", body: null }))?.data?.email;
          const res = await next(req);
          const id = decodeURIComponent((sub(req) ?? "").split("/")[2] ?? "").toLowerCase();
          if (res.status === 204 && typeof email === "string") kept.set(id, email);
          return res;
        }
        const res = await next(req);
        const m = /^\/_sim\/stores\/[^/]+\/customers\/([^/]+)$/.exec(req.path);
        const email = m && req.method === "GET" ? kept.get(decodeURIComponent(m[1] ?? "").toLowerCase()) : undefined;
        if (email === undefined || res.status !== 200) return res;
        const b = json(res);
        return b && typeof b === "object"
          ? withJson(res, "data" in b && b.data ? { ...b, data: { ...b.data, email } } : { ...b, email })
          : res;
      };
    },
  },
  {
    name: "blind.walk-in-delete-422",
    breaks: 'Delete rules: "customer ... walk-in customer: 409 CONFLICT" (422 UNPROCESSABLE)',
    caughtBy: ["customers.walk-in-undeletable"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "DELETE", CUSTOMER) && res.status === 409 && errorCode(res) === "CONFLICT"
        ? reError(res, 422, "UNPROCESSABLE")
        : res;
    },
  },
  {
    name: "blind.erased-code-still-taken",
    // Not in the proof-of-detection test: the erased record does get its placeholder (customers.erasure
    // sees it through the control plane); what differs is that a new customer cannot take the old code.
    // The spec never says customer_code is unique, nor that an erased code is free again, so refusing it
    // breaks no sentence the API can show without assuming a uniqueness rule (docs/spec-choices.md).
    breaks:
      'Delete rules: "customer_code replaced by a placeholder" (the erased customer keeps its code, so a new customer cannot take it). Not caught, by design: over the API this is only observable by assuming customer_code uniqueness, which the spec does not state.',
    caughtBy: [],
    wrap: (next) => {
      const codes = new Set<string>();
      return async (req) => {
        if (isReset(req)) codes.clear();
        if (on(req, "DELETE", CUSTOMER)) {
          const code = json(await next({ ...req, method: "GET", body: null }))?.data?.customer_code;
          const res = await next(req);
          if (res.status === 204 && typeof code === "string") codes.add(code.toLowerCase());
          return res;
        }
        const body = bodyJson(req);
        const writes = on(req, "POST", re("/customers")) || on(req, "PATCH", CUSTOMER);
        if (!writes || typeof body?.customer_code !== "string" || !codes.has(body.customer_code.toLowerCase()))
          return next(req);
        // The unique index still holds the old code: the same refusal as a live duplicate.
        return next(withBody(req, { ...body, customer_code: "WALKIN" }));
      };
    },
  },
  {
    name: "blind.sales-to-exclusive",
    breaks:
      'Sales list rules 1: "completed_from and completed_to filter completed_at; ... both ends are inclusive." (completed_to is exclusive)',
    caughtBy: ["sales.completed-range-filter", "sales.completed-range-inclusive"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const to = params(req).get("completed_to");
      if (!on(req, "GET", SALES) || !to || res.status !== 200) return res;
      const b = json(res);
      const end = Date.parse(to);
      if (!Array.isArray(b?.data) || !Number.isFinite(end)) return res;
      return withJson(res, {
        ...b,
        data: b.data.filter((s: { completed_at: string }) => Date.parse(s.completed_at) !== end),
      });
    },
  },
  {
    name: "blind.sales-offset-accepted",
    breaks: 'Sales list rules 1: "they must be UTC ending in Z (an offset is refused)" (offsets are converted to UTC)',
    caughtBy: ["sales.completed-offset-refused"],
    wrap: (next) => async (req) => {
      if (!on(req, "GET", SALES)) return next(req);
      const q = params(req);
      let changed = false;
      for (const k of ["completed_from", "completed_to"]) {
        const v = q.get(k);
        if (v && /[+-]\d{2}:?\d{2}$/.test(v) && Number.isFinite(Date.parse(v))) {
          q.set(k, new Date(Date.parse(v)).toISOString());
          changed = true;
        }
      }
      return next(changed ? withQuery(req, q) : req);
    },
  },
  {
    name: "blind.sales-outlet-filter-ignored",
    breaks:
      'Endpoints: "GET | /sales | sales:read | query completed_from, completed_to, status, outlet_id, customer_id, parent_sale_id" (outlet_id is accepted but not applied)',
    caughtBy: ["sales.outlet-filter"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (!on(req, "GET", SALES) || !q.has("outlet_id")) return next(req);
      q.delete("outlet_id");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.sales-status-open-empty",
    breaks: 'Sales list rules 2: "status=open answers 400 VALIDATION_FAILED." (an empty page)',
    caughtBy: ["sales.status-open-refused"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", SALES) || params(req).get("status") !== "open" || res.status !== 400) return res;
      return withJson(res, { data: [], next_cursor: null, has_more: false }, 200);
    },
  },
  {
    name: "blind.sales-include-deleted-ignored",
    breaks: 'Sales list rules 3: "include_deleted on sales answers 400 VALIDATION_FAILED." (ignored)',
    caughtBy: ["sales.include-deleted-refused"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (!on(req, "GET", SALES) || !["true", "false"].includes(q.get("include_deleted") ?? "")) return next(req);
      q.delete("include_deleted");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.sales-refunds-only-by-parent",
    breaks: 'Sales list rules 4: "Without parent_sale_id, originals and refunds are both returned." (only originals)',
    caughtBy: ["sales.refund-new-version"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", SALES) || params(req).has("parent_sale_id") || res.status !== 200) return res;
      const b = json(res);
      return Array.isArray(b?.data)
        ? withJson(res, { ...b, data: b.data.filter((s: { parent_sale_id: unknown }) => s.parent_sale_id == null) })
        : res;
    },
  },
  {
    name: "blind.sale-read-without-payments",
    breaks:
      'What the service does 3: "The sale list and a single sale read return the same full sale document." (the single read leaves out payments)',
    caughtBy: ["sales.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", SALE) || res.status !== 200) return res;
      const b = json(res);
      if (!b?.data) return res;
      const { payments: _p, ...rest } = b.data;
      return withJson(res, { data: rest });
    },
  },
  {
    name: "blind.refunded-sale-keeps-version",
    breaks:
      'States: "a sale that is refunded later receives a new version and its new status." (the status changes, the version does not)',
    caughtBy: ["sales.refund-new-version"],
    wrap: (next) => {
      const first = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) first.clear();
        const res = await next(req);
        if (!(on(req, "GET", SALES) || on(req, "GET", SALE)) || res.status !== 200) return res;
        const b = json(res);
        if (!b?.data) return res;
        const freeze = (s: any) => {
          if (!s?.id || typeof s.version !== "string") return s;
          const v = first.get(s.id);
          if (v === undefined) first.set(s.id, s.version);
          return v === undefined ? s : { ...s, version: v };
        };
        return withJson(res, { ...b, data: Array.isArray(b.data) ? b.data.map(freeze) : freeze(b.data) });
      };
    },
  },
];
