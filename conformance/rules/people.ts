import type { Rule } from "../types.js";

export const peopleRules: readonly Rule[] = [];
