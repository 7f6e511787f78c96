// One vocabulary for the spec on both sides: every rule branch the simulator counts in a client's test
// run (src/contract/coverage-branches.ts) is a rule of this suite, cited by a sentence the spec map
// lists for that rule; its operations are the contract's.
import { describe, expect, it } from "vitest";
import { COVERAGE_BRANCHES } from "../src/contract/coverage-branches.js";
import { OPERATIONS } from "../src/contract/operations/index.js";
import { AUTH_FAILURE_BRANCH } from "../src/engine/auth/credentials.js";
import { OAUTH_OPERATIONS } from "../src/http/coverage.js";
import { CATALOG } from "./rules/index.js";
import { SPEC_MAP } from "./spec-map.js";

const ruleIds = new Set(CATALOG.map((r) => r.id));
const operationIds = new Set([...OPERATIONS.map((o) => o.id), ...Object.keys(OAUTH_OPERATIONS)]);

describe("coverage branches are named after the conformance suite's rules and spec map", () => {
  it("each branch id is unique and the id of a conformance rule", () => {
    const ids = COVERAGE_BRANCHES.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !ruleIds.has(id))).toEqual([]);
  });

  it.each(COVERAGE_BRANCHES.map((b) => [b.id, b] as const))(
    "%s cites a sentence the spec map lists for it",
    (id, branch) => {
      const entry = SPEC_MAP.find((s) => s.section === branch.spec.section && s.quote === branch.spec.quote);
      expect(entry, `${branch.spec.section} :: ${branch.spec.quote}`).toBeDefined();
      expect(entry?.rules).toContain(id);
    },
  );

  it("each branch's operations are operations of the contract or the OAuth endpoints", () => {
    const named = COVERAGE_BRANCHES.flatMap((b) => b.operations ?? []);
    expect(named.filter((op) => !operationIds.has(op))).toEqual([]);
  });

  it("the branches the pipeline names itself are in the catalogue, marked", () => {
    const marked = new Set(COVERAGE_BRANCHES.filter((b) => b.marked).map((b) => b.id));
    for (const id of [
      ...Object.values(AUTH_FAILURE_BRANCH),
      "stores.foreign-credential",
      "limits.general-429",
      "limits.customers-429",
      "limits.image-writes",
      "limits.failed-auth-429",
      "limits.failed-auth-address",
      "limits.image-busy",
      "envelope.non-uuid-id",
      "catalog.category-delete-refusals",
      "catalog.gift-cards-category-delete",
      "inventory.system-reason-refused",
      "inventory.disabled-reason-refused",
      "inventory.batch-pair-once",
    ])
      expect(marked.has(id), id).toBe(true);
  });
});
