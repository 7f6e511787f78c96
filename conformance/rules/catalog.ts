import type { Rule } from "../types.js";

export const catalogRules: readonly Rule[] = [];
