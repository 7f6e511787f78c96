import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE_FIXTURE, fullyCovered } from "../test-support/coverage.js";
import { coverageSummary } from "./coverage-report.js";

// docs/interfaces.md, `retail-sim coverage`: the built command against a small control plane of this test
// (a node:http server answering a fixture CoverageReport at /_sim/coverage), so it needs no simulator.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = `${ROOT}dist/bin/retail-sim.js`;
const TOKEN = "ctl-secret";
let server: Server;
let origin = "";
const dirs: string[] = [];

beforeAll(async () => {
  // `npm test` builds first; running vitest alone needs a build too.
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
  server = createServer((req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === "/_sim/coverage") return json(200, COVERAGE_FIXTURE);
    if (req.url === "/_sim/sandboxes/sb2/coverage") {
      if (req.headers.authorization !== `Bearer ${TOKEN}`)
        return json(401, { error: { code: "UNAUTHORIZED", message: "The control plane needs its token." } });
      return json(200, { ...fullyCovered(), sandbox: "sb2" });
    }
    if (req.url === "/not-a-report/_sim/coverage") return json(200, { sandbox: "sb1", requests: 3 });
    if (req.url === "/html/_sim/coverage") {
      res.writeHead(200, { "content-type": "text/html" });
      return res.end("<!doctype html><p>hello</p>");
    }
    json(404, { error: { code: "NOT_FOUND", message: "No such route." } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as { port: number };
  origin = `http://127.0.0.1:${address.port}`;
}, 180_000);

afterAll(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await new Promise((resolve) => server.close(resolve));
});

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "retail-sim-coverage-"));
  dirs.push(dir);
  return dir;
};

