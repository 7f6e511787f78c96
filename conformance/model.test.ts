import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../src/contract/errors.js";
import { createSimulator, type Simulator } from "../src/simulator.js";
import type { Listening } from "../src/http/node.js";
import { judged } from "../src/test-support/conformance.js";
import { CATEGORY_MUTANTS } from "./test-support/mutants/blind/categories/index.js";
import { mutantSimulator } from "./test-support/mutants/index.js";
import { conformance } from "./run.js";

// The model in lockstep (conformance/model/, docs/conformance.md "The model: every answer predicted"):
// a default run compares every answer with it and reaches the spec's behaviours; a server broken in a
// way no rule was written for fails; a staging target (no control plane, others writing) fails nothing.

describe("The model compares every answer of a default run", () => {
  it("in process: thousands of answers compared, at least 95% of the rule branches, every operation and every error code reached", async () => {
    const report = await conformance({ seed: 1, runs: 20, simulator: judged() });
    expect(report.rules.filter((r) => r.status === "failed").map((r) => r.id)).toEqual([]);
    const model = report.model;
    expect(model?.start).toBe("snapshot");
    expect(model?.compared).toBeGreaterThan(4000);
    expect(model?.coverage.branches.percent).toBeGreaterThanOrEqual(95);
    const never = new Set(model?.coverage.never_reached.map((n) => n.id));
    expect(ERROR_CODES.filter((code) => never.has(code))).toEqual([]);
    // Every operation and every error code, the token endpoint's included, is met; of the rule branches
    // only those of requests in flight together, which the model does not follow: under one key, and an
    // image write finding every download slot busy.
    expect(model?.coverage.never_reached.map((n) => `${n.kind} ${n.id}`)).toEqual([
      "branch idempotency.concurrent-same-key",
      "branch limits.image-busy",
    ]);
    // The run's target is a simulator built by the test, not the default: no note that it proves nothing.
    expect(model?.note).toBeUndefined();
    const itself = await conformance({ seed: 1, runs: 1, rules: "envelope.*" });
    expect(itself.model?.note).toMatch(/compared it with itself, which proves nothing/);
  }, 180_000);

  it("--no-model (model: false) compares nothing and the replay command says so", async () => {
    const report = await conformance({ seed: 1, runs: 1, rules: "envelope.*", model: false });
    expect(report.model).toBeUndefined();
    expect(report.options?.model).toBe(false);
  });
});

// Blind mutants written apart from the code, by category
// (conformance/test-support/mutants/blind/categories/): each fails the rules its caughtBy names, the
// model's sequences run 20 times as a default run does.
describe("Blind mutants by category are caught", () => {
  const all = Object.entries(CATEGORY_MUTANTS).flatMap(([category, list]) =>
    list.map((m) => [category, m.name, m] as const),
  );
  it("every one names the rules that catch it", () => {
    expect(all.filter(([, , m]) => m.caughtBy.length === 0).map(([, name]) => name)).toEqual([]);
  });
  it.each(all.filter(([, , m]) => m.caughtBy.length > 0))(
    "%s: %s fails every rule of its caughtBy",
    async (_c, _n, mutant) => {
      const report = await conformance({
        seed: 1,
        runs: 20,
        rules: mutant.caughtBy.join(","),
        simulator: mutantSimulator(mutant),
      });
      expect(report.rules.filter((r) => r.status !== "failed").map((r) => `${r.id}: ${r.status}`)).toEqual([]);
      for (const failure of report.rules) expect(failure.counterexample?.requests.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe("Against a staging-like target: no control plane, the system clock, rate limits, another client writing", () => {
  let sim: Simulator;
  let server: Listening;
  const writes: Promise<unknown>[] = [];
  /** Another team adds a product and a customer and renames what it made, while the suite runs. */
  let anotherTeam: (n: number) => void;
  beforeAll(async () => {
    sim = createSimulator({ clock: "system", seed: 1 });
    server = await sim.listen(0);
    const token = sim.createKey("demo", { name: "another team", scopes: ["catalog:write", "customers:write"] }).token;
    const base = `${server.url}/demo/v1`;
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) }).then(async (r) =>
        r.ok ? ((await r.json()) as any) : undefined,
      );
    anotherTeam = (n) => {
      writes.push(
        send("POST", "/products", { name: `other team ${n}`, retail_price: n }).then(
          (made) => made && send("PATCH", `/products/${made.data.id}`, { name: `renamed ${n}` }),
        ),
        send("POST", "/customers", { first_name: `Other ${n}` }),
      );
    };
  });
  afterAll(async () => {
    await Promise.allSettled(writes);
    await sim.close();
  });

  it("the model starts from what the API shows, compares the run's own rows, and fails nothing", async () => {
    const full = sim.token("demo", "full");
    const extra = [1, 2, 3].map(
      (i) =>
        sim.createKey("demo", {
          name: `extra ${i}`,
          scopes: ["catalog:write", "inventory:write", "customers:write", "sales:read"],
        }).token,
    );
    const keys = ["catalog:read", "none"].map((name) => ({
      token: sim.token("demo", name),
      scopes: name === "none" ? [] : [name],
    }));
    const report = await conformance({
      target: `${server.url}/demo/v1`,
      token: full,
      seed: 1,
      runs: 6,
      rules: "model.*",
      credentials: { keys, extra },
      onRule: (_result, index) => anotherTeam(index),
    });
    expect(writes.length).toBeGreaterThan(0);
    const failed = report.rules
      .filter((r) => r.status === "failed")
      .map((r) => `${r.id}: expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}`);
    expect(failed).toEqual([]);
    expect(report.model?.start).toBe("seeded");
    expect(report.model?.compared).toBeGreaterThan(100);
    // Rows other people made are neither expected nor failed: they are named as not compared, never as a failure.
    expect(report.rules.filter((r) => r.id.startsWith("model.") && r.status === "passed").map((r) => r.id)).toEqual([
      "model.catalog",
      "model.inventory",
      "model.customers",
      "model.access",
    ]);
  }, 300_000);
});
