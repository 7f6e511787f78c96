import type { AdjustmentBody, BatchBody, StockSetBody } from "../../contract/schemas/inventory.js";
import {
  adjustStock,
  batchStock,
  productInventory,
  setStock,
  type InventoryContext,
} from "../../engine/inventory/operations.js";
import type { Handler, HandlerContext } from "./types.js";

const inventoryContext = (ctx: HandlerContext): InventoryContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  now: ctx.now,
});

export const inventoryHandlers = {
  getProductInventory: (ctx) => productInventory(ctx.store, ctx.params.id as string),
  setStock: (ctx) =>
    setStock(inventoryContext(ctx), ctx.params.id as string, ctx.params.outlet_id as string, ctx.body as StockSetBody),
  createAdjustment: (ctx) => adjustStock(inventoryContext(ctx), ctx.body as AdjustmentBody),
  stockBatch: (ctx) => batchStock(inventoryContext(ctx), ctx.body as BatchBody),
} satisfies Record<string, Handler>;
