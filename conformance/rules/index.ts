import type { Rule } from "../rule.js";
import { authRules } from "./auth/index.js";
import { catalogRules } from "./catalog/index.js";
import { customerRules } from "./customers.js";
import { envelopeRules } from "./envelope.js";
import { idempotencyRules } from "./idempotency/index.js";
import { inventoryRules } from "./inventory/index.js";
import { isolationRules } from "./isolation.js";
import { limitRules } from "./limits/index.js";
import { oauthRules } from "./oauth/index.js";
import { openapiRules } from "./openapi.js";
import { paginationRules } from "./pagination/index.js";
import { salesRules } from "./sales/index.js";
import { scopeRules } from "./scopes.js";
import { storeRules } from "./stores.js";
import { modelRules } from "./model/index.js";

// A rule `area.what` is declared in rules/<area>.ts or under rules/<area>/ (spec-map.test.ts checks
// it); helpers shared across areas are in rules/support/.

/** Every rule, area by area. */
const BY_AREA: readonly Rule[] = [
  ...envelopeRules,
  ...authRules,
  ...paginationRules,
  ...scopeRules,
  ...storeRules,
  ...idempotencyRules,
  ...limitRules,
  ...openapiRules,
  ...oauthRules,
  ...catalogRules,
  ...inventoryRules,
  ...customerRules,
  ...salesRules,
  ...isolationRules,
  ...modelRules,
];

/**
 * The rules that move the target's clock by 5 minutes to 90 days run last, in this order, so the others
 * run on an undisturbed clock (limits.image-writes and sales.completed-range-inclusive move it by a
 * minute at most, where they stand).
 */
export const CLOCK_LAST: readonly string[] = [
  "limits.general-429",
  "limits.customers-429",
  "limits.failed-auth-429",
  "limits.token-failures",
  "oauth.code-expiry",
  "oauth.token-expiry",
  "auth.idle-expiry",
  "idempotency.lapse-24h",
  "limits.failed-auth-address",
  "model.time",
];

/** The rule catalog: every testable rule of the spec with a stable id. */
export const CATALOG: readonly Rule[] = [
  ...BY_AREA.filter((r) => !CLOCK_LAST.includes(r.id)),
  ...CLOCK_LAST.map((id) => BY_AREA.find((r) => r.id === id) as Rule),
];

/** `--rules` takes comma-separated globs over rule ids: `pagination.*,auth.missing-credential`. */
export function selectRules(globs: string | undefined, catalog: readonly Rule[] = CATALOG): Rule[] {
  if (!globs) return [...catalog];
  const patterns = globs.split(",").map(
    (g) =>
      new RegExp(
        `^${g
          .trim()
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, ".*")
          .replace(/\?/g, ".")}$`,
      ),
  );
  return catalog.filter((r) => patterns.some((p) => p.test(r.id)));
}
