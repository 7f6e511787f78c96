import { blendAverage, fromMilli, toMilli, type Milli } from "../../kernel/quantity.js";
import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, type ApiError, type ErrorCode } from "../../contract/errors.js";
import type { ProductRecord } from "../catalog/records.js";
import type { AreaContext } from "../context.js";
import type { StoreState } from "../store.js";
import type { LevelRecord } from "./state.js";

// Spec, Inventory rules 1, 4 and 5: absolute sets and relative adjustments, planned in full and
// then applied, so a refused write (or a refused line of a batch) leaves no trace.

/** Where the product and outlet came from: path parameters answer 404, body references 422. */
export type RefSource = "path" | "body";

export interface StockChange {
  readonly product: { readonly id?: string; readonly sku?: string };
  readonly outletId: string;
  /** `set`: the absolute level; `adjust`: the relative quantity. */
  readonly kind: "set" | "adjust";
  readonly quantity: number;
  readonly reasonId?: string;
  readonly unitCost?: number;
  readonly source: RefSource;
}

export interface PlannedChange {
  readonly product: ProductRecord;
  readonly outletId: string;
  readonly previous: Milli;
  readonly next: Milli;
  readonly reasonId: string;
  readonly average: number;
  readonly unitCost: number | null;
  readonly level: LevelRecord | undefined;
}

/** A refusal and the body field it is about (the batch prefixes it with the line). */
export interface StockRefusal {
  readonly code: ErrorCode;
  readonly message: string;
  readonly field?: string;
  /** The rule branch that refused, when the answer alone does not tell it (contract/coverage-branches.ts). */
  readonly branch?: string;
}

const refuse = (code: ErrorCode, message: string, field?: string): { ok: false; error: StockRefusal } =>
  fail({ code, message, field });

export function planStockChange(store: StoreState, change: StockChange): Result<PlannedChange, StockRefusal> {
  const { catalog, inventory } = store;
  const missing: ErrorCode = change.source === "path" ? "NOT_FOUND" : "UNPROCESSABLE";
  let product: ProductRecord | undefined;
  if (change.product.sku !== undefined) {
    // rule inventory.batch-sku-matching: a sku is matched case-insensitively against live products only, never barcodes.
    product = catalog.productBySku(change.product.sku);
    if (!product) return refuse(missing, "No live product has this sku.", "sku");
  } else {
    product = catalog.products.live(change.product.id ?? "");
    if (!product) return refuse(missing, "The product was not found.", "product_id");
  }
  const outletRow = store.outlets.row(change.outletId);
  if (!outletRow) return refuse(missing, "The outlet was not found.", "outlet_id");
  // rule inventory.outlet-deleted: a deleted outlet is 422 OUTLET_DELETED.
  if (outletRow.deletedAt !== null)
    return refuse("OUTLET_DELETED", "The outlet is deleted; nothing was written.", "outlet_id");
  // rule inventory.not-stock-tracked: a product with has_inventory false is 422 NOT_STOCK_TRACKED.
  if (!product.has_inventory)
    return refuse(
      "NOT_STOCK_TRACKED",
      "The product does not track stock.",
      change.source === "body" ? (change.product.sku !== undefined ? "sku" : "product_id") : undefined,
    );

  // rule inventory.set-result: without reason_id the change is recorded under the system reason, Stock set via API.
  let reasonId = store.systemReasonId;
  if (change.reasonId !== undefined) {
    const reason = store.reasons.live(change.reasonId);
    if (!reason) return refuse("UNPROCESSABLE", "The adjustment reason was not found.", "reason_id");
    // rule inventory.system-reason-refused: REASON_NOT_ALLOWED for the system reason sent explicitly,
    // rule inventory.disabled-reason-refused: and for a disabled reason.
    if (reason.is_system || !reason.enabled)
      return fail({
        code: "REASON_NOT_ALLOWED",
        message: `The reason "${reason.name}" cannot be used here.`,
        field: "reason_id",
        branch: reason.is_system ? "inventory.system-reason-refused" : "inventory.disabled-reason-refused",
      });
    reasonId = reason.id;
  }

  const level = inventory.level(product.id, outletRow.id);
  const previous = level?.on_hand ?? 0;
  const amount = toMilli(change.quantity);
  const next = change.kind === "set" ? amount : previous + amount;
  // rule inventory.insufficient-stock: a change that would take stock below zero is 422 INSUFFICIENT_STOCK.
  if (next < 0)
    return refuse(
      "INSUFFICIENT_STOCK",
      `Stock would go below zero (${fromMilli(previous)} on hand).`,
      change.kind === "set" ? "on_hand" : "quantity",
    );
  const delta = next - previous;
  const reason = store.reasons.live(reasonId);
  // rule inventory.reason-direction-mismatch: a reason whose direction does not match the change is 422 REASON_DIRECTION_MISMATCH.
  if (
    reason &&
    delta !== 0 &&
    ((reason.type === "increase" && delta < 0) || (reason.type === "decrease" && delta > 0))
  ) {
    return refuse(
      "REASON_DIRECTION_MISMATCH",
      `The reason "${reason.name}" records ${reason.type}s only.`,
      "reason_id",
    );
  }

  // rule inventory.unit-cost-average: on a set, unit_cost becomes the average; on an adjustment it is blended in
  // when stock goes up and ignored otherwise; left out, the average is kept.
  const held = level?.average_cost ?? 0;
  const unitCost = change.unitCost ?? null;
  let average = held;
  if (unitCost !== null && delta !== 0) {
    if (change.kind === "set") average = unitCost;
    else if (delta > 0) average = blendAverage(previous, held, delta, unitCost);
  }
  return ok({ product, outletId: outletRow.id, previous, next, reasonId, average, unitCost, level });
}

export interface AppliedChange {
  readonly planned: PlannedChange;
  readonly changed: boolean;
  readonly adjustmentId: string | null;
  readonly movementId: string | null;
}

/** rule inventory.set-result: writes a planned change; repeating the same level changes nothing (changed false). */
export function applyStockChange(ctx: AreaContext, planned: PlannedChange): AppliedChange {
  const { store, ids, now } = ctx;
  const delta = planned.next - planned.previous;
  if (delta === 0) return { planned, changed: false, adjustmentId: null, movementId: null };
  const base = planned.level ?? {
    outlet_id: planned.outletId,
    reorder_method: "none",
    reorder_point: null,
    reorder_amount: null,
    reorder_target: null,
  };
  store.inventory.put(planned.product.id, {
    ...base,
    on_hand: planned.next,
    average_cost: planned.average,
    seq: store.nextSeq(),
  });
  const record = {
    id: ids.uuid(),
    movement_id: ids.uuid(),
    product_id: planned.product.id,
    outlet_id: planned.outletId,
    reason_id: planned.reasonId,
    delta,
    unit_cost: planned.unitCost,
    at: now,
  };
  store.inventory.adjustments.push(record);
  return { planned, changed: true, adjustmentId: record.id, movementId: record.movement_id };
}

/** The refusal as the spec's error; a batch names the line (`lines.2.sku`). A path 404 names no field. */
export function stockRefusal(r: StockRefusal, linePrefix?: string): ApiError {
  const field = linePrefix === undefined ? r.field : r.field === undefined ? linePrefix : `${linePrefix}.${r.field}`;
  const error =
    field === undefined || (r.code === "NOT_FOUND" && linePrefix === undefined)
      ? apiError(r.code, r.message)
      : apiError(r.code, r.message, [{ field, message: r.message }]);
  return r.branch === undefined ? error : { ...error, branch: r.branch };
}
