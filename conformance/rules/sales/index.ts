import type { Rule } from "../../rule.js";
import { listRules } from "./list.js";
import { openAndReadOnlyRules } from "./open-and-read-only.js";
import { outletFilterRules } from "./outlet-filter.js";

// The Sales area: the sale document, the list's filters and polling (list.ts, outlet-filter.ts), and
// what the API never offers (open-and-read-only.ts). Shared helpers are in ../support/sales.ts.

export const salesRules: readonly Rule[] = [...listRules, ...outletFilterRules, ...openAndReadOnlyRules];
