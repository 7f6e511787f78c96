// The examples an SDK author copies (examples/): each runs here as CI would run it, against one simulator
// started for the job and shared by parallel workers, each worker in a sandbox of its own tagged with the run
// (docs/sdk-authors.md, vitest and pytest with xdist; docs/interfaces.md, Sandboxes and Coverage of a run);
// then the documented step after the tests writes one coverage report for the whole run. The vitest example
// needs the build (it imports the package, `retail-sim`, which resolves to dist/). The Python ones need
// `python3`, and the pytest one pytest with pytest-xdist: without them the test is skipped and its name says
// why, except under CI or REQUIRE_PYTHON, where it must run.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CoverageReport, KINDS } from "./cli/coverage-report.js";
import type { Simulator } from "./simulator.js";
import { BIN, ensureBuilt, ROOT } from "./test-support/conformance.js";
import { checkedSimulator } from "./test-support/sim.js";

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end without blocking this thread (a simulator of this process may be serving it). */
function run_(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<Finished> {
  // A vitest started from inside a vitest worker must not take the worker's settings for its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...env, NO_COLOR: "1", PYTHONDONTWRITEBYTECODE: "1", ...extraEnv },
    });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const PYTHON_SKIP: string | undefined =
  spawnSync("python3", ["--version"]).status === 0 || process.env.CI || process.env.REQUIRE_PYTHON
    ? undefined
    : "skipped: no python3 on the PATH (CI and REQUIRE_PYTHON=1 require this test)";

/** pytest and pytest-xdist, which the pytest example needs (`pip install pytest-xdist`; .ci/run installs it). */
const PYTEST_SKIP: string | undefined =
  spawnSync("python3", ["-c", "import pytest, xdist"]).status === 0 || process.env.CI || process.env.REQUIRE_PYTHON
    ? undefined
    : "skipped: python3 lacks pytest or pytest-xdist (pip install pytest-xdist; CI and REQUIRE_PYTHON=1 require this test)";

