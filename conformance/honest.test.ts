import { describe, expect, it } from "vitest";
import { EVERY_CHOICE, HONEST_VARIANTS } from "./test-support/mutants/honest/index.js";
import { mutantSimulator } from "./test-support/mutants/index.js";
import { conformance } from "./run.js";
import { judged } from "../src/test-support/conformance.js";
import { CATALOG } from "./rules/index.js";

// The suite must never fail a correct server (docs/spec-choices.md: "The conformance suite never
// fails a server for a choice the spec leaves open"). Each honest variant is the simulator making
// one other choice the spec leaves open; the whole catalog runs against it and no rule may fail.

describe("Honest variants: the spec's open choices made differently", () => {
  it("each variant names the choice it makes, quoting the spec, and is meant to catch nothing", () => {
    const names = HONEST_VARIANTS.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain(EVERY_CHOICE.name);
    for (const v of [...HONEST_VARIANTS, EVERY_CHOICE]) {
      expect(v.name).toMatch(/^honest\./);
      expect(v.breaks).toMatch(/^Allowed: .*(Spec|spec-choices)/);
      expect(v.caughtBy).toEqual([]);
    }
  });

  it.each([...HONEST_VARIANTS, EVERY_CHOICE].map((v) => [v.name, v] as const))(
    "%s: every rule of the catalog passes or skips",
    async (_name, variant) => {
      const report = await conformance({ seed: 1, runs: 3, simulator: judged(mutantSimulator(variant)) });
      const failed = report.rules
        .filter((r) => r.status === "failed")
        .map(
          (r) =>
            `${r.id}${r.ambient ? ` [${r.ambient}]` : ""}: expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}`,
        );
      expect(
        failed,
        `${variant.name} makes a choice the spec leaves open (${variant.breaks}), yet rules failed`,
      ).toEqual([]);
      expect(report.summary.catalog).toBe(CATALOG.length);
      expect(report.summary.passed + report.summary.skipped).toBe(CATALOG.length);
    },
    60_000,
  );
});
