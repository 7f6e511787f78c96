import { describe, expect, it } from "vitest";
import type { RuleResult } from "./types.js";
import type { Rule } from "./rule.js";
import { summarize } from "./verdict.js";

// An honest verdict: what was established and what was not, never a bare green; skips grouped by
// what would let them run, failures by the cause they share.

const rule = (id: string): Rule => ({
  id,
  area: "Catalog",
  title: id,
  spec: { section: "s", quote: "q" },
  cost: 1,
  run: async () => {},
});
const result = (id: string, status: RuleResult["status"], extra: Partial<RuleResult> = {}): RuleResult => ({
  id,
  area: "Catalog",
  title: id,
  status,
  spec_ref: "s",
  spec_quote: "q",
  duration_ms: 1,
  requests: 1,
  ...extra,
});

describe("The verdict", () => {
  it("every rule held: says so, with the count", () => {
    const rules = ["a", "b"].map(rule);
    expect(summarize([result("a", "passed"), result("b", "passed")], rules, 9, {}).summary.verdict).toBe(
      "All 2 rules held.",
    );
  });

  it("rules not checked: how many held of how many, then the skips by what would let them run, the largest group first", () => {
    const rules = ["a", "b", "c", "d", "e"].map(rule);
    const s = summarize(
      [
        result("a", "passed"),
        result("b", "skipped", { unlock: "--key none=TOKEN", reason: "r" }),
        result("c", "skipped", { unlock: "--control", reason: "r" }),
        result("d", "skipped", { unlock: "--control", reason: "r" }),
        result("e", "skipped", { reason: "the store has no sales" }),
      ],
      rules,
      5,
      {},
    );
    expect(s.summary).toMatchObject({ passed: 1, failed: 0, skipped: 4, covered: 1, catalog: 5 });
    expect(s.summary.verdict).toBe(
      "1 of 5 rules held; 4 not checked: 2 needs --control; 1 needs --key none=TOKEN; 1 the store has no sales.",
    );
    expect(s.not_checked).toEqual([
      { unlock: "needs --control", rules: ["c", "d"] },
      { unlock: "needs --key none=TOKEN", rules: ["b"] },
      { unlock: "the store has no sales", rules: ["e"] },
    ]);
  });

  it("failures: counted with their causes; failures of one ambient cause are one group", () => {
    const rules = ["a", "b", "c", "d"].map(rule);
    const cause = "ambient.error-code: expected the error envelope {error: {code, message, fields?}}";
    const s = summarize(
      [
        result("a", "failed", { cause }),
        result("b", "failed", { cause }),
        result("c", "failed"),
        result("d", "passed"),
      ],
      rules,
      4,
      {},
    );
    expect(s.summary.verdict).toBe("3 of 4 rules failed (2 causes); 1 held.");
    expect(s.failure_groups).toEqual([
      { cause, rules: ["a", "b"] },
      { cause: "rule c", rules: ["c"] },
    ]);
  });

  it("an interrupted run: the rules it never reached count as not checked, and the verdict says it was interrupted", () => {
    const rules = ["a", "b", "c"].map(rule);
    const s = summarize([result("a", "passed")], rules, 3, { stoppedBy: "SIGINT" });
    expect(s.summary.skipped).toBe(2);
    expect(s.interrupted).toBe(true);
    expect(s.summary.verdict).toBe("1 of 3 rules held; 2 not checked; the run was interrupted (SIGINT).");
  });
});
