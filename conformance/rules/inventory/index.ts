import type { Rule } from "../../rule.js";
import { inventoryBatchRules } from "./batch.js";
import { batchLineRules } from "./batch-lines.js";
import { unitCostRules } from "./cost.js";
import { stockRules } from "./levels.js";
import { outletDeletedRule } from "./outlet-deleted.js";
import { stockReasonRules } from "./reasons.js";

// The Inventory area: stock levels and writes (levels.ts, reasons.ts), unit costs (cost.ts), batches
// (batch.ts with bad-batches.ts, batch-lines.ts) and a deleted outlet (outlet-deleted.ts). Shared
// helpers are in ../support/inventory.ts.

export const inventoryRules: readonly Rule[] = [
  ...stockRules,
  ...stockReasonRules,
  ...unitCostRules,
  ...inventoryBatchRules,
  outletDeletedRule,
  ...batchLineRules,
];
