import type { Rng } from "../../kernel/random.js";
import type { FixtureSale } from "../../contract/schemas/fixture.js";
import type { StoreState } from "../store.js";
import type { ProductRecord } from "../catalog/records.js";
import { createSale, refundSale, voidSale } from "./operations.js";

const HOUR = 3_600_000;

/**
 * Fixture sales, made through the same operations as the control plane, in the hours before `now`.
 * Sales, refunds and voids are replayed in time order, so the change feed's order is also time order.
 */
export function buildSales(store: StoreState, sales: readonly FixtureSale[], ids: Rng, now: number): void {
  const outlets = new Map([...store.outlets.all()].map((r) => [r.value.name, r.id]));
  const payments = new Map([...store.paymentTypes.all()].map((r) => [r.value.name, r.id]));
  const firstEnabled = [...store.paymentTypes.all()].find((r) => r.deletedAt === null && r.value.enabled)?.id;
  // Lookups by the fixture's own strings, remembered: a large fixture names the same SKUs and customer
  // codes thousands of times, and each case-folded lookup would make a new string.
  const products = new Map<string, ProductRecord | undefined>();
  const productOf = (sku: string) => {
    if (!products.has(sku)) products.set(sku, store.catalog.productBySku(sku));
    return products.get(sku);
  };
  const customers = new Map<string, string | undefined>();
  const customerOf = (code: string) => {
    if (!customers.has(code)) customers.set(code, store.customers.codes.get(code.toLowerCase()));
    return customers.get(code);
  };
  const make = (spec: FixtureSale): string => {
    const at = now - spec.hours_ago * HOUR;
    const lines = spec.lines.map((l) => {
      const product = productOf(l.sku);
      return {
        product_id: product?.id ?? "",
        quantity: l.quantity,
        unit_price: l.unit_price ?? product?.retail_price ?? 0,
      };
    });
    const customerId = spec.customer === undefined ? undefined : customerOf(spec.customer);
    const payment = spec.payment === undefined ? firstEnabled : payments.get(spec.payment);
    const sale = createSale(
      { store, ids, now: at },
      {
        outlet_id: outlets.get(spec.outlet) ?? "",
        customer_id: customerId,
        lines,
        payment_type_id: payment,
        completed_at: at,
      },
    );
    if (!sale.ok) throw new Error(`fixture sale at ${spec.outlet}: ${sale.error.message}`);
    return sale.value.id;
  };
  // Plain sales already in time order (the large fixture) are made one after another.
  if (!needsReplay(sales)) {
    for (const spec of sales) make(spec);
    return;
  }
  const made = new Map<FixtureSale, string>();
  const events: { at: number; order: number; run: () => void }[] = [];
  sales.forEach((spec, order) => {
    events.push({ at: now - spec.hours_ago * HOUR, order, run: () => void made.set(spec, make(spec)) });
    if (spec.void || spec.refund !== undefined) {
      const later = now - (spec.refund_hours_ago ?? Math.max(0, spec.hours_ago - 1)) * HOUR;
      events.push({
        at: later,
        order,
        run: () => {
          const ctx = { store, ids, now: later };
          const saleId = made.get(spec) as string;
          if (spec.void) voidSale(ctx, saleId);
          if (spec.refund === undefined) return;
          const wanted =
            spec.refund === "all"
              ? undefined
              : spec.refund.map((r) => ({
                  product_id: store.catalog.productBySku(r.sku)?.id ?? "",
                  quantity: r.quantity,
                }));
          const refunded = refundSale(ctx, saleId, wanted);
          if (!refunded.ok) throw new Error(`fixture refund: ${refunded.error.message}`);
        },
      });
    }
  });
  // Stable: a sale comes before its own refund even at the same instant.
  events.sort((a, b) => a.at - b.at || a.order - b.order);
  for (const event of events) event.run();
}

/** Whether the sales need replaying in time order (refunds or voids); plain sales in time order need not. */
export function needsReplay(sales: readonly FixtureSale[]): boolean {
  for (let i = 0; i < sales.length; i++) {
    const s = sales[i] as FixtureSale;
    if (s.void || s.refund !== undefined || (i > 0 && s.hours_ago > (sales[i - 1] as FixtureSale).hours_ago))
      return true;
  }
  return false;
}
