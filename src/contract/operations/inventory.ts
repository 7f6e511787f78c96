import {
  AdjustmentBody,
  BatchBody,
  BatchLineResult,
  InventoryLevel,
  StockSetBody,
  StockWriteResult,
} from "../schemas/inventory.js";
import { op } from "../operation.js";

const STOCK_ERRORS = [
  "UNPROCESSABLE",
  "NOT_STOCK_TRACKED",
  "REASON_DIRECTION_MISMATCH",
  "INSUFFICIENT_STOCK",
  "REASON_NOT_ALLOWED",
  "OUTLET_DELETED",
] as const;

export const inventoryOperations = [
  op({
    id: "getProductInventory",
    method: "GET",
    path: "/products/{id}/inventory",
    summary: "Stock levels of a product, one per live outlet where it is stocked (not paginated)",
    tag: "Inventory",
    scope: "inventory:read",
    kind: "items",
    response: InventoryLevel,
    description:
      "The product's stock level at each live outlet where it is stocked, in one `{data: [...]}` answer (not paginated); `on_hand` has up to 3 decimal places. Spec, Pagination and polling rules 5: “Stock levels have no change feed; poll `GET /products/{id}/inventory`.” A product that tracks no stock answers `{data: []}`.",
  }),
  op({
    id: "setStock",
    method: "PUT",
    path: "/products/{id}/inventory/{outlet_id}",
    summary: "Set the absolute stock level of a product at an outlet",
    tag: "Inventory",
    scope: "inventory:write",
    idempotency: "optional",
    body: StockSetBody,
    kind: "single",
    response: StockWriteResult,
    errors: STOCK_ERRORS,
    description:
      "Sets the absolute stock level of a product at an outlet and answers the stock write result. Spec, Inventory rules 1: “Repeating the same `on_hand` changes nothing (`changed` false). Without `reason_id`, the change is recorded under the system reason named Stock set via API.” A `unit_cost` (cents) becomes the outlet's average cost. Refusals are 422: `NOT_STOCK_TRACKED`, `REASON_NOT_ALLOWED` (system or disabled reason), `REASON_DIRECTION_MISMATCH` (the reason's direction differs from the change), `OUTLET_DELETED`. Optional `Idempotency-Key`.",
  }),
  op({
    id: "createAdjustment",
    method: "POST",
    path: "/inventory/adjustments",
    summary: "Adjust stock by a relative quantity, with a reason",
    tag: "Inventory",
    scope: "inventory:write",
    idempotency: "required",
    body: AdjustmentBody,
    kind: "single",
    response: StockWriteResult,
    successStatus: 201,
    errors: STOCK_ERRORS,
    description:
      "Adds or removes stock by a relative `quantity` under a `reason_id`, naming the product by exactly one of `product_id` or `sku`; a `unit_cost` is blended into the average cost when stock goes up. Spec, Inventory rules 5: “`422 INSUFFICIENT_STOCK` (would go below zero)”. The `Idempotency-Key` is required here; Spec, Errors: “A missing `Idempotency-Key` on a route that requires one answers `400 VALIDATION_FAILED` naming the header.” Answers 201 with the stock write result, as a set does (response not shown by the spec, docs/spec-choices.md).",
  }),
  op({
    id: "stockBatch",
    method: "POST",
    path: "/inventory/batch",
    summary: "Set or adjust up to 100 stock levels, all or nothing",
    tag: "Inventory",
    scope: "inventory:write",
    idempotency: "required",
    replayMarksItems: true,
    body: BatchBody,
    kind: "items",
    response: BatchLineResult,
    errors: STOCK_ERRORS,
    description:
      "Sets or adjusts up to 100 stock levels in one call; each line has exactly one of `set` or `adjust`, exactly one of `product_id` or `sku` (matched without case), and `outlet_id`. Spec, Inventory rules 3: “A batch is all or nothing: a bad line (for example an unknown sku) writes nothing.” and “A replayed batch marks every line `replayed: true`.” The `Idempotency-Key` is required; field errors name the line (`lines.2`).",
  }),
] as const;
