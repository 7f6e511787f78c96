import type { Mutant } from "../base.js";
import { eachObject, isControl, liveRows, mapQueryParam, mapResponseJson, storeState, sub } from "./support.js";
import type { SimRequest } from "../../../../src/http/types.js";

// Honest variants of the sale document, which the spec shows only in part: the tax of a partial refund,
// the customer of walk-in sales, and the names of the parts beyond the named fields. They apply to
// every answer that shows sales, the control plane's sales and refunds included (the back office shows
// the same sale as the API).

/** API sale reads, and the control plane's sale, refund and void answers. */
const showsSales = (req: SimRequest): boolean =>
  /^\/sales(\/|$)/.test(sub(req) ?? "") ||
  (isControl(req) && /^\/_sim\/(?:sandboxes\/[^/]+\/)?stores\/[^/]+\/sales(\/|$)/.test(req.path));

const isSale = (o: Record<string, any>): boolean => "paid_total" in o && "parent_sale_id" in o;

/** cents × rate rounded half away from zero, in integers (a rate has at most 6 decimals here). */
function taxOf(cents: number, rate: number): number {
  const product = Math.abs(cents) * Math.round(rate * 1e6);
  return Math.sign(cents) * Math.floor((product + 500_000) / 1e6);
}

/** A refund whose line taxes are the rate applied to the refunded subtotal; totals and payment follow. */
function taxByRate(sale: Record<string, any>): void {
  if (sale.parent_sale_id === null || !Array.isArray(sale.line_items) || !Array.isArray(sale.taxes)) return;
  const rates = new Map<string, number>(sale.taxes.map((t: any) => [t.tax_id, t.rate]));
  const amounts = new Map<string, number>();
  for (const line of sale.line_items) {
    const rate = rates.get(line.tax_id);
    if (rate === undefined) continue;
    line.tax_total = taxOf(line.subtotal, rate);
    line.total = line.subtotal + line.tax_total;
    amounts.set(line.tax_id, (amounts.get(line.tax_id) ?? 0) + line.tax_total);
  }
  for (const t of sale.taxes) t.amount = amounts.get(t.tax_id) ?? t.amount;
  const taxTotal = sale.taxes.reduce((sum: number, t: any) => sum + t.amount, 0);
  const diff = taxTotal - sale.tax_total;
  sale.tax_total = taxTotal;
  sale.total += diff;
  const last = Array.isArray(sale.payments) ? sale.payments[sale.payments.length - 1] : undefined;
  if (diff !== 0 && last !== undefined) {
    last.amount += diff;
    sale.paid_total += diff;
  }
}

/** An id no sale's customer has: filtering by the walk-in customer finds no sale. */
const NOBODY = "00000000-0000-4000-8000-000000000000";

export const salesVariants: readonly Mutant[] = [
  {
    name: "honest.refund-tax-by-rate",
    breaks:
      'Allowed: the tax of a refund line is the tax rate applied to the refunded subtotal (not the refunded share of the tax paid); totals and the payment given back follow. Spec, Resources: "refund is a sale with parent_sale_id set"; "Fields of the sale document beyond those named: not shown." (spec-choices, Tax on a partial refund: either)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!showsSales(req) || res.status >= 300) return res;
      return mapResponseJson(res, (b) => {
        eachObject(b, (o) => isSale(o) && taxByRate(o));
        return b;
      });
    },
  },
  {
    name: "honest.walk-in-sales-null",
    breaks:
      'Allowed: a sale of the walk-in customer has customer_id null (and the customer_id filter finds none for the walk-in customer). Spec, Resources, Sale: "Known fields: id, status, completed_at, outlet_id, customer_id, parent_sale_id, version" marks none nullable, and parent_sale_id is null on every original (spec-choices, Sales without a customer: null customer_id).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      if (!showsSales(req)) return next(req);
      const walkIn = liveRows((await storeState(next, req))?.customers?.customers).find((c) => c.is_walk_in)?.id;
      if (typeof walkIn !== "string") return next(req);
      const isWalkIn = (id: unknown) => typeof id === "string" && id.toLowerCase() === walkIn.toLowerCase();
      const sent = isControl(req)
        ? req
        : { ...req, query: mapQueryParam(req.query, "customer_id", (id) => (isWalkIn(id) ? NOBODY : id)) };
      const res = await next(sent);
      if (res.status >= 300) return res;
      return mapResponseJson(res, (b) => {
        eachObject(b, (o) => {
          if (isSale(o) && isWalkIn(o.customer_id)) o.customer_id = null;
        });
        return b;
      });
    },
  },
  {
    name: "honest.sale-document-shape",
    breaks:
      'Allowed: the sale document\'s parts under other names (lines with price, tax_lines, tenders) and without subtotal, discount_total and created_at. Spec, Resources, Sale: "The document also contains line items, discounts, adjustments, taxes and payments. Fields of the sale document beyond those named: not shown." (spec-choices, Sales fields beyond those named: any further fields; the named fields checked only)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || !showsSales(req) || res.status >= 300) return res;
      return mapResponseJson(res, (b) => {
        eachObject(b?.data, (o) => {
          if (!isSale(o)) return;
          const { line_items, taxes, payments, subtotal: _s, discount_total: _d, created_at: _c, ...named } = o;
          for (const k of Object.keys(o)) delete o[k];
          Object.assign(o, named, {
            lines: (line_items as any[]).map(({ unit_price, ...line }) => ({ ...line, price: unit_price })),
            tax_lines: taxes,
            tenders: payments,
          });
        });
        return b;
      });
    },
  },
];
