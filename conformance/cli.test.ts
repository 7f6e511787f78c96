import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  junitVerdict,
  ensureBuilt,
  listenSimulator,
  runCli,
  startServe,
  type Listening,
  type Served,
} from "../src/test-support/conformance.js";
import { MUTANTS } from "./test-support/mutants/index.js";
import { selectRules } from "./rules/index.js";

// docs/interfaces.md, Command line: `retail-sim conformance` from the built bin. Exit 0 when every
// selected rule held, 1 when a rule failed, 2 when the run could not be carried out; reports in
// --out; a progress line per rule on stderr.

const dirs: string[] = [];
const out = () => {
  const dir = mkdtempSync(join(tmpdir(), "rsconf-cli-"));
  dirs.push(dir);
  return dir;
};

beforeAll(() => ensureBuilt(), 120_000);

/** A run that could not run: exit 2 came with every report, saying why, and a JUnit no CI tool reads as passed. */
function expectCouldNotRun(dir: string, why: RegExp): void {
  expect(readdirSync(dir).sort()).toEqual(["junit.xml", "report.html", "report.json", "report.md"]);
  const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  expect(report.could_not_run).toMatch(why);
  expect(report.summary.verdict).toMatch(/^Could not run: /);
  const junit = junitVerdict(readFileSync(join(dir, "junit.xml"), "utf8"));
  expect(junit).toMatchObject({ errors: 1, failures: 0, passed: false });
  expect(readFileSync(join(dir, "report.md"), "utf8").split("\n")[0]).toBe("# Conformance: could not run");
}

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("docs/interfaces.md, Command line: exit 0, the reports and the progress display", () => {
  it("against the in-process simulator --rules 'pagination.*' exits 0 and writes all four reports to --out", async () => {
    const dir = out();
    const run = await runCli(["--rules", "pagination.*", "--runs", "3", "--out", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["junit.xml", "report.html", "report.json", "report.md"]);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    const ids = selectRules("pagination.*").map((r) => r.id);
    expect(report.rules.map((r: { id: string }) => r.id)).toEqual(ids);
    expect(report.summary).toMatchObject({ passed: ids.length, failed: 0, skipped: 0 });
    expect(report.target).toBe("in-process simulator (seed 1)");
    expect(report.tool.version).toBe(
      JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version,
    );
    // Progress: one line per rule as it ends, numbered, with its mark; then what the model compared.
    const [model, ...reversed] = run.stderr.trim().split("\n").reverse();
    const lines = reversed.reverse();
    expect(lines).toHaveLength(ids.length);
    expect(model).toMatch(
      /^Model: compared \d+ answers; reached rule branches [\d.]+%, error codes [\d.]+%\. The target is the simulator itself: the model compared it with itself, which proves nothing\./,
    );
    ids.forEach((id, i) => {
      expect(lines[i]).toBe(`[${String(i + 1).padStart(String(ids.length).length)}/${ids.length}] \u2714 ${id}`);
    });
    expect(run.stdout).toBe(
      `PASSED: All ${ids.length} rules held. Reports: ${["report.json", "junit.xml", "report.html", "report.md"].map((f) => join(dir, f)).join(", ")}\n`,
    );
  }, 60_000);

  it("--format picks the formats written; --seed and --runs reach the report", async () => {
    const dir = out();
    const run = await runCli([
      "--rules",
      "envelope.success-data",
      "--format",
      "md,json",
      "--seed",
      "7",
      "--runs",
      "2",
      "--out",
      dir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(["report.json", "report.md"]);
    expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8"))).toMatchObject({
      seed: 7,
      runs: 2,
      target: "in-process simulator (seed 7)",
    });
  }, 60_000);

  it("--out defaults to reports/ under the working directory", async () => {
    const cwd = out();
    const { spawn } = await import("node:child_process");
    const { BIN } = await import("../src/test-support/conformance.js");
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, [BIN, "conformance", "--rules", "envelope.success-data", "--format", "json"], {
        cwd,
        stdio: "ignore",
      }).once("close", resolve),
    );
    expect(code).toBe(0);
    expect(existsSync(join(cwd, "reports", "report.json"))).toBe(true);
  }, 60_000);
});

