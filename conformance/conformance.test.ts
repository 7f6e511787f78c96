import { describe, expect, it } from "vitest";
import { MUTANTS, mutantSimulator } from "./mutants/index.js";
import { conformance } from "./run.js";
import { CATALOG } from "./rules/index.js";

// Issue 8: the suite passes against the real simulator and catches every deliberately broken one.

describe("Issue 8: the conformance suite against the in-process simulator", () => {
  it.each([1, 2, 3])("seed %i: every rule of the catalog passes", async (seed) => {
    const report = await conformance({ seed, runs: 5 });
    const failed = report.rules.filter((r) => r.status === "failed").map((r) => `${r.id}: expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}`);
    expect(failed).toEqual([]);
    expect(report.summary.catalog).toBe(CATALOG.length);
    expect(report.summary.passed + report.summary.skipped).toBe(CATALOG.length);
  }, 120_000);
});

describe("Issue 8: proof of detection power (mutants)", () => {
  it.each(MUTANTS.map((m) => [m.name, m] as const))("mutant %s is caught by a rule that explains it", async (_name, mutant) => {
    const report = await conformance({ seed: 1, runs: 5, rules: mutant.caughtBy.join(","), simulator: mutantSimulator(mutant) });
    const failed = report.rules.filter((r) => r.status === "failed").map((r) => r.id);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((id) => mutant.caughtBy.includes(id))).toBe(true);
    const failure = report.rules.find((r) => r.status === "failed")!;
    expect(failure.counterexample!.requests.length).toBeGreaterThan(0);
    expect(failure.counterexample!.curl[0]).toMatch(/^curl -i -X GET /);
    expect(JSON.stringify(failure)).not.toContain("rsk_");
  }, 60_000);
});
