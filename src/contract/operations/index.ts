import type { Operation } from "../operation.js";
import { accountOperations } from "./account.js";
import { productOperations, taxonomyOperations } from "./catalog.js";
import { customerOperations } from "./customers.js";
import { inventoryOperations } from "./inventory.js";
import { saleOperations } from "./sales.js";

/** The table of operations: routing, validation, the OpenAPI document and the conformance suite read it. */
export const OPERATIONS = [
  ...accountOperations,
  ...productOperations,
  ...taxonomyOperations,
  ...inventoryOperations,
  ...saleOperations,
  ...customerOperations,
] as const;

export type OperationId = (typeof OPERATIONS)[number]["id"];

/** The declaration of one operation, with its schemas' static types. */
export type OperationOf<Id extends OperationId> = Extract<(typeof OPERATIONS)[number], { readonly id: Id }>;

export const OPERATIONS_BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((o) => [o.id, o]));
