// The coverage of a test run (docs/interfaces.md, Journal and coverage): sandboxes made with the same `run`
// count their exchanges toward one report that outlives them, so a parallel test run whose workers each remove
// their sandbox when done still reads one report at the end.
import { describe, expect, it } from "vitest";
import type { CoverageReport } from "./contract/journal.js";
import { MAX_RUNS, RunCoverage } from "./http/coverage.js";
import { call, makeSim, ORIGIN, type Reply } from "./test-support/sim.js";
import type { Simulator } from "./simulator.js";

const control = (sim: Simulator, method: string, path: string, body?: unknown): Promise<Reply> =>
  call(sim, method, `/_sim${path}`, { auth: null, ...(body === undefined ? {} : { body }) });

interface Made {
  id: string;
  run: string;
  stores: { prefix: string; keys: { name: string; token: string }[] }[];
}

async function sandbox(sim: Simulator, body: object): Promise<Made> {
  const made = await control(sim, "POST", "/sandboxes", body);
  expect(made.status).toBe(201);
  return made.json as Made;
}

/** `GET /me` in the sandbox's demo store with a key of `name`. */
function me(sim: Simulator, made: Made, name = "full"): Promise<Reply> {
  const store = made.stores[0];
  const token = store?.keys.find((k) => k.name === name)?.token;
  return call(sim, "GET", `/${store?.prefix}/v1/me`, { auth: `Bearer ${token}` });
}

const count = (report: CoverageReport, kind: string, id: string) =>
  report.items.find((i) => i.kind === kind && i.id === id)?.count;

describe("Coverage of a run: GET /_sim/runs/{run}/coverage", () => {
  it("adds up every sandbox that carried the run, removed ones included, and none of another run", async () => {
    const sim = makeSim();
    const [a, b, other] = [
      await sandbox(sim, { run: "ci-42" }),
      await sandbox(sim, { run: "ci-42" }),
      await sandbox(sim, { run: "nightly" }),
    ];
    expect([a.run, b.run, other.run]).toEqual(["ci-42", "ci-42", "nightly"]);
    expect((await me(sim, a)).status).toBe(200);
    expect((await me(sim, b, "none")).status).toBe(200);
    expect((await me(sim, b, "nope")).status).toBe(401);
    expect((await me(sim, other)).status).toBe(200);
    // Both of the run's sandboxes are removed before the report is read, as workers do when they finish.
    expect((await control(sim, "DELETE", `/sandboxes/${a.id}`)).status).toBe(204);
    expect((await control(sim, "DELETE", `/sandboxes/${b.id}`)).status).toBe(204);
    const run = await control(sim, "GET", "/runs/ci-42/coverage");
    expect(run.status).toBe(200);
    const report = run.json as CoverageReport;
    expect([report.sandbox, report.requests]).toEqual(["run ci-42 (2 sandboxes)", 3]);
    expect([count(report, "operation", "getMe"), count(report, "status", "getMe 401")]).toEqual([3, 1]);
    expect(count(report, "error_code", "UNAUTHORIZED")).toBe(1);
    const runs = await control(sim, "GET", "/runs");
    expect(runs.json).toEqual([
      { run: "default", sandboxes: 1, requests: 0 },
      { run: "ci-42", sandboxes: 2, requests: 3 },
      { run: "nightly", sandboxes: 1, requests: 1 },
    ]);
  });

  it("counts the default sandbox and sandboxes made without a run toward `default`", async () => {
    const sim = makeSim();
    const plain = await sandbox(sim, {});
    expect(plain.run).toBe("default");
    expect((await me(sim, plain)).status).toBe(200);
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
    const report = (await control(sim, "GET", "/runs/default/coverage")).json as CoverageReport;
    expect([report.sandbox, report.requests, count(report, "operation", "getMe")]).toEqual([
      "run default (2 sandboxes)",
      2,
      2,
    ]);
    // The library reads the same route.
    expect(sim.control.getRunCoverage({ params: { run: "default" } }).requests).toBe(2);
  });

  it("DELETE /_sim/runs/{run}/coverage sets the run's counts back to 0 and leaves each sandbox's own", async () => {
    const sim = makeSim();
    const made = await sandbox(sim, { run: "r" });
    await me(sim, made);
    expect((await control(sim, "DELETE", "/runs/r/coverage")).status).toBe(204);
    expect(((await control(sim, "GET", "/runs/r/coverage")).json as CoverageReport).requests).toBe(0);
    expect(((await control(sim, "GET", `/sandboxes/${made.id}/coverage`)).json as CoverageReport).requests).toBe(1);
  });

  it("answers 404 NOT_FOUND for a run no sandbox carried, and the runs' routes only at the control plane's root", async () => {
    const sim = makeSim();
    const unknown = await control(sim, "GET", "/runs/never/coverage");
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "NOT_FOUND"]);
    expect(unknown.json.error.message).toContain('"never"');
    expect((await control(sim, "DELETE", "/runs/never/coverage")).status).toBe(404);
    const made = await sandbox(sim, { run: "r" });
    expect((await control(sim, "GET", `/sandboxes/${made.id}/runs/r/coverage`)).status).toBe(404);
  });

  it("refuses a run name that is not 1 to 64 of A-Z a-z 0-9 . _ - with 400 VALIDATION_FAILED naming run", async () => {
    const sim = makeSim();
    for (const run of ["", "a b", "x".repeat(65), "ü", 7]) {
      const refused = await control(sim, "POST", "/sandboxes", { run });
      expect([refused.status, refused.json.error.code]).toEqual([400, "VALIDATION_FAILED"]);
      expect(refused.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["run"]);
    }
    expect((await control(sim, "GET", "/sandboxes")).json).toEqual([]);
  });

  it("a sandbox refused for its fixture counts toward no run", async () => {
    const sim = makeSim();
    const refused = await control(sim, "POST", "/sandboxes", { run: "bad", fixture: "nope" });
    expect(refused.status).toBe(400);
    expect((await control(sim, "GET", "/runs/bad/coverage")).status).toBe(404);
  });

  it("answers 404 NOT_FOUND when the journal is off (--no-journal)", async () => {
    const sim = makeSim({ journal: false });
    await sandbox(sim, { run: "r" });
    for (const path of ["/runs", "/runs/r/coverage"]) {
      const off = await control(sim, "GET", path);
      expect([off.status, off.json.error.message]).toEqual([404, "The request journal is off (--no-journal)."]);
    }
  });

  it("keeps the MAX_RUNS runs that most recently made a sandbox (bounded whatever the client names)", () => {
    const runs = new RunCoverage();
    for (let i = 0; i <= MAX_RUNS; i++) runs.join(`r${i}`);
    runs.join("r1");
    expect(runs.list().length).toBe(MAX_RUNS);
    expect(runs.report("r0")).toBeUndefined();
    expect(runs.report("r2")?.sandbox).toBe("run r2 (1 sandbox)");
    expect(runs.list().at(-1)).toEqual({ run: "r1", sandboxes: 2, requests: 0 });
  });

  it("the sandbox's answer names its run, and GET /_sim/sandboxes/{id} too", async () => {
    const sim = makeSim();
    const made = await sandbox(sim, { run: "pytest-gw0" });
    const got = await control(sim, "GET", `/sandboxes/${made.id}`);
    expect([got.json.run, got.json.control_url]).toEqual(["pytest-gw0", `${ORIGIN}/_sim/sandboxes/sb1`]);
  });
});
