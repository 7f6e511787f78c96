import { iso, parseUtcDateTime } from "../../kernel/clock.js";
import { fromMilli } from "../../kernel/quantity.js";
import type { Sale, SalesQuery } from "../../contract/schemas/sales.js";
import type { RawJson } from "../../kernel/raw-json.js";
import { versionOf, type FeedIndex, type Row, type SlotList } from "../feed.js";
import { saleDay, type SaleRecord, type SalesState } from "./state.js";

/** rule sales.document: the sale list and a single sale read return the same full sale document; totals add up. */
export function saleView(row: Row<SaleRecord>): Sale {
  const s = row.value;
  const subtotal = s.lines.reduce((sum, l) => sum + l.subtotal, 0);
  const taxTotal = s.lines.reduce((sum, l) => sum + l.tax_total, 0);
  const taxes = new Map<string, number>();
  for (const line of s.lines) taxes.set(line.tax_id, (taxes.get(line.tax_id) ?? 0) + line.tax_total);
  return {
    id: s.id,
    status: s.status as Sale["status"],
    outlet_id: s.outlet_id,
    customer_id: s.customer_id,
    parent_sale_id: s.parent_sale_id,
    created_at: iso(s.created_at),
    completed_at: iso(s.completed_at),
    subtotal,
    discount_total: 0,
    tax_total: taxTotal,
    total: subtotal + taxTotal,
    paid_total: s.payments.reduce((sum, p) => sum + p.amount, 0),
    line_items: s.lines.map((l) => ({
      id: l.id,
      product_id: l.product_id,
      name: l.name,
      quantity: fromMilli(l.quantity),
      unit_price: l.unit_price,
      subtotal: l.subtotal,
      tax_id: l.tax_id,
      tax_total: l.tax_total,
      total: l.subtotal + l.tax_total,
    })),
    discounts: [],
    adjustments: [],
    taxes: [...taxes].map(([taxId, amount]) => ({
      tax_id: taxId,
      name: s.tax_rates[taxId]?.name ?? "",
      rate: s.tax_rates[taxId]?.rate ?? 0,
      amount,
    })),
    payments: s.payments.map((p) => ({
      id: p.id,
      payment_type_id: p.payment_type_id,
      amount: p.amount,
      paid_at: iso(p.paid_at),
    })),
    version: versionOf(row),
  };
}

/** The sale document as cached JSON (the store's sales keep the cache). */
export function saleJson(sales: SalesState, row: Row<SaleRecord>): RawJson<Sale> {
  return sales.saleJson.get(row, row.seq, "", () => saleView(row));
}

/** rule sales.completed-range-filter: filters on completed_at (both ends inclusive), status, outlet, customer and parent; open sales never. */
export function saleFilter(query: SalesQuery): (row: Row<SaleRecord>) => boolean {
  const from = query.completed_from === undefined ? undefined : parseUtcDateTime(query.completed_from);
  const to = query.completed_to === undefined ? undefined : parseUtcDateTime(query.completed_to);
  const lower = (id: string | undefined) => id?.toLowerCase();
  const outlet = lower(query.outlet_id);
  const customer = lower(query.customer_id);
  const parent = lower(query.parent_sale_id);
  return ({ value: s }) =>
    // rule sales.open-never-listed: an open (parked) sale is never listed, whatever the filters.
    s.status !== "open" &&
    // rule sales.status-filter: status= returns only sales of that status.
    (query.status === undefined || s.status === query.status) &&
    // rule sales.completed-range-inclusive: both ends of the completed_at range are inclusive.
    (from === undefined || s.completed_at >= from) &&
    (to === undefined || s.completed_at <= to) &&
    // rule sales.outlet-filter: outlet_id= returns every sale of that outlet and no other.
    (outlet === undefined || s.outlet_id === outlet) &&
    (customer === undefined || s.customer_id === customer) &&
    (parent === undefined || s.parent_sale_id === parent);
}

/**
 * The cheapest walk for a sales query: the smallest index list among its filters (one status, outlet,
 * customer or parent; the days of a completed_at range), or the whole feed (undefined) when no filter
 * narrows it. Costs are compared by slots held, so a page visits about its own rows whatever the feed's
 * size. The filter still decides every row: an index only chooses where to look.
 */
export function saleSources(state: SalesState, query: SalesQuery): SlotList<SaleRecord>[] | undefined {
  let best: SlotList<SaleRecord>[] | undefined;
  let bestCost = state.sales.size;
  const consider = (lists: SlotList<SaleRecord>[]) => {
    const cost = lists.reduce((sum, list) => sum + list.length, 0);
    if (cost < bestCost) [best, bestCost] = [lists, cost];
  };
  const one = (index: FeedIndex<SaleRecord>, key: string | undefined) => {
    if (key !== undefined) consider(listsOf(index, [key.toLowerCase()]));
  };
  one(state.byStatus, query.status);
  one(state.byOutlet, query.outlet_id);
  one(state.byCustomer, query.customer_id);
  one(state.byParent, query.parent_sale_id);
  if (query.completed_from !== undefined || query.completed_to !== undefined) consider(dayLists(state.byDay, query));
  return best;
}

function listsOf(index: FeedIndex<SaleRecord>, keys: Iterable<string>): SlotList<SaleRecord>[] {
  const lists: SlotList<SaleRecord>[] = [];
  for (const key of keys) {
    const list = index.bucket(key);
    if (list) lists.push(list);
  }
  return lists;
}

/** The day lists a completed_at range touches: by counting days, or by the days that have sales if fewer. */
function dayLists(byDay: FeedIndex<SaleRecord>, query: SalesQuery): SlotList<SaleRecord>[] {
  const from =
    query.completed_from === undefined ? -Infinity : saleDay(parseUtcDateTime(query.completed_from) ?? -Infinity);
  const to = query.completed_to === undefined ? Infinity : saleDay(parseUtcDateTime(query.completed_to) ?? Infinity);
  if (to < from) return [];
  if (to - from <= byDay.size)
    return listsOf(
      byDay,
      Array.from({ length: to - from + 1 }, (_, i) => String(from + i)),
    );
  const keys: string[] = [];
  for (const key of byDay.keys()) if (Number(key) >= from && Number(key) <= to) keys.push(key);
  return listsOf(byDay, keys);
}
