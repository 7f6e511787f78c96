import type { OPERATIONS } from "../../contract/operations/index.js";
import { accountHandlers } from "./account.js";
import { productHandlers, taxonomyHandlers } from "./catalog.js";
import { customerHandlers } from "./customers.js";
import { saleHandlers } from "./sales.js";
import { inventoryHandlers } from "./inventory.js";
import type { HandlerMap } from "./types.js";

/** One handler per operation of the table; the compiler refuses a missing or unknown one, and checks
 * each against its own operation's declaration (typed params, query, body and result). */
export const HANDLERS = {
  ...accountHandlers,
  ...productHandlers,
  ...taxonomyHandlers,
  ...inventoryHandlers,
  ...saleHandlers,
  ...customerHandlers,
} satisfies HandlerMap<typeof OPERATIONS>;
