import type { Rule } from "../types.js";
import { authRules } from "./auth.js";
import { envelopeRules } from "./envelope.js";
import { paginationRules } from "./pagination.js";
import { pagingLimitRules } from "./pagination-limits.js";
import { isolationRules } from "./isolation.js";
import { accessRules } from "./access.js";
import { catalogRules } from "./catalog.js";
import { inventoryRules } from "./inventory.js";
import { peopleRules } from "./people.js";
import { gapRules } from "./gaps.js";

/** The rule catalog: every testable rule of the spec with a stable id. */
export const CATALOG: readonly Rule[] = [
  ...envelopeRules,
  ...authRules,
  ...paginationRules,
  ...pagingLimitRules,
  ...accessRules,
  ...catalogRules,
  ...inventoryRules,
  ...peopleRules,
  ...isolationRules,
  ...gapRules,
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
