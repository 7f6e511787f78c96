import { applyRate, extend, share } from "../../kernel/money.js";
import { toMilli, type Milli } from "../../kernel/quantity.js";
import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, fieldError, notFound, type ApiError } from "../../contract/errors.js";
import type { Row } from "../feed.js";
import type { AreaContext } from "../context.js";
import type { StoreState } from "../store.js";
import type { SaleLineRecord, SaleRecord, SalesState } from "./state.js";

// Sales are made through the control plane (the public API reads them only). Every amount is integer
// cents, rounded half away from zero; refunds give back exactly what remains, so cents always add up.

/** A sale operation needs its store, the id stream and the time it happens at. */
export type SaleContext = AreaContext;

export interface SaleInput {
  readonly outlet_id: string;
  readonly customer_id?: string;
  readonly lines: readonly { product_id: string; quantity: number; unit_price: number }[];
  readonly payment_type_id?: string;
  readonly completed_at?: number;
  /** A parked sale (status open): kept, never listed, never readable. */
  readonly parked?: boolean;
}

export function createSale(ctx: SaleContext, input: SaleInput): Result<Row<SaleRecord>, ApiError> {
  const { store, ids, now } = ctx;
  const outlet = store.outlets.live(input.outlet_id);
  if (!outlet) return fail(fieldError("UNPROCESSABLE", "outlet_id", "is not a live outlet of this store"));
  const customerId = input.customer_id ?? store.customers.walkInId;
  if (!store.customers.customers.live(customerId))
    return fail(fieldError("UNPROCESSABLE", "customer_id", "is not a customer of this store"));
  const paymentType =
    input.payment_type_id === undefined
      ? [...store.paymentTypes.all()].find((r) => r.deletedAt === null && r.value.enabled)?.value
      : store.paymentTypes.live(input.payment_type_id);
  if (!paymentType?.enabled)
    return fail(fieldError("UNPROCESSABLE", "payment_type_id", "is not an enabled payment type of this store"));
  const completedAt = input.completed_at ?? now;
  if (completedAt > now)
    return fail(fieldError("VALIDATION_FAILED", "completed_at", "is later than the simulator's now"));
  const tax = store.taxes.live(outlet.default_tax_id);
  if (!tax) return fail(fieldError("UNPROCESSABLE", "outlet_id", "the outlet's default tax is missing"));

  const lines: SaleLineRecord[] = [];
  for (let i = 0; i < input.lines.length; i++) {
    const line = input.lines[i] as SaleInput["lines"][number];
    const product = store.catalog.products.live(line.product_id);
    if (!product) return fail(fieldError("UNPROCESSABLE", `lines.${i}.product_id`, "is not a product of this store"));
    lines.push(saleLine(ids.uuid(), product, toMilli(line.quantity), line.unit_price, tax));
  }
  const id = ids.uuid();
  const payment = input.parked ? null : { id: ids.uuid(), payment_type_id: paymentType.id };
  const sale = saleRecord(id, outlet.id, customerId, completedAt, lines, payment, taxTable(store.sales, tax));
  return { ok: true, value: store.sales.sales.put(id, sale) };
}

/** A line of a new sale: its amounts computed once, from the unit price and the tax rate of the sale's time. */
export function saleLine(
  id: string,
  product: { readonly id: string; readonly name: string },
  quantity: Milli,
  unitPrice: number,
  tax: { readonly id: string; readonly rate: number },
): SaleLineRecord {
  const subtotal = extend(unitPrice, quantity);
  return {
    id,
    product_id: product.id,
    name: product.name,
    quantity,
    unit_price: unitPrice,
    subtotal,
    tax_id: tax.id,
    tax_total: applyRate(subtotal, tax.rate),
    source_line_id: null,
  };
}

/** A new sale: completed and paid in full by one payment, or parked (open, no payment) when `payment` is null. */
export function saleRecord(
  id: string,
  outletId: string,
  customerId: string,
  completedAt: number,
  lines: SaleLineRecord[],
  payment: { readonly id: string; readonly payment_type_id: string } | null,
  taxRates: SaleRecord["tax_rates"],
): SaleRecord {
  const total = lines.reduce((sum, l) => sum + l.subtotal + l.tax_total, 0);
  return {
    id,
    status: payment === null ? "open" : "completed",
    outlet_id: outletId,
    customer_id: customerId,
    parent_sale_id: null,
    created_at: completedAt,
    completed_at: completedAt,
    lines,
    payments:
      payment === null
        ? []
        : [{ id: payment.id, payment_type_id: payment.payment_type_id, amount: total, paid_at: completedAt }],
    tax_rates: taxRates,
  };
}

/** Sales share one frozen rate table per tax version (kept by the store's sales): no copy per sale. */
export function taxTable(
  sales: SalesState,
  tax: { id: string; name: string; rate: number },
): Readonly<Record<string, { name: string; rate: number }>> {
  let table = sales.taxTables.get(tax);
  if (!table) {
    table = Object.freeze({ [tax.id]: Object.freeze({ name: tax.name, rate: tax.rate }) });
    sales.taxTables.set(tax, table);
  }
  return table;
}