describe("docs/interfaces.md, Command line: exit 2, the run could not be carried out", () => {
  let served: Served | undefined;

  afterEach(async () => {
    await served?.stop();
    served = undefined;
  });

  it.concurrent.each([
    ["--format pdf", ["--format", "pdf"], /unknown --format pdf/],
    ["--target without --token", ["--target", "http://127.0.0.1:4747/demo/v1"], /--target needs --token/],
    ["--runs 0", ["--runs", "0"], /--runs must be a positive integer/],
    ["--runs 1.5", ["--runs", "1.5"], /--runs must be a positive integer/],
    ["--seed -1", ["--seed", "-1"], /--seed must be an integer/],
    ["--seed abc", ["--seed", "abc"], /--seed must be an integer/],
    ["--rate 0", ["--rate", "0"], /--rate must be positive/],
    ["--control without --target", ["--control", "http://127.0.0.1:4747/_sim"], /--control goes with --target/],
    ["--target that is not a URL", ["--target", "demo", "--token", "x"], /--target must be an http\(s\) URL/],
    ["an unknown option", ["--bogus"], /Unknown argument/i],
    [
      "a malformed --replay",
      ["--rules", "pagination.each-row-once", "--replay", "0:x:1"],
      /--replay takes fast-check's path of a counterexample/,
    ],
    ["--replay without --rules", ["--replay", "0:1"], /--replay goes with --rules/],
    ["--key without scopes", ["--key", "rsk_abc"], /--key takes SCOPES=TOKEN/],
    ["--key with an unknown scope", ["--key", "sales:write=rsk_abc"], /--key names unknown scopes sales:write/],
    [
      "--other-store-token without the prefix",
      ["--other-store-token", "rsk_abc"],
      /--other-store-token takes PREFIX=TOKEN/,
    ],
    [
      "--oauth-client without the secret",
      ["--oauth-client", "client-1"],
      /--oauth-client takes CLIENT_ID:CLIENT_SECRET/,
    ],
    ["--timeout 0", ["--timeout", "0"], /--timeout must be a positive number of seconds/],
  ])(
    "bad arguments (%s) exit 2 with the reason and write nothing",
    async (_name, args, message) => {
      const dir = out();
      const run = await runCli([...args, "--out", join(dir, "r")]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe("");
      expect(existsSync(join(dir, "r"))).toBe(false);
    },
    30_000,
  );

  it("--rules that selects no rule exits 2 before touching the target", async () => {
    const dir = out();
    const run = await runCli(["--rules", "nope.*", "--out", join(dir, "r")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--rules nope.* selects no rule");
    expect(existsSync(join(dir, "r"))).toBe(false);
    // Not even a connection attempt: an unreachable target gives the same answer.
    const live = await runCli([
      "--rules",
      "nope.*",
      "--target",
      "http://127.0.0.1:9/demo/v1",
      "--token",
      "x",
      "--out",
      join(dir, "r"),
    ]);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain("selects no rule");
  }, 30_000);

  it("an unreachable target exits 2", async () => {
    const dir = out();
    const run = await runCli(["--target", "http://127.0.0.1:9/demo/v1", "--token", "x", "--out", join(dir, "r")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the target http:\/\/127\.0\.0\.1:9\/demo\/v1 cannot be reached: .*ECONNREFUSED/);
    expectCouldNotRun(join(dir, "r"), /cannot be reached: .*ECONNREFUSED/);
  }, 30_000);

  it("a credential the target refuses exits 2, and the refused credential is not printed", async () => {
    served = await startServe();
    const dir = out();
    const wrong = "rsk_thisIsNotAKeyOfTheStore0000000000000000";
    const run = await runCli(["--target", served.baseUrl, "--token", wrong, "--out", join(dir, "r")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `GET ${served.baseUrl}/me with the given credential answered 401 UNAUTHORIZED: the credential is refused`,
    );
    expect(run.stderr + run.stdout).not.toContain(wrong);
    expectCouldNotRun(join(dir, "r"), /the credential is refused/);
    for (const name of ["report.json", "junit.xml", "report.md", "report.html"])
      expect(readFileSync(join(dir, "r", name), "utf8")).not.toContain(wrong);
  }, 60_000);

  it("a key short of scopes stops the run before any rule with one message naming what it lacks (Identity: GET /me lists its scopes)", async () => {
    served = await startServe();
    const ready = (await (await fetch(`${served.apiRoot}/_sim/credentials`)).json()) as {
      stores: { prefix: string; keys: { name: string; token: string }[] }[];
    };
    const read = ready.stores.find((st) => st.prefix === "demo")!.keys.find((k) => k.name === "read")!.token;
    const dir = out();
    const run = await runCli(["--target", served.baseUrl, "--token", read, "--out", join(dir, "r")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "the credential given to --token lacks catalog:write, inventory:write, customers:write (GET /me lists",
    );
    expect(run.stderr).toContain("Give a full-scope key to --token, and keys with fewer scopes to --key SCOPES=TOKEN.");
    expect(run.stderr.split("\n").filter((l) => /^\[\s*\d+\//.test(l))).toEqual([]);
    expect(run.stderr + run.stdout).not.toContain(read);
    expectCouldNotRun(join(dir, "r"), /lacks catalog:write/);
  }, 60_000);

  it("a URL that is not a store's base_url exits 2 and says so", async () => {
    served = await startServe();
    const dir = out();
    const run = await runCli(["--target", served.apiRoot, "--token", served.token, "--out", join(dir, "r")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is .* a store's base_url/);
  }, 60_000);

  it("a control plane that does not answer exits 2", async () => {
    served = await startServe();
    const dir = out();
    const run = await runCli([
      "--target",
      served.baseUrl,
      "--token",
      served.token,
      "--control",
      `${served.apiRoot}/nothing-here`,
      "--out",
      join(dir, "r"),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`the control plane ${served.apiRoot}/nothing-here does not answer /health`);
  }, 60_000);
});

describe("docs/interfaces.md, Command line: exit 1 when a rule fails (a mutant simulator over HTTP)", () => {
  const MUTANT = MUTANTS.find((m) => m.name === "cursor-skips-a-row")!;
  let target: Listening;

  beforeAll(async () => {
    target = await listenSimulator(MUTANT);
  });

  afterAll(async () => {
    await target?.close();
  });

  it("exits 1, prints the failure as it happens, and the reports carry the replay; the printed replay fails the same way", async () => {
    const dir = out();
    const run = await runCli([
      "--target",
      target.baseUrl,
      "--token",
      target.token,
      "--control",
      target.controlUrl,
      "--rules",
      "pagination.*",
      "--runs",
      "5",
      "--out",
      dir,
    ]);
    expect(run.code, run.stderr).toBe(1);
    const ids = selectRules("pagination.*").map((r) => r.id);
    const lines = run.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("Model: "));
    expect(lines).toHaveLength(ids.length);
    const failed = lines.find((l) => l.includes("pagination.each-row-once"))!;
    expect(failed).toMatch(
      /^\[\s*\d+\/\d+\] \u2718 pagination\.each-row-once — expected .+; observed .+ \[failed again when run once more: reproducible\]$/,
    );
    expect(run.stdout + run.stderr).not.toContain(target.token);

    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    const s = report.summary;
    // Failures of one cause (the model's divergence on a rule's requests) are counted as one group.
    expect(s.verdict).toMatch(
      new RegExp(
        `^${s.failed} of ${s.passed + s.failed + s.skipped} rules failed( \\(\\d+ causes?\\))?; ${s.passed} held\\.$`,
      ),
    );
    expect(run.stdout.startsWith(`FAILED: ${s.verdict}`)).toBe(true);
    expect(lines.filter((l) => l.includes("\u2714"))).toHaveLength(s.passed);
    expect(lines.filter((l) => l.includes("\u2718"))).toHaveLength(s.failed);
    const rule = report.rules.find((r: { id: string }) => r.id === "pagination.each-row-once");
    expect(rule).toMatchObject({ status: "failed", reproducible: true });
    const c = rule.counterexample;
    for (const name of ["report.json", "junit.xml", "report.md", "report.html"])
      expect(readFileSync(join(dir, name), "utf8"), name).not.toContain(target.token);

    // The replay command as the Markdown prints it, the credential filled in.
    const md = readFileSync(join(dir, "report.md"), "utf8");
    const printed = /- Replay: `retail-sim conformance (.+)`/.exec(md)![1]!;
    // Every option of the run is repeated (the control plane included); the credential comes from the environment.
    expect(printed).toBe(
      `--target ${target.baseUrl} --token "$RETAIL_TOKEN" --control ${target.controlUrl} --rules pagination.each-row-once --seed ${c.seed} --runs 5 --replay ${c.path} --out reports/replay-pagination.each-row-once`,
    );
    // Its own report folder (here a temporary one in its place): the run's reports stay as they are.
    const replayDir = out();
    const args = printed
      .split(" ")
      .map((a) =>
        a === '"$RETAIL_TOKEN"' ? target.token : a === "reports/replay-pagination.each-row-once" ? replayDir : a,
      );
    const replay = await runCli(args);
    expect(replay.code, replay.stderr).toBe(1);
    const again = JSON.parse(readFileSync(join(replayDir, "report.json"), "utf8")).rules[0];
    expect(again.counterexample).toMatchObject({
      expected: c.expected,
      observed: c.observed,
      input: c.input,
      seed: c.seed,
    });
  }, 90_000);
});
