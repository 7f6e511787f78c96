import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

// docs/sdk-authors.md, Start it in CI: the recipe, taken from the doc as written (only the test step and the way
// retail-sim is started are swapped), leaves no simulator behind whatever ends the CI shell: a failing step under
// `bash -e` or `set -euo pipefail` (the trap), or a SIGKILL (--exit-with-parent alone, docs/interfaces.md, Stopping
// it), through npx (npm exec, which outlives the shell) and through the bin.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = `${ROOT}dist/bin/retail-sim.js`;
/** The done-when figure: after the shell's end, no process, no port and no pid file within this. */
const GONE_WITHIN_MS = 5_000;

/** A CI job's directory: retail-sim linked as an installed dependency, so `npx --no-install` finds it offline. */
let project = "";
const groups: number[] = [];

beforeAll(() => {
  // `npm test` builds first; running vitest alone needs a build too.
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  project = mkdtempSync(join(tmpdir(), "retail-sim-ci-"));
  const job = { name: "ci-job", version: "1.0.0", private: true, scripts: { sim: "retail-sim" } };
  writeFileSync(join(project, "package.json"), JSON.stringify(job));
  mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
  symlinkSync(ROOT, join(project, "node_modules", "retail-sim"), "dir");
  symlinkSync("../retail-sim/dist/bin/retail-sim.js", join(project, "node_modules", ".bin", "retail-sim"));
  writeFileSync(join(project, "step.mjs"), STEP);
});

// The job's directory goes with the run (the link into the repo is removed, never followed).
afterAll(() => rmSync(project, { recursive: true, force: true }));

afterEach(() => {
  // Each shell leads a process group of its own, with everything it started in it (no job control in a script).
  for (const group of groups.splice(0)) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
});

/**
 * The test step's stand-in. It records the server and the launchers between it and this shell (its parent), whether
 * the server answers at RETAIL_SIM_URL, and its port; then exits with the code asked for, or after a second and a
 * second answer (0: the server must keep running through a step), or stays until killed ("hang").
 */
const STEP = `import { execFileSync } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
const ps = (field, pid) => execFileSync("ps", ["-o", field + "=", "-p", String(pid)], { encoding: "utf8" }).trim();
const health = async () => (await fetch(process.env.RETAIL_SIM_URL + "/_sim/health")).status;
const mode = process.argv[2];
const chain = [];
for (let pid = Number(readFileSync("sim.pid", "utf8")); pid !== process.ppid && pid > 1; pid = Number(ps("ppid", pid)))
  chain.push({ pid, command: ps("args", pid) });
const seen = { chain, shell: process.ppid, port: Number(new URL(process.env.RETAIL_SIM_URL).port), health: [await health()] };
if (mode === "0") {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  seen.health.push(await health());
}
writeFileSync("step.json.tmp", JSON.stringify(seen));
renameSync("step.json.tmp", "step.json");
if (mode === "hang") setTimeout(() => {}, 120000);
else process.exit(Number(mode));
`;

interface Seen {
  chain: { pid: number; command: string }[];
  shell: number;
  port: number;
  health: number[];
}

/** The fenced block between the doc's ci-recipe markers. */
function recipe(): string {
  const doc = readFileSync(`${ROOT}docs/sdk-authors.md`, "utf8");
  const block = /<!-- ci-recipe[^>]*-->\n```sh\n([\s\S]*?)```\n<!-- \/ci-recipe -->/.exec(doc);
  expect(block).not.toBe(null);
  return block![1]!;
}

/** The recipe with its one `npx retail-sim` and its one `npx vitest run` swapped for `launcher` and `step`. */
function recipeWith(launcher: string, step: string): string {
  const text = recipe();
  expect(text.split("npx retail-sim ").length).toBe(2);
  expect(text.split("npx vitest run").length).toBe(2);
  return text.replace("npx retail-sim ", `${launcher} `).replace("npx vitest run", step);
}

