import { bodyOf, mapJson, type Mutant } from "./base.js";
import { CONTROL_PATH, answer, apiError, jsonOf, param, sideRequest } from "./support.js";

// Broken sales (spec, Endpoints: Sales list rules; Resources: Sale): each violates one sentence.

const SALES = /^\/[^/]+\/v1\/sales$/;
const SALE = /^\/[^/]+\/v1\/sales\/([^/]+)$/;
const REFUND = /^\/_sim\/stores\/[^/]+\/sales\/([^/]+)\/refunds$/;
const CONTROL_SALES = CONTROL_PATH("/stores/[^/]+/sales");

export const salesMutants: readonly Mutant[] = [
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
    name: "sales-outlet-filter-ignored",
    breaks: "Endpoints: GET /sales?outlet_id= returns that outlet's sales (this one ignores the parameter)",
    caughtBy: ["sales.outlet-filter"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !SALES.test(req.path)) return next(req);
      const params = new URLSearchParams(req.query);
      if (!params.has("outlet_id")) return next(req);
      params.delete("outlet_id");
      return next({ ...req, query: params.toString() });
    },
  },
  {
    name: "sales-outlet-filter-drops-last",
    breaks:
      "Endpoints: GET /sales?outlet_id= returns every sale of that outlet (this one loses the last match, an off-by-one on the filtered query)",
    caughtBy: ["sales.outlet-filter"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !SALES.test(req.path) || !new URLSearchParams(req.query).has("outlet_id")) return res;
      return mapJson(res, (b) =>
        Array.isArray(b?.data) && b.data.length > 0 && b.has_more === false ? { ...b, data: b.data.slice(0, -1) } : b,
      );
    },
  },
  {
    name: "sales-deletable",
    breaks: "What the service does 3: sales are never deleted (this one deletes a sale on DELETE /sales/{id})",
    caughtBy: ["sales.read-only"],
    wrap: (next) => {
      const deleted = new Set<string>();
      return async (req) => {
        const id = SALE.exec(req.path)?.[1]?.toLowerCase();
        if (id !== undefined && req.method === "DELETE") {
          const read = await next(sideRequest(req, "GET", req.path));
          if (read.status !== 200) return next(req);
          deleted.add(id);
          return answer(read, 204, undefined);
        }
        const res = await next(req);
        if (id !== undefined && deleted.has(id)) return apiError(res, 404, "NOT_FOUND", "Sale not found.");
        const page = jsonOf(res);
        if (!SALES.test(req.path) || !Array.isArray(page?.data)) return res;
        return answer(res, res.status, {
          ...page,
          data: page.data.filter((s: any) => !deleted.has(String(s?.id).toLowerCase())),
        });
      };
    },
  },
  {
    name: "open-sales-listed",
    breaks:
      "States: an open (parked) sale is never returned by the list (this one lists parked sales on the last page)",
    caughtBy: ["sales.open-never-listed"],
    wrap: (next) => {
      const parked: any[] = [];
      return async (req) => {
        const res = await next(req);
        if (req.method === "POST" && CONTROL_SALES.test(req.path) && bodyOf(req)?.parked === true && res.status < 300) {
          const doc = jsonOf(res);
          parked.push(doc?.data ?? doc);
          return res;
        }
        const page = jsonOf(res);
        if (
          req.method !== "GET" ||
          !SALES.test(req.path) ||
          res.status !== 200 ||
          page?.has_more !== false ||
          param(req.query, "status") !== undefined
        )
          return res;
        const customer = param(req.query, "customer_id");
        const extra = parked.filter((s) => customer === undefined || s?.customer_id === customer);
        return extra.length === 0 ? res : answer(res, 200, { ...page, data: [...page.data, ...extra] });
      };
    },
  },
];
