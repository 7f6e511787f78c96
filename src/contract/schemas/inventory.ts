import { Type, type Static } from "@sinclair/typebox";
import { Nullable, Uuid, Version } from "./common.js";
import { component, exactlyOne } from "./component.js";

// Spec, Resources: InventoryLevel, stock write result, InventoryBatchLineResult; Endpoints: the
// stock set, adjustment and batch bodies.

/** rule inventory.quantity-four-decimals-refused: quantities exact to 3 decimal places (a 4th decimal is 400). */
export const Quantity = Type.Number({ decimals: 3, minimum: -1_000_000_000, maximum: 1_000_000_000 });
const OnHand = Type.Number({ decimals: 3, minimum: 0, maximum: 1_000_000_000 });
// rule inventory.unit-cost-accepted: unit_cost is integer cents on sets and adjustments alike (anything else is 400).
const UnitCost = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: "Integer cents." });

export const InventoryLevel = component(
  "InventoryLevel",
  Type.Object(
    {
      outlet_id: Uuid,
      on_hand: Type.Number(),
      reorder_method: Type.String(),
      reorder_point: Nullable(Type.Number()),
      reorder_amount: Nullable(Type.Number()),
      reorder_target: Nullable(Type.Number()),
      version: Version,
    },
    { additionalProperties: false },
  ),
);
export type InventoryLevel = Static<typeof InventoryLevel>;

export const StockWriteResult = component(
  "StockWriteResult",
  Type.Object(
    {
      changed: Type.Boolean(),
      previous: Type.Number(),
      on_hand: Type.Number(),
      delta: Type.Number(),
      adjustment_id: Nullable(Uuid),
      movement_id: Nullable(Uuid),
    },
    { additionalProperties: false },
  ),
);
export type StockWriteResult = Static<typeof StockWriteResult>;

export const StockSetBody = component(
  "StockSet",
  Type.Object(
    { on_hand: OnHand, reason_id: Type.Optional(Uuid), unit_cost: Type.Optional(UnitCost) },
    { additionalProperties: false },
  ),
);
export type StockSetBody = Static<typeof StockSetBody>;

/** Spec, Inventory: a stock write names its product by exactly one of these (see `exactlyOne` below). */
const ProductByIdOrSku = {
  product_id: Type.Optional(Uuid),
  sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
};

export const AdjustmentBody = component(
  "AdjustmentCreate",
  // Spec, Inventory: exactly one of product_id or sku (the engine checks it with the spec's messages).
  exactlyOne(
    Type.Object(
      {
        ...ProductByIdOrSku,
        outlet_id: Uuid,
        reason_id: Uuid,
        quantity: Quantity,
        unit_cost: Type.Optional(UnitCost),
      },
      { additionalProperties: false },
    ),
    ["product_id", "sku"],
  ),
);
export type AdjustmentBody = Static<typeof AdjustmentBody>;

const BatchSet = component(
  "StockBatchSet",
  Type.Object(
    { on_hand: OnHand, reason_id: Type.Optional(Uuid), unit_cost: Type.Optional(UnitCost) },
    { additionalProperties: false },
  ),
);
/** Mirrors POST /inventory/adjustments, where reason_id is required. */
const BatchAdjust = component(
  "StockBatchAdjust",
  Type.Object(
    { quantity: Quantity, reason_id: Uuid, unit_cost: Type.Optional(UnitCost) },
    { additionalProperties: false },
  ),
);

export const BatchLine = component(
  "StockBatchLine",
  // Spec, Inventory: exactly one of product_id or sku, and exactly one of set or adjust (the engine checks it with the spec's messages).
  exactlyOne(
    Type.Object(
      {
        ...ProductByIdOrSku,
        outlet_id: Uuid,
        set: Type.Optional(BatchSet),
        adjust: Type.Optional(BatchAdjust),
      },
      { additionalProperties: false },
    ),
    ["product_id", "sku"],
    ["set", "adjust"],
  ),
);
export type BatchLine = Static<typeof BatchLine>;

export const BatchBody = component(
  "StockBatch",
  // rule inventory.batch-line-count: a batch holds 1 to 100 lines (400 otherwise).
  Type.Object({ lines: Type.Array(BatchLine, { minItems: 1, maxItems: 100 }) }, { additionalProperties: false }),
);
export type BatchBody = Static<typeof BatchBody>;

export const BatchLineResult = component(
  "StockBatchLineResult",
  Type.Object(
    {
      product_id: Uuid,
      outlet_id: Uuid,
      sku: Type.Optional(Type.String({ description: "Only when the line was given by sku." })),
      changed: Nullable(Type.Boolean()),
      previous: Nullable(Type.Number()),
      on_hand: Nullable(Type.Number()),
      delta: Nullable(Type.Number()),
      replayed: Type.Boolean({ description: "True only on an idempotency replay." }),
    },
    { additionalProperties: false },
  ),
);
export type BatchLineResult = Static<typeof BatchLineResult>;
