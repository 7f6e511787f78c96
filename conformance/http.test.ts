import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createsProductRule,
  destructiveRule,
  ensureBuilt,
  listenSimulator,
  needsControlRule,
  productNames,
  runCli,
  startServe,
  tempDirs,
  usesControlRule,
  type Served,
} from "../src/test-support/conformance.js";
import { MUTANTS } from "./test-support/mutants/index.js";
import { CATALOG } from "./rules/index.js";
import { conformance } from "./run.js";
import type { Rule } from "./rule.js";

// docs/conformance.md, Run it: the suite runs against `retail-sim serve` over HTTP with --target and --control; without
// --control the rules that need it are skipped with the reason; the run deletes what it created; a
// failure on a live target is run once more and marked reproducible or flaky.

const CONTROL_REASON = "needs the target's control plane (--control)";
const CLOCK_REASON = "needs to move the target's clock, which only a control plane can (--control)";
const reasonOf = (r: Rule) => (r.needs?.clock ? CLOCK_REASON : CONTROL_REASON);
const DESTRUCTIVE_REASON =
  "changes shared data beyond what the run creates: runs only with the target's control plane (--control)";
const reports = tempDirs("rsconf-http-");
const out = reports.out;
let served: Served | undefined;

beforeAll(() => ensureBuilt(), 120_000);

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

afterAll(() => reports.removeAll());

const needsControl = (r: Rule) => Boolean(r.needs?.control || r.needs?.clock);