/** Runs `retail-sim coverage ...` to its end (without blocking: this process serves it). */
function coverage(args: string[], cwd = ROOT): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "coverage", ...args], { cwd });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("docs/interfaces.md, retail-sim coverage: reads {from}/coverage and writes its reports", () => {
  it("exits 0, writes coverage.md, .html and .json into --out (made if missing) and prints the summary and paths", async () => {
    const out = join(tempDir(), "deep", "coverage");
    const ran = await coverage(["--from", `${origin}/_sim`, "--out", out]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    const paths = ["md", "html", "json"].map((ext) => join(out, `coverage.${ext}`));
    expect(ran.stdout).toBe(`${coverageSummary(COVERAGE_FIXTURE)}Reports: ${paths.join(", ")}\n`);
    expect(JSON.parse(readFileSync(paths[2] as string, "utf8"))).toEqual(COVERAGE_FIXTURE);
    expect(readFileSync(paths[0] as string, "utf8").split("\n")[0]).toBe("# Spec coverage: 45.8%");
    expect(readFileSync(paths[1] as string, "utf8")).toContain("<title>Spec coverage · sb1</title>");
  });

  it("exits 1 below --min or --min-branches, naming each threshold that failed; 0 at or above them", async () => {
    const out = tempDir();
    const both = await coverage(["--from", `${origin}/_sim`, "--out", out, "--min", "50", "--min-branches", "30"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe(
      [
        "retail-sim coverage: overall coverage 45.8% (the mean of the four kinds' percents, each kind weighing the same) is below --min 50%",
        "retail-sim coverage: rule branch coverage 25.0% (1 of 4) is below --min-branches 30%",
        "",
      ].join("\n"),
    );
    expect(existsSync(join(out, "coverage.html"))).toBe(true);
    const branches = await coverage([
      "--from",
      `${origin}/_sim`,
      "--out",
      out,
      "--min",
      "45.8",
      "--min-branches",
      "26",
    ]);
    expect([branches.code, branches.stderr]).toEqual([
      1,
      "retail-sim coverage: rule branch coverage 25.0% (1 of 4) is below --min-branches 26%\n",
    ]);
    const met = await coverage(["--from", `${origin}/_sim`, "--out", out, "--min", "45.8", "--min-branches", "25"]);
    expect([met.code, met.stderr]).toEqual([0, ""]);
  });

  it("--min-operations, --min-statuses and --min-error-codes judge their kind's percent, one line each", async () => {
    const out = tempDir();
    const args = ["--from", `${origin}/_sim`, "--out", out, "--format", "json"];
    const missed = await coverage([
      ...args,
      "--min-operations",
      "76",
      "--min-statuses",
      "33.4",
      "--min-error-codes",
      "51",
    ]);
    expect([missed.code, missed.stderr]).toEqual([
      1,
      [
        "retail-sim coverage: operation coverage 75.0% (3 of 4) is below --min-operations 76%",
        "retail-sim coverage: status coverage 33.3% (1 of 3) is below --min-statuses 33.4%",
        "retail-sim coverage: error code coverage 50.0% (2 of 4) is below --min-error-codes 51%",
        "",
      ].join("\n"),
    ]);
    const statuses = await coverage([
      ...args,
      "--min-operations",
      "75",
      "--min-statuses",
      "34",
      "--min-error-codes",
      "50",
    ]);
    expect([statuses.code, statuses.stderr]).toEqual([
      1,
      "retail-sim coverage: status coverage 33.3% (1 of 3) is below --min-statuses 34%\n",
    ]);
    const met = await coverage([
      ...args,
      "--min-operations",
      "75",
      "--min-statuses",
      "33.3",
      "--min-error-codes",
      "50",
    ]);
    expect([met.code, met.stderr]).toEqual([0, ""]);
  });

  it("a sandbox's control URL with --control-token; --format picks the files", async () => {
    const out = tempDir();
    const url = `${origin}/_sim/sandboxes/sb2`;
    const ran = await coverage([
      "--from",
      url,
      "--out",
      out,
      "--control-token",
      TOKEN,
      "--format",
      "json",
      "--min",
      "100",
    ]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toContain("Spec coverage of sb2 (37 requests counted):\n");
    expect(ran.stdout.endsWith(`Reports: ${join(out, "coverage.json")}\n`)).toBe(true);
    expect(existsSync(join(out, "coverage.md"))).toBe(false);
  });

  it("reads a saved coverage.json given as --from, offline; the default --out is reports/coverage", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "saved.json"), JSON.stringify(COVERAGE_FIXTURE));
    const ran = await coverage(["--from", "saved.json"], cwd);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(readFileSync(join(cwd, "reports/coverage/coverage.md"), "utf8")).toContain(
      "## Rule branches: 1 of 4 (25.0%)",
    );
  });
});

describe("docs/interfaces.md, retail-sim coverage: exit 2 with one line, never a stack trace, when there is no report", () => {
  it("an unreachable control URL, a refused token, a 404, a 200 that is not a report or not JSON, a missing file", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const out = tempDir();
    const cases: [string, string[], string][] = [
      [`http://127.0.0.1:${port}/_sim`, [], `cannot reach http://127.0.0.1:${port}/_sim/coverage: ECONNREFUSED`],
      [
        `${origin}/_sim/sandboxes/sb2`,
        ["--control-token", "wrong"],
        `GET ${origin}/_sim/sandboxes/sb2/coverage answered 401 (is the control plane protected? pass its token with --control-token): {"error":{"code":"UNAUTHORIZED","message":"The control plane needs its token."}}`,
      ],
      [
        `${origin}/demo/v1`,
        [],
        `GET ${origin}/demo/v1/coverage answered 404 (is --from a control URL, http://HOST:PORT/_sim or http://HOST:PORT/_sim/sandboxes/ID, of a simulator with a /coverage route?): {"error":{"code":"NOT_FOUND","message":"No such route."}}`,
      ],
      [
        `${origin}/not-a-report/_sim`,
        [],
        `${origin}/not-a-report/_sim did not give a coverage report: \`totals\` is not an object`,
      ],
      [
        `${origin}/html/_sim/`,
        [],
        `GET ${origin}/html/_sim/coverage answered 200 but not JSON: <!doctype html><p>hello</p>`,
      ],
      [join(out, "missing.json"), [], `cannot read ${join(out, "missing.json")}: ENOENT`],
    ];
    for (const [from, extra, message] of cases) {
      const ran = await coverage(["--from", from, "--out", out, ...extra]);
      expect([ran.code, ran.stdout, ran.stderr], from).toEqual([2, "", `retail-sim coverage: ${message}\n`]);
    }
    expect(existsSync(join(out, "coverage.json"))).toBe(false);
  });

  it("bad arguments: a threshold outside 0-100, an unknown --format, no --from", async () => {
    for (const [args, message] of [
      [["--from", `${origin}/_sim`, "--min", "101"], "--min must be a percent from 0 to 100"],
      [["--from", `${origin}/_sim`, "--min-statuses", "-1"], "--min-statuses must be a percent from 0 to 100"],
      [["--from", `${origin}/_sim`, "--min-error-codes", "x"], "--min-error-codes must be a percent from 0 to 100"],
      [["--from", `${origin}/_sim`, "--format", "md,pdf"], "unknown --format pdf; choose from md, html, json"],
      [[], "Missing required argument: from"],
      // An option that takes one value, given twice, is refused by name (never a crash of the command).
      [["--from", `${origin}/_sim`, "--out", "a", "--out", "b"], "--out was given 2 times (a, b); give it once"],
      [
        ["--from", `${origin}/_sim`, "--format", "md", "--format", "html"],
        "--format was given 2 times (md, html); give it once",
      ],
      [["--from", `${origin}/_sim`, "--min", "1", "--min", "2"], "--min was given 2 times (1, 2); give it once"],
      [["--from", ""], "--from needs a control URL or a file"],
    ] as const) {
      const ran = await coverage([...args]);
      expect([ran.code, ran.stderr.split("\n")[0]]).toEqual([2, `retail-sim: ${message}`]);
    }
  });

  it("several --from sources are added up into one report: a control URL and a saved file", async () => {
    const out = tempDir();
    const saved = join(tempDir(), "sb2.json");
    writeFileSync(saved, JSON.stringify({ ...fullyCovered(), sandbox: "sb2" }));
    const ran = await coverage(["--from", `${origin}/_sim`, "--from", saved, "--out", out, "--format", "json"]);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    const merged = JSON.parse(readFileSync(join(out, "coverage.json"), "utf8"));
    const fixture = COVERAGE_FIXTURE;
    expect(merged.sandbox).toBe(`${fixture.sandbox}, sb2`);
    expect(merged.requests).toBe(fixture.requests + fullyCovered().requests);
    // Every item of the fully covered report is met, so the sum is fully covered too.
    expect(merged.totals.all.percent).toBe(100);
    expect(ran.stdout.split("\n")[0]).toBe(
      `Spec coverage of ${fixture.sandbox}, sb2 (${merged.requests} requests counted):`,
    );
  });

  it("a source that cannot be read among several: exit 2 naming it, no report written", async () => {
    const out = join(tempDir(), "none");
    const ran = await coverage(["--from", `${origin}/_sim`, "--from", join(out, "missing.json"), "--out", out]);
    expect([ran.code, ran.stdout, ran.stderr]).toEqual([
      2,
      "",
      `retail-sim coverage: cannot read ${join(out, "missing.json")}: ENOENT\n`,
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
