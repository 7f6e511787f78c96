import type { Rng } from "../../kernel/random.js";
import type { FixtureSale } from "../../contract/schemas/fixture.js";
import type { StoreState } from "../store.js";
import { createSale, refundSale, voidSale } from "./operations.js";

const HOUR = 3_600_000;

/** Fixture sales, made through the same operations as the control plane, in the hours before `now`. */
export function buildSales(store: StoreState, sales: readonly FixtureSale[], ids: Rng, now: number): void {
  const outlets = new Map([...store.outlets.all()].map((r) => [r.value.name, r.id]));
  const payments = new Map([...store.paymentTypes.all()].map((r) => [r.value.name, r.id]));
  for (const spec of sales) {
    const at = now - spec.hours_ago * HOUR;
    const lines = spec.lines.map((l) => {
      const product = store.catalog.productBySku(l.sku);
      return { product_id: product?.id ?? "", quantity: l.quantity, unit_price: l.unit_price ?? product?.retail_price ?? 0 };
    });
    const customerId = spec.customer === undefined ? undefined : store.customers.codes.get(spec.customer.toLowerCase());
    const made = createSale(
      { store, ids, now },
      { outlet_id: outlets.get(spec.outlet) ?? "", customer_id: customerId, lines, payment_type_id: spec.payment === undefined ? undefined : payments.get(spec.payment), completed_at: at },
    );
    if (!made.ok) throw new Error(`fixture sale at ${spec.outlet}: ${made.error.message}`);
    const later = { store, ids, now: now - (spec.refund_hours_ago ?? Math.max(0, spec.hours_ago - 1)) * HOUR };
    if (spec.void) voidSale(later, made.value.id);
    if (spec.refund !== undefined) {
      const wanted = spec.refund === "all" ? undefined : spec.refund.map((r) => ({ product_id: store.catalog.productBySku(r.sku)?.id ?? "", quantity: r.quantity }));
      const refunded = refundSale(later, made.value.id, wanted);
      if (!refunded.ok) throw new Error(`fixture refund: ${refunded.error.message}`);
    }
  }
}
