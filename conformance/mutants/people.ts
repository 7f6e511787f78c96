import { mapJson, type Mutant } from "./base.js";

// Broken customers and sales: each violates one rule of the spec.

const CUSTOMERS = /^\/[^/]+\/v1\/customers$/;
const CUSTOMER = /^\/[^/]+\/v1\/customers\/[^/]+$/;
const STORED_CUSTOMER = /^\/_sim\/stores\/[^/]+\/customers\/([^/]+)$/;
const SALES = /^\/[^/]+\/v1\/sales$/;
const SALE = /^\/[^/]+\/v1\/sales\/[^/]+$/;
const REFUND = /^\/_sim\/stores\/[^/]+\/sales\/([^/]+)\/refunds$/;

export const peopleMutants: readonly Mutant[] = [
  {
    name: "erasure-keeps-email",
    breaks: "Delete rules, customer: erasure scrubs the email (this one keeps it)",
    caughtBy: ["customers.erasure"],
    wrap: (next) => {
      const emails = new Map<string, string>();
      return async (req) => {
        const res = await next(req);
        if (req.method === "POST" && CUSTOMERS.test(req.path)) {
          return mapJson(res, (b) => {
            if (typeof b?.data?.id === "string" && typeof b.data.email === "string")
              emails.set(b.data.id, b.data.email);
            return b;
          });
        }
        const stored = STORED_CUSTOMER.exec(req.path);
        const email = stored ? emails.get(stored[1]!) : undefined;
        return email === undefined ? res : mapJson(res, (b) => (b?.id ? { ...b, email } : b));
      };
    },
  },
  {
    name: "refund-keeps-original-version",
    breaks: "States, sale: a sale that is refunded later receives a new version (this one keeps the old one)",
    caughtBy: ["sales.refund-new-version"],
    wrap: (next) => {
      // Each sale's version as first seen; sales refunded since are shown with it again.
      const firstSeen = new Map<string, string>();
      const refunded = new Set<string>();
      const rewrite = (sale: any) => {
        if (typeof sale?.id !== "string") return sale;
        if (!firstSeen.has(sale.id)) firstSeen.set(sale.id, sale.version);
        return refunded.has(sale.id) ? { ...sale, version: firstSeen.get(sale.id) } : sale;
      };
      return async (req) => {
        const refund = REFUND.exec(req.path);
        if (refund && req.method === "POST") refunded.add(refund[1]!);
        const res = await next(req);
        if (req.method !== "GET" && !req.path.startsWith("/_sim/")) return res;
        if (SALES.test(req.path))
          return mapJson(res, (b) => (Array.isArray(b?.data) ? { ...b, data: b.data.map(rewrite) } : b));
        if (SALE.test(req.path)) return mapJson(res, (b) => (b?.data ? { ...b, data: rewrite(b.data) } : b));
        if (req.path.startsWith("/_sim/") && !refund)
          return mapJson(res, (b) => (b?.id && "parent_sale_id" in b ? rewrite(b) : b));
        return res;
      };
    },
  },
  {
    name: "sales-status-open-accepted",
    breaks: "Sales list 2: status=open answers 400 VALIDATION_FAILED (this one lists as if no status were given)",
    caughtBy: ["sales.status-open-refused"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !SALES.test(req.path)) return next(req);
      const params = new URLSearchParams(req.query);
      if (params.get("status") !== "open") return next(req);
      params.delete("status");
      return next({ ...req, query: params.toString() });
    },
  },
  {
    name: "sales-offset-accepted",
    breaks: "Sales list 1: completed_from and completed_to must end in Z (this one converts offsets to UTC)",
    caughtBy: ["sales.completed-offset-refused"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !SALES.test(req.path)) return next(req);
      const params = new URLSearchParams(req.query);
      for (const key of ["completed_from", "completed_to"]) {
        const value = params.get(key);
        if (value && /[+-]\d\d:\d\d$/.test(value) && !Number.isNaN(Date.parse(value)))
          params.set(key, new Date(value).toISOString());
      }
      return next({ ...req, query: params.toString() });
    },
  },
  {
    name: "sale-read-in-units",
    breaks:
      "What the service does 2 and 3: money in cents, the same document from the list and a single read (this one reads totals in dollars)",
    caughtBy: ["sales.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !SALE.test(req.path)) return res;
      return mapJson(res, (b) =>
        b?.data
          ? {
              ...b,
              data: {
                ...b.data,
                total: b.data.total / 100,
                tax_total: b.data.tax_total / 100,
                paid_total: b.data.paid_total / 100,
              },
            }
          : b,
      );
    },
  },
  {
    name: "walk-in-deletable",
    breaks: "Delete rules, customer: deleting the walk-in customer answers 409 CONFLICT (this one answers 204)",
    caughtBy: ["customers.walk-in-undeletable"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return req.method === "DELETE" && CUSTOMER.test(req.path) && res.status === 409
        ? { status: 204, headers: {}, body: null }
        : res;
    },
  },
];
