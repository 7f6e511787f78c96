import { CUSTOMER_FIELDS, type Mutant } from "../base.js";
import { bodyJson, json, on, re, sub, withBody, withJson } from "./util.js";

// Blind mutants of resource fields: a field missing, a wrong type, an extra field, money as a decimal.

const mapData = (b: any, f: (row: any) => any): any => ({
  ...b,
  data: Array.isArray(b.data) ? b.data.map(f) : f(b.data),
});

export const fieldMutants: readonly Mutant[] = [
  {
    name: "blind.brand-read-omits-null-description",
    breaks:
      'Resources: "All listed fields are always present in a read; nullable ones are marked." (GET /brands/{id} leaves out a null description)',
    caughtBy: ["catalog.duplicate-name", "isolation.foreign-ids"],
    // The single-brand serializer drops nulls; the list serializer does not.
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/brands/:id")) || res.status !== 200) return res;
      const b = json(res);
      if (!b?.data || b.data.description !== null) return res;
      const { description: _drop, ...rest } = b.data;
      return withJson(res, { data: rest });
    },
  },
  {
    name: "blind.sale-totals-in-dollars",
    breaks:
      'What the service does 2: "Money is always an integer number of minor units (cents). It is never a decimal." (sale totals in dollars)',
    caughtBy: ["sales.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req) ?? "";
      if (req.method !== "GET" || !/^\/sales(\/[^/]+)?$/.test(s) || res.status !== 200) return res;
      const b = json(res);
      if (!b?.data) return res;
      const dollars = (sale: any) => {
        const out = { ...sale };
        for (const k of ["total", "tax_total", "paid_total"]) if (typeof out[k] === "number") out[k] = out[k] / 100;
        return out;
      };
      return withJson(res, mapData(b, dollars));
    },
  },
  {
    name: "blind.product-supplier-with-supply-price",
    breaks: 'Resources, Product: "suppliers | array of ProductSupplier | At most 10. Never carries a supply price."',
    caughtBy: ["catalog.product-fields", "catalog.read-document-roundtrip"],
    // The supplier link is serialized straight from the join table, cost column included.
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req) ?? "";
      if (!/^\/products(\/[^/]+)?$/.test(s) || res.status >= 300) return res;
      const b = json(res);
      if (!b?.data) return res;
      const withCost = (p: any) =>
        p && Array.isArray(p.suppliers) && typeof p.retail_price === "number"
          ? {
              ...p,
              suppliers: p.suppliers.map((x: object) => ({ ...x, supply_price: Math.round(p.retail_price * 0.45) })),
            }
          : p;
      return withJson(res, mapData(b, withCost));
    },
  },
  {
    name: "blind.customer-unknown-properties-dropped",
    breaks: 'Resources: "No resource accepts unknown properties." (customer writes silently drop them)',
    caughtBy: ["customers.unknown-property"],
    wrap: (next) => async (req) => {
      if (!(on(req, "POST", re("/customers")) || on(req, "PATCH", re("/customers/:id")))) return next(req);
      const body = bodyJson(req);
      if (!body || typeof body !== "object" || Array.isArray(body)) return next(req);
      const known = Object.fromEntries(Object.entries(body).filter(([k]) => CUSTOMER_FIELDS.has(k)));
      return Object.keys(known).length === Object.keys(body).length ? next(req) : next(withBody(req, known));
    },
  },
  {
    name: "blind.inventory-level-version-number",
    breaks: 'Resources, InventoryLevel: "version | string (bigint as string)" (a number)',
    caughtBy: ["inventory.level-version-rises", "inventory.set-result"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/products/:id/inventory")) || res.status !== 200) return res;
      const b = json(res);
      if (!Array.isArray(b?.data)) return res;
      return withJson(res, { ...b, data: b.data.map((l: any) => ({ ...l, version: Number(l.version) })) });
    },
  },
  {
    name: "blind.me-key-without-name",
    breaks: 'Resources, Identity: "key with id and name" (the key carries only its id)',
    caughtBy: ["auth.me-identity", "scopes.me-lists-scopes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/me")) || res.status !== 200) return res;
      const b = json(res);
      if (!b?.data?.key) return res;
      return withJson(res, { data: { ...b.data, key: { id: b.data.key.id } } });
    },
  },
];
