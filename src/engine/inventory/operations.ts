import { fromMilli } from "../../kernel/quantity.js";
import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, invalid, notFound, type ApiError } from "../../contract/errors.js";
import type {
  AdjustmentBody,
  BatchBody,
  BatchLineResult,
  InventoryLevel,
  StockSetBody,
  StockWriteResult,
} from "../../contract/schemas/inventory.js";
import type { StoreState } from "../store.js";
import type { AreaContext } from "../context.js";
import {
  applyStockChange,
  planStockChange,
  stockRefusal,
  type AppliedChange,
  type PlannedChange,
  type StockChange,
} from "./stock.js";

// The inventory operations of the spec's endpoint table, on top of the planner in stock.ts.

/** An inventory operation needs its store, the id stream (adjustment and movement ids) and the time. */
export type InventoryContext = AreaContext;

const writeResult = (a: AppliedChange): StockWriteResult => ({
  changed: a.changed,
  previous: fromMilli(a.planned.previous),
  on_hand: fromMilli(a.planned.next),
  delta: fromMilli(a.planned.next - a.planned.previous),
  adjustment_id: a.adjustmentId,
  movement_id: a.movementId,
});

/** `GET /products/{id}/inventory`: one row per live outlet where the product is stocked; not paginated. */
export function productInventory(store: StoreState, productId: string): Result<InventoryLevel[], ApiError> {
  const product = store.catalog.products.live(productId);
  if (!product) return fail(notFound("product"));
  return ok(
    store.inventory
      .levelsOf(product.id)
      .filter((level) => store.outlets.live(level.outlet_id))
      .map((level) => ({
        outlet_id: level.outlet_id,
        on_hand: fromMilli(level.on_hand),
        reorder_method: level.reorder_method,
        reorder_point: level.reorder_point === null ? null : fromMilli(level.reorder_point),
        reorder_amount: level.reorder_amount === null ? null : fromMilli(level.reorder_amount),
        reorder_target: level.reorder_target === null ? null : fromMilli(level.reorder_target),
        // rule inventory.level-version-rises: a level's version is its latest change's sequence number, as a string: it rises with each change.
        version: String(level.seq),
      })),
  );
}

/** `PUT /products/{id}/inventory/{outlet_id}`: an absolute set (spec, Inventory rules 1). */
export function setStock(
  ctx: InventoryContext,
  productId: string,
  outletId: string,
  body: StockSetBody,
): Result<StockWriteResult, ApiError> {
  const change: StockChange = {
    product: { id: productId },
    outletId,
    kind: "set",
    quantity: body.on_hand,
    reasonId: body.reason_id,
    unitCost: body.unit_cost,
    source: "path",
  };
  const planned = planStockChange(ctx.store, change);
  if (!planned.ok) return fail(stockRefusal(planned.error));
  return ok(writeResult(applyStockChange(ctx, planned.value)));
}

/** Exactly one of product_id or sku (spec, Inventory rules 2, for batch lines and adjustments alike). */
function productRef(line: { product_id?: string; sku?: string }, at: string): ApiError | undefined {
  if ((line.product_id === undefined) === (line.sku === undefined)) {
    const field = at === "" ? "product_id" : `${at}.product_id`;
    return apiError("VALIDATION_FAILED", `${field}: give exactly one of product_id or sku`, [
      { field, message: "give exactly one of product_id or sku" },
    ]);
  }
  return undefined;
}

/** `POST /inventory/adjustments`: a relative change with a reason. */
export function adjustStock(ctx: InventoryContext, body: AdjustmentBody): Result<StockWriteResult, ApiError> {
  const refError = productRef(body, "");
  if (refError) return fail(refError);
  if (body.quantity === 0) return fail(invalid("quantity", "must not be 0"));
  const planned = planStockChange(ctx.store, {
    product: { id: body.product_id, sku: body.sku },
    outletId: body.outlet_id,
    kind: "adjust",
    quantity: body.quantity,
    reasonId: body.reason_id,
    unitCost: body.unit_cost,
    source: "body",
  });
  if (!planned.ok) return fail(stockRefusal(planned.error));
  return ok(writeResult(applyStockChange(ctx, planned.value)));
}

const NESTED = new Set(["on_hand", "quantity", "reason_id", "unit_cost"]);

/** `POST /inventory/batch`: 1 to 100 lines, all or nothing (spec, Inventory rules 2 and 3). */
export function batchStock(ctx: InventoryContext, body: BatchBody): Result<BatchLineResult[], ApiError> {
  const plans: PlannedChange[] = [];
  const pairs = new Set<string>();
  for (let i = 0; i < body.lines.length; i++) {
    const line = body.lines[i] as BatchBody["lines"][number];
    // rule inventory.batch-line-named: a refusal names its line: lines.N, or a field inside it.
    const at = `lines.${i}`;
    const refError = productRef(line, at);
    if (refError) return fail(refError);
    // rule inventory.batch-line-shape: exactly one of set or adjust, and (productRef) exactly one of product_id or sku; outlet_id is required by the schema.
    if ((line.set === undefined) === (line.adjust === undefined)) {
      return fail(
        apiError("VALIDATION_FAILED", `${at}: give exactly one of set or adjust`, [
          { field: at, message: "give exactly one of set or adjust" },
        ]),
      );
    }
    const op = line.set
      ? { kind: "set" as const, quantity: line.set.on_hand, ...line.set }
      : { kind: "adjust" as const, ...(line.adjust as NonNullable<typeof line.adjust>) };
    if (op.kind === "adjust" && op.quantity === 0) {
      return fail(
        apiError("VALIDATION_FAILED", `${at}.adjust.quantity: must not be 0`, [
          { field: `${at}.adjust.quantity`, message: "must not be 0" },
        ]),
      );
    }
    const planned = planStockChange(ctx.store, {
      product: { id: line.product_id, sku: line.sku },
      outletId: line.outlet_id,
      kind: op.kind,
      quantity: op.quantity,
      reasonId: op.reason_id,
      unitCost: op.unit_cost,
      source: "body",
    });
    // Fields of the set or adjust object are named inside it: lines.2.adjust.reason_id.
    if (!planned.ok)
      return fail(stockRefusal(planned.error, NESTED.has(planned.error.field ?? "") ? `${at}.${op.kind}` : at));
    // rule inventory.batch-pair-once: a product and outlet pair may appear only once per batch.
    const pair = `${planned.value.product.id}/${planned.value.outletId}`;
    if (pairs.has(pair)) {
      return fail({
        ...apiError("VALIDATION_FAILED", `${at}: this product and outlet pair appears earlier in the batch`, [
          { field: at, message: "this product and outlet pair appears earlier in the batch" },
        ]),
        branch: "inventory.batch-pair-once",
      });
    }
    pairs.add(pair);
    plans.push(planned.value);
  }
  return ok(
    // rule inventory.batch-all-or-nothing: every line is planned before any is applied: one refused line writes nothing.
    plans.map((planned, i) => {
      const applied = applyStockChange(ctx, planned);
      const line = body.lines[i] as BatchBody["lines"][number];
      return {
        product_id: planned.product.id,
        outlet_id: planned.outletId,
        ...(line.sku !== undefined ? { sku: line.sku } : {}),
        changed: applied.changed,
        previous: fromMilli(planned.previous),
        on_hand: fromMilli(planned.next),
        delta: fromMilli(planned.next - planned.previous),
        replayed: false,
      };
    }),
  );
}
