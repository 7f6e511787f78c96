import type { Rule } from "../types.js";
import { accessGapRules } from "./gaps-access.js";
import { catalogGapRules } from "./gaps-catalog.js";
import { inventoryGapRules } from "./gaps-inventory.js";
import { oauthGapRules } from "./gaps-oauth.js";
import { peopleGapRules } from "./gaps-people.js";

// Rules for spec sentences the spec map (conformance/spec-map.ts) found checked by no other rule.
// They run after the rest of the catalog: two of them move the target's clock (24 hours, 5 minutes).

const CLOCK_LAST = ["idempotency.lapse-24h", "limits.failed-auth-address"];
const all: readonly Rule[] = [
  ...catalogGapRules,
  ...inventoryGapRules,
  ...peopleGapRules,
  ...oauthGapRules,
  ...accessGapRules,
];

export const gapRules: readonly Rule[] = [
  ...all.filter((r) => !CLOCK_LAST.includes(r.id)),
  ...CLOCK_LAST.map((id) => all.find((r) => r.id === id) as Rule),
];
