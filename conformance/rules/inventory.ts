import type { Rule } from "../types.js";

export const inventoryRules: readonly Rule[] = [];