const LAUNCHERS = {
  // npm exec runs the bin under `sh -c` and outlives the shell that started it.
  npx: "npx --no-install retail-sim",
  bin: `"${process.execPath}" "${BIN}"`,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process is there and not a zombie (an orphan's zombie waits for init, which may take its time). */
function alive(pid: number): boolean {
  const stat = spawnSync("ps", ["-o", "stat=", "-p", `${pid}`], { encoding: "utf8" }).stdout.trim();
  return stat !== "" && !stat.startsWith("Z");
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** What of the simulator is left in `dir`: live processes of the chain, an open port, a pid file. */
async function leftOf(dir: string, seen: Seen): Promise<string[]> {
  const left = seen.chain.filter((p) => alive(p.pid)).map((p) => `${p.pid} ${p.command}`);
  if (await accepts(seen.port)) left.push(`port ${seen.port} open`);
  if (existsSync(join(dir, "sim.pid"))) left.push("sim.pid");
  return left;
}

interface Run {
  dir: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  seen: Seen;
  /** What was left when the deadline passed, or nothing, and after how long from the shell's end. */
  left: string[];
  ms: number;
  stderr: string;
}

/**
 * The environment a CI runner gives a job's shell: this process's, less what npm set for the command that runs
 * these tests (`npm test`, `npx -p node@24 -- ...`): an inherited `npm_config_package` would make the recipe's
 * own `npx` look for that package instead of retail-sim.
 */
function ciRunnerEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/**
 * Runs `script` in a fresh directory of the job with `bash args...`, waits for the test step to record what it saw,
 * SIGKILLs the shell if asked, then polls until nothing of the simulator is left or GONE_WITHIN_MS have passed.
 */
async function runJob(script: string, args: string[], killShell = false): Promise<Run> {
  const dir = mkdtempSync(join(project, "run-"));
  writeFileSync(join(dir, "job.sh"), script);
  const shell: ChildProcess = spawn("bash", [...args, "job.sh"], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...ciRunnerEnv(),
      PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
      npm_config_update_notifier: "false",
    },
  });
  groups.push(shell.pid!);
  let stderr = "";
  shell.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    shell.once("exit", (code, signal) => resolve([code, signal])),
  );
  const stepFile = join(dir, "step.json");
  while (!existsSync(stepFile)) {
    if (shell.exitCode !== null) throw new Error(`the job ended before its test step: ${stderr}`);
    await sleep(50);
  }
  const seen = JSON.parse(readFileSync(stepFile, "utf8")) as Seen;
  if (killShell) shell.kill("SIGKILL");
  const [code, signal] = await exited;
  const ended = performance.now();
  let left = await leftOf(dir, seen);
  while (left.length > 0 && performance.now() - ended < GONE_WITHIN_MS) {
    await sleep(25);
    left = await leftOf(dir, seen);
  }
  return { dir, code, signal, seen, left, ms: Math.round(performance.now() - ended), stderr };
}

/** The step ran against a server started by `launcher`: through npm exec's `sh -c` for npx, or the bin itself. */
function expectStartedBy(launcher: keyof typeof LAUNCHERS, seen: Seen) {
  expect(seen.health[0]).toBe(200);
  if (launcher === "npx") {
    expect(seen.chain.map((p) => p.command.split(" ")[0])).toEqual(["node", "sh", "npm"]);
    expect(seen.chain[2]!.command).toMatch(/^npm exec retail-sim /);
  } else {
    expect(seen.chain).toHaveLength(1);
  }
}

describe("docs/sdk-authors.md, Start it in CI: the recipe as written, every way the CI shell ends", () => {
  describe.each(["npx", "bin"] as const)("started through %s", (launcher) => {
    it("bash -e, the test step fails with 3: the trap stops the server, the shell exits 3, nothing is left", async () => {
      const run = await runJob(recipeWith(LAUNCHERS[launcher], "node ../step.mjs 3"), ["-e"]);
      expectStartedBy(launcher, run.seen);
      expect([run.code, run.signal]).toEqual([3, null]);
      expect(run.left).toEqual([]);
      expect(existsSync(join(run.dir, "sim.json"))).toBe(false);
    }, 60_000);

    it("set -euo pipefail, the step's pipeline fails with 3: the shell exits 3, nothing is left", async () => {
      const script = `set -euo pipefail\n${recipeWith(LAUNCHERS[launcher], "node ../step.mjs 3 | cat")}`;
      const run = await runJob(script, []);
      expectStartedBy(launcher, run.seen);
      expect([run.code, run.signal]).toEqual([3, null]);
      expect(run.left).toEqual([]);
    }, 60_000);

    it("bash -e, the test step passes: the server answered throughout, the shell exits 0, nothing is left", async () => {
      const run = await runJob(recipeWith(LAUNCHERS[launcher], "node ../step.mjs 0"), ["-e"]);
      expectStartedBy(launcher, run.seen);
      expect(run.seen.health).toEqual([200, 200]);
      expect([run.code, run.signal]).toEqual([0, null]);
      expect(run.left).toEqual([]);
    }, 60_000);

    it("the shell killed with SIGKILL during the test step (no trap runs): --exit-with-parent stops the server", async () => {
      const run = await runJob(recipeWith(LAUNCHERS[launcher], "node ../step.mjs hang"), ["-e"], true);
      expectStartedBy(launcher, run.seen);
      expect(run.signal).toBe("SIGKILL");
      expect(run.left).toEqual([]);
    }, 60_000);
  });
});

describe("docs/interfaces.md, Stopping it: --exit-with-parent alone, a bash -e step that fails with no trap", () => {
  // An absolute pid file: npm runs a package script in the package's root, not in this directory.
  const script = (
    launcher: string,
  ) => `${launcher} --port 0 --json --pid-file "$PWD/sim.pid" --exit-with-parent > sim.json &
until read -r line 2>/dev/null < sim.json; do sleep 0.1; done
RETAIL_SIM_URL=$(node -p 'JSON.parse(process.argv[1]).api_root' "$line")
export RETAIL_SIM_URL
node ../step.mjs 3
`;

  it.each([
    ["npx", LAUNCHERS.npx],
    ["npm run (a package script)", "npm run --silent sim --"],
    ["the bin", LAUNCHERS.bin],
  ])(
    "started through %s, the server stops once the shell has exited 3",
    async (_, launcher) => {
      const run = await runJob(script(launcher), ["-e"]);
      expect(run.seen.health).toEqual([200]);
      expect([run.code, run.signal]).toEqual([3, null]);
      expect(run.left).toEqual([]);
    },
    60_000,
  );
});
