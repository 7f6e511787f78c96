import { Type, type Static } from "@sinclair/typebox";
import { DateTime, ListQueryProps, Nullable, Uuid, Version } from "./common.js";
import { StringEnum } from "./enum.js";
import { component } from "./component.js";

// Spec, Resources: Sale (a refund is a sale with parent_sale_id set). Fields beyond those the spec
// names are the simulator's choice (docs/spec-choices.md); every amount is integer cents.

export const SALE_STATUSES = ["completed", "partially_refunded", "refunded", "voided"] as const;
const Cents = Type.Integer({ description: "Integer cents; negative on refunds." });

export const SaleLine = component(
  "SaleLine",
  Type.Object(
    {
      id: Uuid,
      product_id: Uuid,
      name: Type.String(),
      quantity: Type.Number({ description: "Negative on refunds." }),
      unit_price: Type.Integer({ description: "Cents, before tax." }),
      subtotal: Cents,
      tax_id: Uuid,
      tax_total: Cents,
      total: Cents,
    },
    { additionalProperties: false },
  ),
);

export const SaleTax = component(
  "SaleTax",
  Type.Object(
    { tax_id: Uuid, name: Type.String(), rate: Type.Number(), amount: Cents },
    { additionalProperties: false },
  ),
);
export const SalePayment = component(
  "SalePayment",
  Type.Object({ id: Uuid, payment_type_id: Uuid, amount: Cents, paid_at: DateTime }, { additionalProperties: false }),
);
export const SaleDiscount = component(
  "SaleDiscount",
  Type.Object({ id: Uuid, name: Type.String(), amount: Cents }, { additionalProperties: false }),
);
export const SaleAdjustment = component(
  "SaleAdjustment",
  Type.Object({ id: Uuid, name: Type.String(), amount: Cents }, { additionalProperties: false }),
);

export const Sale = component(
  "Sale",
  Type.Object(
    {
      id: Uuid,
      status: StringEnum(SALE_STATUSES),
      outlet_id: Uuid,
      customer_id: Nullable(Uuid),
      parent_sale_id: Nullable(Uuid),
      created_at: DateTime,
      completed_at: DateTime,
      subtotal: Cents,
      discount_total: Cents,
      tax_total: Cents,
      total: Cents,
      paid_total: Cents,
      line_items: Type.Array(SaleLine),
      discounts: Type.Array(SaleDiscount),
      adjustments: Type.Array(SaleAdjustment),
      taxes: Type.Array(SaleTax),
      payments: Type.Array(SalePayment),
      version: Version,
    },
    { additionalProperties: false },
  ),
);
export type Sale = Static<typeof Sale>;

/** rule sales.completed-offset-refused: completed_from and completed_to are UTC date-times ending in Z; an offset is refused. */
const UtcDateTime = Type.String({
  format: "utc-date-time",
  description: "ISO 8601 date-time in UTC, ending in Z; inclusive.",
});

/** rule sales.include-deleted-refused: sales are never deleted, so the list takes no `include_deleted` (sent, it is refused 400). */
const { include_deleted: _notOnSales, ...SalesListProps } = ListQueryProps;

export const SalesQuery = Type.Object(
  {
    ...SalesListProps,
    completed_from: Type.Optional(UtcDateTime),
    completed_to: Type.Optional(UtcDateTime),
    // rule sales.status-open-refused: the status filter takes the listed statuses only: status=open is 400.
    status: Type.Optional(StringEnum(SALE_STATUSES, { description: "open is refused with 400." })),
    outlet_id: Type.Optional(Uuid),
    customer_id: Type.Optional(Uuid),
    parent_sale_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type SalesQuery = Static<typeof SalesQuery>;