const dirs: string[] = [];
/** One simulator for the whole file, as a CI job starts one for all its test runs. */
let sim: Simulator | undefined;
let listening: Promise<{ url: string }> | undefined;
const server = (): Promise<{ url: string }> => {
  sim ??= checkedSimulator({ seed: 1, clock: "manual" });
  listening ??= sim.listen(0);
  return listening;
};
afterAll(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

/**
 * No item only an injected fault reaches (every operation's 500, the code INTERNAL) is counted against the run
 * unless it was met: each kind's total is its items less the unmet fault-only ones.
 */
function expectNoUnreachableCounted(report: CoverageReport): void {
  for (const { kind, totals } of KINDS) {
    const counted = report.items.filter((i) => i.kind === kind && (i.count > 0 || i.reach !== "fault"));
    expect(report.totals[totals].total, kind).toBe(counted.length);
  }
}

/**
 * The documented CI step after the tests (docs/sdk-authors.md): `retail-sim coverage --from
 * {api_root}/_sim/runs/{run} --min 60`, its exit code, and the one report it wrote for the whole run.
 */
async function runCoverage(url: string, run: string): Promise<{ code: number | null; report: CoverageReport }> {
  const out = mkdtempSync(join(tmpdir(), "retail-sim-example-coverage-"));
  dirs.push(out);
  const wrote = await run_("node", [BIN, "coverage", "--from", `${url}/_sim/runs/${run}`, "--out", out, "--min", "60"]);
  expect(wrote.stderr).toBe("");
  return { code: wrote.code, report: JSON.parse(readFileSync(join(out, "coverage.json"), "utf8")) };
}

/** What one whole example run must leave: no sandbox of it live, and one report of all of them above 60%. */
async function expectOneReport(run: string, sandboxes: number): Promise<void> {
  const { url } = await server();
  const live = (await (await fetch(`${url}/_sim/sandboxes`)).json()) as { run: string }[];
  expect(live.filter((sb) => sb.run === run)).toEqual([]);
  const runs = (await (await fetch(`${url}/_sim/runs`)).json()) as { run: string; sandboxes: number }[];
  expect(runs.find((r) => r.run === run)?.sandboxes).toBe(sandboxes);
  const { code, report } = await runCoverage(url, run);
  expect(code).toBe(0);
  expect(report.sandbox).toBe(`run ${run} (${sandboxes} sandboxes)`);
  expectNoUnreachableCounted(report);
  expect(report.totals.all.percent, JSON.stringify(report.totals)).toBeGreaterThan(60);
}

/** The fenced blocks of a section of docs/sdk-authors.md that quote an example file: `// examples/... (excerpt)`. */
function quotedExcerpts(section: string): { file: string; text: string }[] {
  const doc = readFileSync(join(ROOT, "docs/sdk-authors.md"), "utf8");
  const start = doc.indexOf(`\n## ${section}\n`);
  const body = doc.slice(start + 1, doc.indexOf("\n## ", start + 1));
  return [...body.matchAll(/```\w+\n(?:\/\/|#) (examples\/\S+) \(excerpt\)[^\n]*\n([\s\S]*?)```/g)].map((m) => ({
    file: m[1]!,
    text: m[2]!,
  }));
}

describe("docs/sdk-authors.md shows what the examples hold: each excerpt is in its file as quoted", () => {
  it.each([
    [
      "vitest",
      ["vitest.config.ts", "global-setup.ts", "sandbox.ts", "catalog.test.ts"].map((f) => `examples/vitest/${f}`),
    ],
    ["pytest with xdist", ["conftest.py", "conftest.py", "test_customers_sales.py"].map((f) => `examples/pytest/${f}`)],
  ])("section %s", (section, files) => {
    const excerpts = quotedExcerpts(section);
    expect(excerpts.map((e) => e.file)).toEqual(files);
    for (const { file, text } of excerpts) expect(readFileSync(join(ROOT, file), "utf8"), file).toContain(text);
  });
});

describe("examples/vitest: a vitest project whose files run in 4 workers, each file in a sandbox of the run", () => {
  it("type-checks (ProvidedContext declares the injected URL and run)", async () => {
    ensureBuilt();
    const checked = await run_("npx", ["tsc", "-p", "examples/vitest/tsconfig.json"]);
    expect(checked.stdout).toBe("");
    expect(checked.code).toBe(0);
  }, 120_000);

  it("passes: 7 files, 153 tests, on the simulator of the job; every sandbox deleted; one report of the run above 60%", async () => {
    ensureBuilt();
    const { url } = await server();
    const dir = mkdtempSync(join(tmpdir(), "retail-sim-example-"));
    dirs.push(dir);
    const report = join(dir, "report.json");
    const args = ["vitest", "run", "--config", "examples/vitest/vitest.config.ts", "--reporter=json"];
    const ran = await run_("npx", [...args, `--outputFile=${report}`], {
      RETAIL_SIM_URL: url,
      RETAIL_SIM_RUN: "vitest",
    });
    expect(ran.code, ran.stderr).toBe(0);
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect([json.numTotalTests, json.numPassedTests, json.numFailedTests, json.numPendingTests]).toEqual([
      153, 153, 0, 0,
    ]);
    const files = json.testResults.map((r: { name: string }) => r.name.slice(r.name.lastIndexOf("/") + 1)).sort();
    expect(files).toEqual([
      "auth.test.ts",
      "catalog.test.ts",
      "contract.test.ts",
      "customers.test.ts",
      "failures.test.ts",
      "inventory.test.ts",
      "sales.test.ts",
    ]);
    await expectOneReport("vitest", 7);
  }, 120_000);
});

describe.skipIf(PYTEST_SKIP !== undefined)(
  `examples/pytest: pytest -n 4, a sandbox per xdist worker${PYTEST_SKIP ? ` (${PYTEST_SKIP})` : ""}`,
  () => {
    it("passes: 39 tests in 4 workers on the simulator of the job; every sandbox deleted; one report of the run above 60%", async () => {
      const { url } = await server();
      const dir = mkdtempSync(join(tmpdir(), "retail-sim-example-"));
      dirs.push(dir);
      const junit = join(dir, "junit.xml");
      const args = ["-m", "pytest", "-n", "4", "examples/pytest", "-p", "no:cacheprovider", `--junitxml=${junit}`];
      const ran = await run_("python3", args, { RETAIL_SIM_URL: url, RETAIL_SIM_RUN: "pytest" });
      expect(ran.code, ran.stdout).toBe(0);
      const suite = /<testsuite [^>]*>/.exec(readFileSync(junit, "utf8"))?.[0] ?? "";
      const count = (name: string) => Number(new RegExp(` ${name}="(\\d+)"`).exec(suite)?.[1]);
      expect(["tests", "failures", "errors", "skipped"].map(count)).toEqual([39, 0, 0, 0]);
      await expectOneReport("pytest", 4);
    }, 120_000);
  },
);

describe.skipIf(PYTHON_SKIP !== undefined)(
  `examples/python/test_parallel.py: 4 worker processes, each in its own sandbox, against one simulator${PYTHON_SKIP ? ` (${PYTHON_SKIP})` : ""}`,
  () => {
    it("exits 0 with every test run passed: 4 workers × 5 rounds × 5 tests, given the control root or the api_root", async () => {
      const { url } = await server();
      const script = "examples/python/test_parallel.py";
      const ran = await run_("python3", [script, "--url", `${url}/_sim`]);
      expect(ran.stderr).toBe("");
      expect(ran.stdout).toBe("4 workers, 100 test runs, 0 failures\n");
      expect(ran.code).toBe(0);
      const fromRoot = await run_("python3", [script, "--url", url, "--rounds", "1"]);
      expect([fromRoot.code, fromRoot.stdout]).toEqual([0, "4 workers, 20 test runs, 0 failures\n"]);
      expect(await (await fetch(`${url}/_sim/sandboxes`)).json()).toEqual([]);
    }, 120_000);
  },
);
