import type { inventoryOperations } from "../../contract/operations/inventory.js";
import {
  adjustStock,
  batchStock,
  productInventory,
  setStock,
  type InventoryContext,
} from "../../engine/inventory/operations.js";
import type { HandlerMap, RequestContext } from "./types.js";

const inventoryContext = (ctx: RequestContext): InventoryContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  now: ctx.now,
});

export const inventoryHandlers = {
  getProductInventory: (ctx) => productInventory(ctx.store, ctx.params.id),
  setStock: (ctx) => setStock(inventoryContext(ctx), ctx.params.id, ctx.params.outlet_id, ctx.body),
  createAdjustment: (ctx) => adjustStock(inventoryContext(ctx), ctx.body),
  stockBatch: (ctx) => batchStock(inventoryContext(ctx), ctx.body),
} satisfies HandlerMap<typeof inventoryOperations>;
