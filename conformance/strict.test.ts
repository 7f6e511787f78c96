import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { judged } from "../src/test-support/conformance.js";
import { rule, SPEC } from "./rules/rule.js";
import { CATALOG } from "./rules/index.js";
import { UsageError } from "./runner.js";
import { conformance } from "./run.js";

// The strict profile (docs/conformance.md, The strict profile): a rule declares the simulator's own
// choices (`choices`, topics of docs/spec-choices.md) and checks them with `ctx.choice` on the replies it
// already has, only when a run of the in-process simulator asks for it.

/** The first column of every table row of docs/spec-choices.md. */
const TOPICS = new Set(
  readFileSync(new URL("../docs/spec-choices.md", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("|---"))
    .map((line) => line.split(" | ")[0]!.slice(2).trim()),
);

/** A rule holding the simulator to "Success statuses" (PUT stock answers 200), breaking it when `broken`. */
const statusRule = (broken: boolean) =>
  rule({
    id: "inventory.strict-probe",
    area: "Inventory",
    title: "A rule of the test with a strict part",
    spec: { section: SPEC.inventory, quote: "PUT sets an absolute level." },
    cost: 1,
    choices: ["Success statuses"],
    async run(ctx) {
      const expected = broken ? 201 : 200;
      ctx.choice("Success statuses", expected === 200, `status ${expected}`, "status 200");
    },
  });

const undeclared = rule({
  ...statusRule(false),
  choices: [],
  async run(ctx) {
    ctx.choice("Success statuses", true, "status 200", "status 200");
  },
});

const runOf = (catalog: readonly ReturnType<typeof rule>[], strict: boolean) =>
  conformance({ seed: 1, runs: 1, catalog, model: false, simulator: judged(), ...(strict ? { strict } : {}) });

describe("The strict profile", () => {
  it("every choice a rule declares is a topic (first column) of docs/spec-choices.md", () => {
    const declared = CATALOG.flatMap((r) => (r.choices ?? []).map((topic) => ({ rule: r.id, topic })));
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((d) => !TOPICS.has(d.topic))).toEqual([]);
  });

  it("a broken choice fails only a strict run, reported as the simulator's choice with its topic", async () => {
    const lenient = await runOf([statusRule(true)], false);
    expect(lenient.rules.map((r) => r.status)).toEqual(["passed"]);
    const strict = await runOf([statusRule(true)], true);
    const [failed] = strict.rules;
    expect(failed?.status).toBe("failed");
    expect(failed?.counterexample?.expected).toBe(`the simulator's choice "Success statuses": status 201`);
    expect(failed?.cause).toBe(`the simulator's choice "Success statuses" broken (strict profile)`);
    expect(strict.failure_groups).toEqual([
      { cause: `the simulator's choice "Success statuses" broken (strict profile)`, rules: ["inventory.strict-probe"] },
    ]);
    expect((await runOf([statusRule(false)], true)).rules.map((r) => r.status)).toEqual(["passed"]);
  });

  it("a choice the rule does not declare fails the rule, strict or not", async () => {
    for (const strict of [false, true]) {
      const [result] = (await runOf([undeclared], strict)).rules;
      expect(result?.status).toBe("failed");
      expect(result?.counterexample?.observed).toBe(
        `it stopped: inventory.strict-probe does not declare the choice "Success statuses"`,
      );
    }
  });

  it("is refused against a --target: a correct server may choose differently", async () => {
    await expect(
      conformance({ target: "http://127.0.0.1:9/demo/v1", token: "rsk_x", strict: true }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