describe("docs/conformance.md, Run it: against `retail-sim serve` over HTTP", () => {
  it.each([1, 2, 3, 4, 5])(
    "seed %i: with --target, --token and --control the whole catalog holds, and the run leaves no rsconf- product behind",
    async (seed) => {
      served = await startServe(["--seed", String(seed)]);
      const before = await productNames(served.baseUrl, served.token);
      const dir = out();
      const run = await runCli(
        [
          "--target",
          served.baseUrl,
          "--token",
          served.token,
          "--control",
          served.controlUrl,
          "--seed",
          String(seed),
          "--runs",
          "3",
          "--out",
          dir,
        ],
        110_000,
      );
      const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
      const failed = report.rules
        .filter((r: { status: string }) => r.status === "failed")
        .map((r: any) => `${r.id}: expected ${r.counterexample.expected}; observed ${r.counterexample.observed}`);
      expect(failed).toEqual([]);
      expect(run.code, run.stderr).toBe(0);
      expect(report.target).toBe(served.baseUrl);
      expect(report.rules.map((r: { id: string }) => r.id)).toEqual(CATALOG.map((r) => r.id));
      // With the control plane nothing is skipped for want of it.
      for (const r of report.rules) if (r.status === "skipped") expect(r.reason, r.id).not.toBe(CONTROL_REASON);
      expect(run.stderr.split("\n").filter((l) => /^\[\s*\d+\/\d+\] /.test(l))).toHaveLength(CATALOG.length);
      const after = await productNames(served.baseUrl, served.token);
      expect(after.filter((n) => n.startsWith("rsconf-"))).toEqual([]);
      expect(after.sort()).toEqual(before.sort());
      expect(readFileSync(join(dir, "report.json"), "utf8")).not.toContain(served.token);
    },
    120_000,
  );

  it("without --control the rules that need it are skipped with the reason, and the run still exits 0", async () => {
    served = await startServe();
    const declared = CATALOG.filter((r) => needsControl(r) && !r.needs?.orCredentials?.length && !r.needs?.waits).map(
      (r) => r.id,
    );
    // Rules whose clock moves by minutes: skipped naming --patient, which waits in real time instead.
    const waiting = CATALOG.filter((r) => r.needs?.waits && !r.needs.orCredentials?.length).map((r) => r.id);
    // Rules that given credentials let run instead (conformance/staging.test.ts): skipped naming the option.
    const byCredentials = CATALOG.filter(
      (r) => needsControl(r) && !r.needs?.clock && Boolean(r.needs?.orCredentials?.length),
    ).map((r) => r.id);
    const destructive = CATALOG.filter((r) => !needsControl(r) && r.needs?.destructive).map((r) => r.id);
    const plain = ["envelope.success-data", "pagination.desc-one-page"];
    const dir = out();
    const run = await runCli(
      [
        "--target",
        served.baseUrl,
        "--token",
        served.token,
        "--rules",
        [...plain, ...declared, ...waiting, ...byCredentials, ...destructive].join(","),
        "--runs",
        "3",
        "--out",
        dir,
      ],
      110_000,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    for (const r of report.rules) {
      if (declared.includes(r.id))
        expect(r, r.id).toMatchObject({
          status: "skipped",
          reason: reasonOf(CATALOG.find((c) => c.id === r.id)!),
          unlock: "--control",
          requests: 0,
        });
      else if (waiting.includes(r.id))
        expect(r, r.id).toMatchObject({
          status: "skipped",
          reason: expect.stringContaining("--patient MINUTES waits that long in real time"),
          unlock: "--control or --patient",
          requests: 0,
        });
      else if (byCredentials.includes(r.id))
        expect(r, r.id).toMatchObject({
          status: "skipped",
          reason: expect.stringMatching(/, or the target's control plane \(--control\)$/),
          unlock: expect.stringMatching(/^--[a-z-]+( and --[a-z-]+)*$/),
          requests: 0,
        });
      else if (destructive.includes(r.id))
        expect(r, r.id).toMatchObject({ status: "skipped", reason: DESTRUCTIVE_REASON, requests: 0 });
      else expect(r.status, r.id).not.toBe("failed");
    }
    for (const id of plain) expect(report.rules.find((r: { id: string }) => r.id === id).status).toBe("passed");
    for (const id of declared) expect(run.stderr).toContain(`- ${id} (${reasonOf(CATALOG.find((c) => c.id === id)!)})`);
    // The verdict says what was not established, and what would let it run.
    expect(report.summary.verdict).toMatch(
      new RegExp(`^\\d+ of \\d+ rules held; ${report.summary.skipped} not checked: \\d+ needs --control`),
    );
    expect(report.summary.skipped).toBeGreaterThanOrEqual(declared.length + byCredentials.length);
  }, 120_000);

  it("without a control plane, a rule that declares the need, one that finds it out and one that changes shared data are skipped with the reason; a created product is cleaned up", async () => {
    served = await startServe();
    const seen: string[][] = [];
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      runs: 2,
      rules: "zztest.*,envelope.success-data",
      catalog: [...CATALOG, needsControlRule, usesControlRule, createsProductRule, destructiveRule],
      // While the run is on, the product it made is there.
      onRule: (r) => {
        if (r.id === createsProductRule.id)
          void productNames(served!.baseUrl, served!.token).then((names) => seen.push(names));
      },
    });
    const status = Object.fromEntries(report.rules.map((r) => [r.id, [r.status, r.reason]]));
    expect(status).toEqual({
      "envelope.success-data": ["passed", undefined],
      [needsControlRule.id]: ["skipped", CONTROL_REASON],
      [usesControlRule.id]: ["skipped", CONTROL_REASON],
      [createsProductRule.id]: ["passed", undefined],
      [destructiveRule.id]: ["skipped", DESTRUCTIVE_REASON],
    });
    expect(report.rules.find((r) => r.id === needsControlRule.id)!.requests).toBe(0);
    expect(report.rules.find((r) => r.id === destructiveRule.id)!.requests).toBe(0);
    const after = await productNames(served.baseUrl, served.token);
    expect(after.filter((n) => n.startsWith("rsconf-"))).toEqual([]);
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.filter((n) => n.startsWith("rsconf-"))).toHaveLength(1);
  }, 60_000);

  it("with --control the same test rules run and pass", async () => {
    served = await startServe();
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      control: served.controlUrl,
      runs: 2,
      rules: "zztest.*",
      catalog: [...CATALOG, needsControlRule, usesControlRule, createsProductRule, destructiveRule],
    });
    expect(report.rules.map((r) => [r.id, r.status])).toEqual([
      [needsControlRule.id, "passed"],
      [usesControlRule.id, "passed"],
      [createsProductRule.id, "passed"],
      [destructiveRule.id, "passed"],
    ]);
    expect((await productNames(served.baseUrl, served.token)).filter((n) => n.startsWith("rsconf-"))).toEqual([]);
  }, 60_000);
});

describe("docs/conformance.md, Run it: a run leaves the target as it found it (inventory.outlet-deleted)", () => {
  it("two runs of inventory.outlet-deleted in a row against one `retail-sim serve` both pass, and GET /outlets lists the same live outlets before and after each", async () => {
    served = await startServe();
    const { baseUrl, token } = served;
    const live = async () => {
      const res = await fetch(`${baseUrl}/outlets?limit=200`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: unknown[] }).data;
    };
    const before = await live();
    expect(before).toHaveLength(2);
    for (const round of [1, 2]) {
      const report = await conformance({
        target: baseUrl,
        token,
        control: served.controlUrl,
        runs: 2,
        rules: "inventory.outlet-deleted",
      });
      expect(
        report.rules.map((r) => [r.id, r.status, r.reason]),
        `run ${round}`,
      ).toEqual([["inventory.outlet-deleted", "passed", undefined]]);
      expect(await live(), `after run ${round}`).toEqual(before);
    }
  }, 60_000);
});