/** What is left to refund of each line of an original sale. */
function remaining(
  store: StoreState,
  sale: SaleRecord,
): Map<string, { quantity: Milli; subtotal: number; tax: number }> {
  const left = new Map(sale.lines.map((l) => [l.id, { quantity: l.quantity, subtotal: l.subtotal, tax: l.tax_total }]));
  for (const refundId of store.sales.refundsOf.get(sale.id) ?? []) {
    for (const line of store.sales.sales.live(refundId)?.lines ?? []) {
      const entry = line.source_line_id === null ? undefined : left.get(line.source_line_id);
      if (!entry) continue;
      entry.quantity += line.quantity;
      entry.subtotal += line.subtotal;
      entry.tax += line.tax_total;
    }
  }
  return left;
}

/**
 * rule sales.refund-new-version: a refund is a sale with parent_sale_id set. The original gets a new version
 * (spec, States: sale), partially_refunded or refunded. Without lines, everything left is refunded.
 */
export function refundSale(
  ctx: SaleContext,
  saleId: string,
  wanted?: readonly { product_id: string; quantity: number }[],
): Result<Row<SaleRecord>, ApiError> {
  const { store, ids, now } = ctx;
  const original = store.sales.sales.live(saleId);
  if (!original || original.status === "open") return fail(notFound("sale"));
  if (original.parent_sale_id !== null) return fail(apiError("CONFLICT", "A refund cannot be refunded."));
  if (original.status !== "completed" && original.status !== "partially_refunded")
    return fail(apiError("CONFLICT", `A ${original.status} sale cannot be refunded.`));
  const left = remaining(store, original);
  const take = new Map<string, Milli>();
  if (wanted === undefined) for (const [lineId, entry] of left) take.set(lineId, entry.quantity);
  else {
    for (let i = 0; i < wanted.length; i++) {
      const want = wanted[i] as { product_id: string; quantity: number };
      let quantity = toMilli(want.quantity);
      for (const line of original.lines) {
        if (line.product_id !== want.product_id.toLowerCase() || quantity === 0) continue;
        const free = (left.get(line.id)?.quantity ?? 0) - (take.get(line.id) ?? 0);
        const part = Math.min(free, quantity);
        if (part > 0) take.set(line.id, (take.get(line.id) ?? 0) + part);
        quantity -= part;
      }
      if (quantity > 0)
        return fail(
          fieldError(
            "UNPROCESSABLE",
            `lines.${i}.quantity`,
            "is more than is left to refund of this product in the sale",
          ),
        );
    }
  }
  const lines: SaleLineRecord[] = [];
  for (const line of original.lines) {
    const quantity = take.get(line.id) ?? 0;
    if (quantity <= 0) continue;
    const entry = left.get(line.id) as { quantity: Milli; subtotal: number; tax: number };
    const all = quantity === entry.quantity;
    const subtotal = all ? entry.subtotal : share(line.subtotal, quantity, line.quantity);
    const tax = all ? entry.tax : share(line.tax_total, quantity, line.quantity);
    lines.push({
      ...line,
      id: ids.uuid(),
      quantity: -quantity,
      subtotal: -subtotal,
      tax_total: -tax,
      source_line_id: line.id,
    });
  }
  if (lines.length === 0) return fail(apiError("CONFLICT", "Nothing is left to refund."));
  const total = lines.reduce((sum, l) => sum + l.subtotal + l.tax_total, 0);
  const id = ids.uuid();
  const refund: SaleRecord = {
    ...original,
    id,
    status: "completed",
    parent_sale_id: original.id,
    created_at: now,
    completed_at: now,
    lines,
    payments: [
      { id: ids.uuid(), payment_type_id: original.payments[0]?.payment_type_id ?? "", amount: total, paid_at: now },
    ],
  };
  const row = store.sales.sales.put(id, refund);
  store.sales.refundsOf.set(original.id, [...(store.sales.refundsOf.get(original.id) ?? []), id]);
  const fullyRefunded = [...remaining(store, original).values()].every((entry) => entry.quantity === 0);
  store.sales.sales.put(original.id, { ...original, status: fullyRefunded ? "refunded" : "partially_refunded" });
  return ok(row);
}

/** Voids a completed sale that has no refunds. */
export function voidSale(ctx: SaleContext, saleId: string): Result<Row<SaleRecord>, ApiError> {
  const { store } = ctx;
  const sale = store.sales.sales.live(saleId);
  if (!sale || sale.status === "open") return fail(notFound("sale"));
  if (
    sale.status !== "completed" ||
    sale.parent_sale_id !== null ||
    (store.sales.refundsOf.get(sale.id) ?? []).length > 0
  ) {
    return fail(apiError("CONFLICT", "Only a completed sale without refunds can be voided."));
  }
  return ok(store.sales.sales.put(sale.id, { ...sale, status: "voided" }));
}
