import type { Rule } from "../../rule.js";
import { inventoryBatchRules, outletDeletedRule } from "./batch.js";
import { batchLineRules } from "./batch-lines.js";
import { unitCostRules } from "./cost.js";
import { stockRules } from "./levels.js";

// The Inventory area: stock levels and writes (levels.ts), unit costs (cost.ts), batches (batch.ts,
// batch-lines.ts). Shared helpers are in ../support/inventory.ts.

export const inventoryRules: readonly Rule[] = [
  ...stockRules,
  ...unitCostRules,
  ...inventoryBatchRules,
  outletDeletedRule,
  ...batchLineRules,
];
