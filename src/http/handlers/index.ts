import type { OperationId } from "../../contract/operations/index.js";
import { accountHandlers } from "./account.js";
import { productHandlers, taxonomyHandlers } from "./catalog.js";
import { customerHandlers } from "./customers.js";
import { saleHandlers } from "./sales.js";
import { inventoryHandlers } from "./inventory.js";
import type { Handler } from "./types.js";

/** One handler per operation of the table; the compiler refuses a missing or unknown one. */
export const HANDLERS = {
  ...accountHandlers,
  ...productHandlers,
  ...taxonomyHandlers,
  ...inventoryHandlers,
  ...saleHandlers,
  ...customerHandlers,
} satisfies Record<OperationId, Handler>;
