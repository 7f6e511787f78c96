import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { leakyRule, judged } from "../src/test-support/conformance.js";
import { createSimulator, type Simulator } from "../src/simulator.js";
import { MUTANTS, mutantSimulator } from "./test-support/mutants/index.js";
import { FORMATS, writeReports } from "./report/write.js";
import { CATALOG } from "./rules/index.js";
import { conformance } from "./run.js";

// docs/conformance.md, Reading a failure: each failing rule shows its id and spec sentence, the minimal requests, expected vs observed,
// the seed and path to replay, and curl commands with the credential redacted; `--seed` with
// `--replay` runs exactly that case again.

const MUTANT = MUTANTS.find((m) => m.name === "cursor-skips-a-row")!;
const RULE = "pagination.each-row-once";

describe("docs/conformance.md, Reading a failure: a property rule's counterexample", () => {
  it("has expected, observed, the seed and path, the minimal input, its requests redacted, and a script with one curl per request", async () => {
    const report = await conformance({ seed: 1, runs: 5, rules: RULE, simulator: judged(mutantSimulator(MUTANT)) });
    const r = report.rules[0]!;
    expect(r).toMatchObject({ id: RULE, status: "failed", spec_ref: "Endpoints: Pagination and polling rules" });
    expect(r.spec_quote).toContain("cursor is opaque");
    // In process there is nothing to re-run: a failure is a failure.
    expect(r.reproducible).toBeUndefined();
    const c = r.counterexample!;
    expect(c.expected.length).toBeGreaterThan(0);
    expect(c.observed.length).toBeGreaterThan(0);
    expect(c.observed).not.toBe(c.expected);
    expect(c.seed).toBe(1);
    expect(c.path).toMatch(/^\d+(:\d+)*$/);
    expect(JSON.parse(c.input!)).toMatchObject({ list: expect.stringMatching(/^\//), limit: expect.any(Number) });
    // The minimal case's requests only: the whole list, then its pages, the last one the mutant cut short.
    expect(c.requests.length).toBeGreaterThanOrEqual(2);
    expect(c.requests.length).toBeLessThan(r.requests);
    const list = JSON.parse(c.input!).list as string;
    for (const e of c.requests) {
      expect(e.method).toBe("GET");
      expect(e.url).toContain(`/demo/v1${list}?`);
      expect(e.requestHeaders.authorization).toBe("Bearer <redacted>");
      expect(e.status).toBe(200);
    }
    expect(c.requests.at(-1)!.url).toContain("cursor=");
    // The reproduction: the credential and base URL from the environment, then one curl per request.
    const base = "http://retail-sim.in-process/demo/v1";
    expect(c.curl.slice(0, 3)).toEqual([
      "# against `npx retail-sim --seed 1 --clock manual`: RETAIL_TOKEN is the demo store's full key it prints, RETAIL_CONTROL_URL its /_sim",
      ': "${RETAIL_TOKEN:?set RETAIL_TOKEN to a full-scope API key of the store (the one given to --token)}"',
      'RETAIL_BASE_URL="${RETAIL_BASE_URL:-http://127.0.0.1:4747/demo/v1}"',
    ]);
    // A cursor an answer handed back is captured from that answer into a variable, not copied.
    const commands = c.curl.slice(3).filter((line) => line.includes("curl "));
    expect(commands).toHaveLength(c.requests.length);
    commands.forEach((cmd, i) => {
      const path = c.requests[i]!.url.slice(base.length).replace(/cursor=[^&]+/, "cursor='\"$NEXT_CURSOR_1\"'");
      const curl =
        `curl ${i === commands.length - 2 ? "-sS" : "-i"} -X GET "$RETAIL_BASE_URL"'${path}' -H 'authorization: Bearer '"$RETAIL_TOKEN"`.replace(
          `"'' -H`,
          `" -H`,
        );
      expect(cmd).toBe(i === commands.length - 2 ? `R${i + 1}=$(${curl}); printf '%s\\n' "$R${i + 1}"` : curl);
    });
    expect(c.curl).toContain(
      `NEXT_CURSOR_1=$(printf '%s' "$R${commands.length - 1}" | node -p 'const j = JSON.parse(require("fs").readFileSync(0, "utf8")); j["next_cursor"]')`,
    );
  });

  it("--seed with --replay runs the printed case again and fails the same way", async () => {
    const report = await conformance({ seed: 1, runs: 5, rules: RULE, simulator: judged(mutantSimulator(MUTANT)) });
    const c = report.rules[0]!.counterexample!;
    const again = await conformance({
      seed: c.seed,
      runs: 5,
      rules: RULE,
      replay: c.path,
      simulator: judged(mutantSimulator(MUTANT)),
    });
    const r = again.rules[0]!;
    expect(r.status).toBe("failed");
    expect(r.counterexample).toMatchObject({
      expected: c.expected,
      observed: c.observed,
      input: c.input,
      seed: c.seed,
    });
    expect(r.counterexample!.curl).toEqual(c.curl);
    // Replaying goes straight to the case: fewer requests than the search that found it.
    expect(r.requests).toBeLessThan(report.rules[0]!.requests);
    // The same case against the real simulator holds: the replay is of the case, not of a broken run.
    const fixed = await conformance({ seed: c.seed, runs: 5, rules: RULE, replay: c.path });
    expect(fixed.rules[0]!.status).toBe("passed");
  });

  it("a rule that is not a property replays by its seed: the same failure, no path", async () => {
    const mutant = MUTANTS.find((m) => m.name === "empty-page-keeps-cursor")!;
    const first = await conformance({
      seed: 4,
      runs: 3,
      rules: "pagination.empty-page-null-cursor",
      simulator: judged(mutantSimulator(mutant)),
    });
    const c = first.rules[0]!.counterexample!;
    expect(first.rules[0]!.status).toBe("failed");
    expect(c.seed).toBe(4);
    expect(c.path).toBeUndefined();
    expect(c.input).toBeUndefined();
    const again = await conformance({
      seed: c.seed,
      runs: 3,
      rules: "pagination.empty-page-null-cursor",
      simulator: judged(mutantSimulator(mutant)),
    });
    expect(again.rules[0]!.counterexample).toEqual(c);
  });

  it("the reported seed is the one to pass back, even past fast-check's 32-bit range", async () => {
    let seed = 4294967295;
    let report = await conformance({ seed, runs: 5, rules: RULE, simulator: judged(mutantSimulator(MUTANT)) });
    // Find a seed at the top of the range whose search catches the mutant.
    for (let tries = 0; report.summary.failed === 0 && tries < 20; tries++) {
      seed -= 1;
      report = await conformance({ seed, runs: 5, rules: RULE, simulator: judged(mutantSimulator(MUTANT)) });
    }
    expect(report.summary.failed).toBe(1);
    const c = report.rules[0]!.counterexample!;
    expect(c.seed).toBe(seed);
    const again = await conformance({
      seed: c.seed,
      runs: 5,
      rules: RULE,
      replay: c.path,
      simulator: judged(mutantSimulator(MUTANT)),
    });
    expect(again.rules[0]!.counterexample).toMatchObject({ input: c.input, observed: c.observed });
  }, 60_000);
});

describe("docs/conformance.md, Reading a failure: credentials never reach a report", () => {
  it("neither the run's token nor a key a rule made and used appears in any format, though the rule quoted both", async () => {
    let sim: Simulator | undefined;
    const report = await conformance({
      seed: 1,
      runs: 3,
      rules: leakyRule.id,
      catalog: [...CATALOG, leakyRule],
      simulator: judged((options) => (sim = createSimulator(options))),
    });
    expect(report.rules[0]!.status).toBe("failed");
    const runToken = sim!.token("demo", "full");
    const madeKey = sim!.token("demo", "zztest");
    expect(madeKey).toMatch(/^rsk_/);
    const dir = mkdtempSync(join(tmpdir(), "rsconf-leak-"));
    try {
      writeReports(report, dir, FORMATS);
      for (const name of ["report.json", "junit.xml", "report.md", "report.html"]) {
        const text = readFileSync(join(dir, name), "utf8");
        expect(text, name).not.toContain(runToken);
        expect(text, name).not.toContain(madeKey);
        expect(text, name).not.toMatch(/rsk_[A-Za-z0-9]{8,}/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const c = report.rules[0]!.counterexample!;
    expect(c.observed).toContain("<redacted>");
    // The headers of every request, the URL that carried the key, and the body that returned it.
    const byUrl = (part: string) => c.requests.find((e) => e.url.includes(part))!;
    expect(byUrl("/_sim/stores/demo/keys").responseBody).toContain('"token":"<redacted>"');
    expect(byUrl("/outlets").url).toMatch(/note=<redacted>$/);
    expect(byUrl("/outlets").requestHeaders["x-echo"]).toBe("Bearer <redacted>");
    expect(byUrl("/me").requestHeaders.authorization).toBe("Bearer <redacted>");
  });
});