describe("docs/interfaces.md, Control plane: a protected control plane (serve --control-token) is used with --control-token", () => {
  const secret = "conformance-control-0123456789";

  it("with the token the rules that need the control plane run and pass; the token never appears in the report", async () => {
    served = await startServe(["--control-token", secret]);
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      control: served.controlUrl,
      controlToken: secret,
      runs: 2,
      rules: "zztest.*",
      catalog: [...CATALOG, needsControlRule, usesControlRule],
    });
    expect(report.rules.map((r) => [r.id, r.status])).toEqual([
      [needsControlRule.id, "passed"],
      [usesControlRule.id, "passed"],
    ]);
    expect(JSON.stringify(report)).not.toContain(secret);
  }, 60_000);

  it("without the token the run stops before any rule: the control plane does not answer /health", async () => {
    served = await startServe(["--control-token", secret]);
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      control: served.controlUrl,
      runs: 2,
      rules: "zztest.*",
      catalog: [...CATALOG, needsControlRule],
    });
    expect(report.could_not_run).toBe(`the control plane ${served.controlUrl} does not answer /health`);
    expect(report.rules).toEqual([]);
  }, 60_000);
});

describe("The suite stays correct when the target fails under it", () => {
  it("a target that goes away mid-run: the run still ends; each later rule fails naming what happened, never a hang or a crash", async () => {
    const target = await listenSimulator();
    let closing: Promise<void> | undefined;
    const report = await conformance({
      target: target.baseUrl,
      token: target.token,
      runs: 2,
      rules: "pagination.*",
      onRule: () => {
        closing ??= target.close();
      },
    });
    await closing;
    const [first, ...rest] = report.rules;
    expect(first?.status).toBe("passed");
    expect(rest.length).toBeGreaterThan(2);
    for (const rule of rest) {
      // Rules that are run fail naming the error; none passes against a target that is gone.
      expect(rule.status).toBe("failed");
      expect(rule.counterexample?.observed).toMatch(/no answer|stopped|ECONNREFUSED|fetch failed|connect/);
    }
    expect(report.summary.failed).toBe(rest.length);
  }, 60_000);
});

describe("docs/conformance.md, Reading a failure: a failure on a live target is run once more", () => {
  it("a deterministic mutant fails again: reproducible true", async () => {
    const target = await listenSimulator(MUTANTS.find((m) => m.name === "cursor-skips-a-row"));
    try {
      const report = await conformance({
        target: target.baseUrl,
        token: target.token,
        control: target.controlUrl,
        runs: 5,
        rules: "pagination.each-row-once",
      });
      expect(report.rules[0]).toMatchObject({ id: "pagination.each-row-once", status: "failed", reproducible: true });
    } finally {
      await target.close();
    }
  }, 60_000);

  it("a failure that does not come back is flaky (status flaky, reproducible false), apart from failures; each failing rule runs exactly twice, and its product is still cleaned up", async () => {
    served = await startServe();
    let flakyRuns = 0;
    let steadyRuns = 0;
    const flaky: Rule = {
      id: "zztest.flaky",
      area: "Catalog",
      title: "Fails the first time only",
      spec: { section: "Test", quote: "A live target may fail once." },
      cost: 2,
      async run(ctx) {
        flakyRuns += 1;
        await createsProductRule.run(ctx);
        ctx.check(flakyRuns > 1, "the second answer", "the first answer");
      },
    };
    const steady: Rule = {
      ...flaky,
      id: "zztest.steady",
      title: "Always fails",
      run: async (ctx) => void ((steadyRuns += 1), ctx.check(false, "something", "something else")),
    };
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      runs: 2,
      rules: "zztest.*",
      catalog: [...CATALOG, flaky, steady],
    });
    expect(report.rules.map((r) => [r.id, r.status, r.reproducible])).toEqual([
      ["zztest.flaky", "flaky", false],
      ["zztest.steady", "failed", true],
    ]);
    expect([flakyRuns, steadyRuns]).toEqual([2, 2]);
    // Apart from failures in the summary; under --flaky warn (the default) only the failure fails the run.
    expect(report.summary).toMatchObject({ failed: 1, flaky: 1 });
    expect(report.flaky_policy).toBe("warn");
    // The first run's counterexample is the one reported.
    expect(report.rules[0]!.counterexample).toMatchObject({
      expected: "the second answer",
      observed: "the first answer",
    });
    expect((await productNames(served.baseUrl, served.token)).filter((n) => n.startsWith("rsconf-"))).toEqual([]);
  }, 60_000);

  it("in process a failure is not re-run and carries no reproducible mark", async () => {
    let runs = 0;
    const once: Rule = {
      id: "zztest.once",
      area: "Catalog",
      title: "Fails",
      spec: { section: "Test", quote: "-" },
      cost: 0,
      run: async (ctx) => void ((runs += 1), ctx.check(false, "a", "b")),
    };
    const report = await conformance({ rules: "zztest.once", catalog: [...CATALOG, once] });
    expect(runs).toBe(1);
    expect(report.rules[0]!.status).toBe("failed");
    expect("reproducible" in report.rules[0]!).toBe(false);
  });
});
