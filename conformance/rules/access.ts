import type { Rule } from "../types.js";

export const accessRules: readonly Rule[] = [];
