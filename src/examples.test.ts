// The examples an SDK author copies (examples/): each runs here as a user would run it, against one
// simulator shared by parallel workers, each worker in a sandbox of its own (docs/interfaces.md, Sandboxes).
// The vitest example needs the build (it imports the package, `retail-sim`, which resolves to dist/). The
// Python one needs `python3` (standard library only): without it the test is skipped and its name says why,
// except under CI or REQUIRE_PYTHON, where it must run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Simulator } from "./simulator.js";
import { ensureBuilt, ROOT } from "./test-support/conformance.js";
import { checkedSimulator } from "./test-support/sim.js";

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end without blocking this thread (a simulator of this process may be serving it). */
function run(command: string, args: string[]): Promise<Finished> {
  // A vitest started from inside a vitest worker must not take the worker's settings for its own.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...env, NO_COLOR: "1" } });
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

const dirs: string[] = [];
let sim: Simulator | undefined;
afterAll(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

describe("examples/vitest: a vitest project whose files run in parallel workers, each file in its own sandbox", () => {
  it("type-checks (ProvidedContext declares the injected URL)", async () => {
    ensureBuilt();
    const checked = await run("npx", ["tsc", "-p", "examples/vitest/tsconfig.json"]);
    expect(checked.stdout).toBe("");
    expect(checked.code).toBe(0);
  }, 120_000);

  it("passes: 3 files, 6 tests, with fileParallelism and 3 workers against one simulator", async () => {
    ensureBuilt();
    expect(existsSync(join(ROOT, "dist/src/index.js"))).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "retail-sim-example-"));
    dirs.push(dir);
    const report = join(dir, "report.json");
    const args = ["vitest", "run", "--config", "examples/vitest/vitest.config.ts", "--reporter=json"];
    const ran = await run("npx", [...args, `--outputFile=${report}`]);
    expect(ran.code, ran.stderr).toBe(0);
    const json = JSON.parse(readFileSync(report, "utf8"));
    expect([json.numTotalTestSuites > 0, json.numTotalTests, json.numPassedTests, json.numFailedTests]).toEqual([
      true,
      6,
      6,
      0,
    ]);
    const files = json.testResults.map((r: { name: string }) => r.name.slice(r.name.lastIndexOf("/") + 1)).sort();
    expect(files).toEqual(["catalog.test.ts", "clock.test.ts", "failures.test.ts"]);
    // The global teardown prints the spec coverage of the three sandboxes, added up (docs/interfaces.md,
    // `retail-sim coverage`): this simulator has the route, so the summary, never the one-line fallback.
    expect(ran.stdout).toMatch(/^Spec coverage of sb\d, sb\d, sb\d \(\d+ requests counted\):$/m);
    expect(ran.stdout).toMatch(/^ {2}Operations +\d+\/48 /m);
  }, 120_000);
});

describe.skipIf(PYTHON_SKIP !== undefined)(
  `examples/python/test_parallel.py: 4 worker processes, each in its own sandbox, against one simulator${PYTHON_SKIP ? ` (${PYTHON_SKIP})` : ""}`,
  () => {
    it("exits 0 with every test run passed: 4 workers × 5 rounds × 5 tests, given the control root or the api_root", async () => {
      sim = checkedSimulator({ seed: 1 });
      const server = await sim.listen(0);
      const script = "examples/python/test_parallel.py";
      const ran = await run("python3", [script, "--url", `${server.url}/_sim`]);
      expect(ran.stderr).toBe("");
      expect(ran.stdout).toBe("4 workers, 100 test runs, 0 failures\n");
      expect(ran.code).toBe(0);
      const fromRoot = await run("python3", [script, "--url", server.url, "--rounds", "1"]);
      expect([fromRoot.code, fromRoot.stdout]).toEqual([0, "4 workers, 20 test runs, 0 failures\n"]);
      const left = await sim.fetch(`${server.url}/_sim/sandboxes`);
      expect(await left.json()).toEqual([]);
    }, 120_000);
  },
);
