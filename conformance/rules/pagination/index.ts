import type { Rule } from "../../rule.js";
import { cursorRules } from "./cursors.js";
import { pagingLimitRules } from "./limits.js";

// The Pagination area: read-only lists every target has (cursors.ts) and the product list, where the
// run makes rows of its own (limits.ts).

export const paginationRules: readonly Rule[] = [...cursorRules, ...pagingLimitRules];
