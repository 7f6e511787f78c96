import type { Rng } from "../../kernel/random.js";
import type { FixtureSale } from "../../contract/schemas/fixture.js";
import type { StoreState } from "../store.js";
import { createSale, refundSale, voidSale } from "./operations.js";

const HOUR = 3_600_000;

/**
 * Fixture sales, made through the same operations as the control plane, in the hours before `now`.
 * Sales, refunds and voids are replayed in time order, so the change feed's order is also time order.
 */
export function buildSales(store: StoreState, sales: readonly FixtureSale[], ids: Rng, now: number): void {
  const outlets = new Map([...store.outlets.all()].map((r) => [r.value.name, r.id]));
  const payments = new Map([...store.paymentTypes.all()].map((r) => [r.value.name, r.id]));
  const made = new Map<FixtureSale, string>();
  const events: { at: number; order: number; run: () => void }[] = [];
  sales.forEach((spec, order) => {
    const at = now - spec.hours_ago * HOUR;
    events.push({
      at,
      order,
      run: () => {
        const lines = spec.lines.map((l) => {
          const product = store.catalog.productBySku(l.sku);
          return { product_id: product?.id ?? "", quantity: l.quantity, unit_price: l.unit_price ?? product?.retail_price ?? 0 };
        });
        const customerId = spec.customer === undefined ? undefined : store.customers.codes.get(spec.customer.toLowerCase());
        const payment = spec.payment === undefined ? undefined : payments.get(spec.payment);
        const sale = createSale({ store, ids, now: at }, { outlet_id: outlets.get(spec.outlet) ?? "", customer_id: customerId, lines, payment_type_id: payment, completed_at: at });
        if (!sale.ok) throw new Error(`fixture sale at ${spec.outlet}: ${sale.error.message}`);
        made.set(spec, sale.value.id);
      },
    });
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
          const wanted = spec.refund === "all" ? undefined : spec.refund.map((r) => ({ product_id: store.catalog.productBySku(r.sku)?.id ?? "", quantity: r.quantity }));
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
