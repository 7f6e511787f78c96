import { AdjustmentBody, BatchBody, BatchLineResult, InventoryLevel, StockSetBody, StockWriteResult } from "../schemas/inventory.js";
import { op } from "../operation.js";

const STOCK_ERRORS = ["UNPROCESSABLE", "NOT_STOCK_TRACKED", "REASON_DIRECTION_MISMATCH", "INSUFFICIENT_STOCK", "REASON_NOT_ALLOWED", "OUTLET_DELETED"] as const;

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
    note: "Answers the stock write result. Spec: response not shown (docs/spec-choices.md).",
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
  }),
] as const;
