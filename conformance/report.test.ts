import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { BROWSER_SKIP, browserTitle, CHROMIUM } from "../src/test-support/browser.js";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, listenSimulator, needsControlRule, usesControlRule } from "../src/test-support/conformance.js";
import { MUTANTS } from "./test-support/mutants/index.js";
import { FORMATS, writeReports } from "./report/write.js";
import { CATALOG } from "./rules/index.js";
import { conformance } from "./run.js";
import type { Report } from "./types.js";
import type { Rule } from "./rule.js";

// docs/conformance.md, The verdict and the reports: report.json (its fields and stable key order in
// docs/interfaces.md, Command line), JUnit XML (one test case per rule), Markdown for a CI job
// summary, and a self-contained HTML page checked in headless Chromium.
// The report holds passed, failed and skipped rules: the `cursor-skips-a-row` mutant served over HTTP,
// run without --control, with two test rules that need the control plane.

const MUTANT = MUTANTS.find((m) => m.name === "cursor-skips-a-row")!;
const FAILING = "pagination.each-row-once";
// Few requests (the socket run has no control plane to move the rate-limit clock), and every status.
const SELECTION =
  "envelope.success-data,auth.missing-credential,auth.malformed-or-unknown,pagination.each-row-once,pagination.desc-one-page,pagination.empty-page-null-cursor,pagination.include-deleted-desc,pagination.limit-range,pagination.unreadable-cursor,zztest.*";
const catalog = [...CATALOG, needsControlRule, usesControlRule];

interface Run {
  report: Report;
  token: string;
  dir: string;
  json: any;
}

/** One run against a fresh mutant simulator on a socket (fresh rate limits), its reports written to a new directory. */
async function mixedRun(): Promise<Run> {
  const served = await listenSimulator(MUTANT);
  try {
    const report = await conformance({
      target: served.baseUrl,
      token: served.token,
      seed: 1,
      runs: 5,
      rules: SELECTION,
      catalog,
      version: "9.9.9",
    });
    const dir = mkdtempSync(join(tmpdir(), "rsconf-report-"));
    writeReports(report, dir, FORMATS);
    return { report, token: served.token, dir, json: JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) };
  } finally {
    await served.close();
  }
}

let first: Run;
let second: Run;

beforeAll(async () => {
  first = await mixedRun();
  second = await mixedRun();
}, 60_000);

afterAll(() => {
  for (const run of [first, second]) if (run) rmSync(run.dir, { recursive: true, force: true });
});

const read = (name: string) => readFileSync(join(first.dir, name), "utf8");

describe("The verdict and the reports: the run behind them", () => {
  it("has passed, failed and skipped rules: the mutant's rule failed, the control rules were skipped", () => {
    const byStatus = (s: string) => first.report.rules.filter((r) => r.status === s).map((r) => r.id);
    expect(byStatus("failed")).toContain(FAILING);
    // Only the mutant's area can fail; the skips are for want of the control plane.
    for (const r of first.report.rules.filter((r) => r.status === "failed")) expect(r.area, r.id).toBe("Pagination");
    expect(byStatus("skipped")).toEqual(expect.arrayContaining([needsControlRule.id, usesControlRule.id]));
    expect(byStatus("passed").length).toBeGreaterThan(3);
  });
});

describe("The verdict and the reports: report.json", () => {
  it("holds the fields docs/interfaces.md promises: summary {passed, failed, skipped} and rules [{id, title, status, spec_ref, counterexample?}]", () => {
    const { json, report } = first;
    const count = (s: string) => json.rules.filter((r: { status: string }) => r.status === s).length;
    expect(json.summary).toMatchObject({ passed: count("passed"), failed: count("failed"), skipped: count("skipped") });
    expect(json.summary.passed + json.summary.failed + json.summary.skipped).toBe(json.rules.length);
    expect(json.summary.covered).toBe(count("passed") + count("failed"));
    expect(json.summary.catalog).toBe(catalog.length);
    expect(json.rules.map((r: { id: string }) => r.id)).toEqual(report.rules.map((r) => r.id));
    expect(json.tool).toEqual({ name: "retail-sim conformance", version: "9.9.9" });
    expect(json).toMatchObject({ seed: 1, runs: 5 });
    expect(json.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/v1$/);
    for (const r of json.rules) {
      expect(typeof r.id).toBe("string");
      expect(r.title.length).toBeGreaterThan(0);
      expect(["passed", "failed", "skipped"]).toContain(r.status);
      expect(r.spec_ref.length).toBeGreaterThan(0);
      // A counterexample exactly on failures; a reason exactly on skips.
      expect(r.counterexample !== undefined).toBe(r.status === "failed");
      expect(r.reason !== undefined).toBe(r.status === "skipped");
    }
    const skipped = json.rules.find((r: { id: string }) => r.id === needsControlRule.id);
    expect(skipped.reason).toBe("needs the target's control plane (--control)");
  });

  it("keeps its keys in one order, the same every run: the fields docs/interfaces.md promises first, the counterexample last", () => {
    const shape = (json: any) => ({
      top: Object.keys(json),
      tool: Object.keys(json.tool),
      summary: Object.keys(json.summary),
      rules: Object.fromEntries(json.rules.map((r: any) => [r.id, Object.keys(r)])),
      counterexamples: json.rules
        .filter((r: any) => r.counterexample)
        .map((r: any) => [Object.keys(r.counterexample), ...r.counterexample.requests.map((e: any) => Object.keys(e))]),
    });
    expect(shape(second.json)).toEqual(shape(first.json));
    const s = shape(first.json);
    expect(s.top).toEqual([
      "tool",
      "target",
      "seed",
      "runs",
      "options",
      "started_at",
      "duration_ms",
      "summary",
      "flaky_policy",
      "pacing",
      "transport",
      "model",
      "failure_groups",
      "not_checked",
      "rules",
    ]);
    expect(s.summary).toEqual(["passed", "failed", "flaky", "skipped", "covered", "catalog", "verdict"]);
    for (const keys of Object.values(s.rules) as string[][]) {
      expect(keys.slice(0, 3)).toEqual(["id", "title", "status"]);
      const present = [
        "id",
        "title",
        "status",
        "reason",
        "unlock",
        "spec_ref",
        "spec_quote",
        "area",
        "leniency",
        "cause",
        "ambient",
        "reproducible",
        "rerun",
        "transport",
        "replay",
        "credentials",
        "duration_ms",
        "requests",
        "counterexample",
      ].filter((k) => keys.includes(k));
      expect(keys).toEqual(present);
    }
    expect(s.rules[FAILING]).toEqual([
      "id",
      "title",
      "status",
      "spec_ref",
      "spec_quote",
      "area",
      "leniency",
      "reproducible",
      "replay",
      "credentials",
      "duration_ms",
      "requests",
      "counterexample",
    ]);
    expect(s.counterexamples[0]![0]).toEqual(["expected", "observed", "seed", "path", "input", "requests", "curl"]);
    expect(s.counterexamples[0]![1]).toEqual([
      "method",
      "url",
      "requestHeaders",
      "status",
      "responseHeaders",
      "responseBody",
    ]);
  });
});

describe("The verdict and the reports: JUnit XML", () => {
  const parse = () =>
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (name) => ["testsuite", "testcase"].includes(name),
    }).parse(read("junit.xml"));

  it("is well-formed XML with one test case per rule", () => {
    expect(XMLValidator.validate(read("junit.xml"))).toBe(true);
    const doc = parse();
    const cases = doc.testsuites.testsuite.flatMap((s: { testcase: unknown[] }) => s.testcase);
    expect(cases).toHaveLength(first.report.rules.length);
    const ids = cases.map((c: { name: string }) => c.name.split(":")[0]);
    expect(ids.sort()).toEqual(first.report.rules.map((r) => r.id).sort());
    const s = first.report.summary;
    expect(doc.testsuites).toMatchObject({
      name: "retail-sim conformance",
      tests: String(first.report.rules.length),
      failures: String(s.failed),
      skipped: String(s.skipped),
    });
    // Grouped by area, each suite counting its own.
    for (const suite of doc.testsuites.testsuite) {
      const rules = first.report.rules.filter((r) => r.area === suite.name);
      expect(suite.tests).toBe(String(rules.length));
      expect(suite.failures).toBe(String(rules.filter((r) => r.status === "failed").length));
      expect(suite.skipped).toBe(String(rules.filter((r) => r.status === "skipped").length));
    }
  });

  it("marks the failure with expected, observed and the replay, and each skip with its reason", () => {
    const cases = parse().testsuites.testsuite.flatMap((s: { testcase: any[] }) => s.testcase);
    const byId = (id: string) => cases.find((c: { name: string }) => c.name.startsWith(`${id}:`));
    const failed = first.report.rules.find((r) => r.id === FAILING)!;
    const c = failed.counterexample!;
    const failure = byId(FAILING).failure;
    expect(failure.message).toBe(`expected ${c.expected}; observed ${c.observed}`);
    expect(failure["#text"]).toContain(`--rules ${FAILING} --seed ${c.seed} --runs 5 --replay ${c.path}`);
    expect(failure["#text"]).toContain(`curl -i -X GET "$RETAIL_BASE_URL"`);
    expect(failure["#text"]).toContain("reproducible");
    expect(byId(needsControlRule.id).skipped.message).toBe("needs the target's control plane (--control)");
    const passed = first.report.rules.filter((r) => r.status === "passed");
    for (const r of passed) expect(byId(r.id).failure ?? byId(r.id).skipped).toBeUndefined();
  });
});

describe("The verdict and the reports: Markdown for a CI job summary", () => {
  it("has the totals table and each failure with its spec sentence, expectation, replay command and curl", () => {
    const md = read("report.md");
    const s = first.report.summary;
    expect(md.split("\n")[0]).toBe("# Conformance: failed");
    // The verdict: what held, what failed, and what was not checked with what would let it run.
    expect(md.split("\n")[2]).toBe(`**${s.verdict}**`);
    expect(s.verdict).toBe(
      `1 of ${s.passed + s.failed + s.skipped} rules failed; ${s.passed} held; ${s.skipped} not checked: ${s.skipped} needs --control.`,
    );
    expect(md).toContain(
      `| passed | failed | flaky | skipped | rules covered |\n|---|---|---|---|---|\n| ${s.passed} | ${s.failed} | ${s.flaky} | ${s.skipped} | ${s.covered} of ${s.catalog} |`,
    );
    const failed = first.report.rules.find((r) => r.id === FAILING)!;
    const c = failed.counterexample!;
    const section = md.slice(md.indexOf("## Failures"), md.indexOf("## Rules"));
    expect(section).toContain(`### \`${FAILING}\``);
    expect(section).toContain(`> ${failed.spec_quote}`);
    expect(section).toContain(`- Expected: ${c.expected}`);
    expect(section).toContain(`- Observed: ${c.observed}`);
    expect(section).toContain(
      `- Replay: \`retail-sim conformance --target ${first.report.target} --token "$RETAIL_TOKEN" --rules ${FAILING} --seed ${c.seed} --runs 5 --replay ${c.path} --out reports/replay-${FAILING}\``,
    );
    expect(section).toContain("- Run again: failed again when run once more: reproducible");
    expect(section).toContain(`\`\`\`sh\n: "\${RETAIL_TOKEN:?set RETAIL_TOKEN`);
    expect(section).toContain(`curl -i -X GET "$RETAIL_BASE_URL"`);
    // Every rule in the table, skips with their reason.
    for (const r of first.report.rules) expect(md).toContain(`| \`${r.id}\` | ${r.area} | ${r.status} |`);
    expect(md).toContain(
      `| \`${needsControlRule.id}\` | Store states | skipped | needs the target's control plane (--control) |`,
    );
  });
});

describe("Reading a failure: no credential in any report", () => {
  it("the token appears in no format; requests carry `Bearer <redacted>`", () => {
    for (const name of ["report.json", "junit.xml", "report.md", "report.html"]) {
      const text = read(name);
      expect(text, name).not.toContain(first.token);
      expect(text, name).not.toMatch(/rsk_[A-Za-z0-9]{10,}/);
    }
    const c = first.json.rules.find((r: { id: string }) => r.id === FAILING).counterexample;
    for (const e of c.requests) expect(e.requestHeaders.authorization).toBe("Bearer <redacted>");
  });
});

describe.skipIf(BROWSER_SKIP !== undefined)(
  browserTitle("The verdict and the reports: the HTML page in a browser"),
  () => {
    let browser: Browser;

    beforeAll(async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(
          `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH.`,
        );
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
        ],
      });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    it("is self-contained: no script, stylesheet, image or font from elsewhere", () => {
      const html = read("report.html");
      expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
      expect(html).toMatch(/^<!doctype html>/);
    });

    it("shows the verdict, the totals, rules by area with their status, and the failure's expected, observed and curl", async () => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.goto(`file://${join(first.dir, "report.html")}`);
      const s = first.report.summary;
      await expect.poll(() => page.locator(".verdict").textContent()).toBe(`FAILED: ${s.verdict}`);
      expect(s.verdict).toMatch(/^1 of \d+ rules failed; \d+ held; \d+ not checked: \d+ needs --control\.$/);
      const totals = (await page.locator(".totals > div").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      expect(totals).toEqual([
        `${s.passed} passed`,
        `${s.failed} failed`,
        `${s.flaky} flaky`,
        `${s.skipped} skipped`,
        `${s.covered}/${s.catalog} rules covered`,
      ]);

      // Rules by area: one section per area, each rule once, its status at a glance.
      const areas = [...new Set(first.report.rules.map((r) => r.area))];
      const headings = await page.locator("section.area h2").allInnerTexts();
      // The failures lead, grouped by cause; then what was not checked; then every rule by area.
      expect((await page.locator("section h2").allInnerTexts()).slice(0, 2)).toEqual([
        "Failures, by cause",
        "Not checked",
      ]);
      expect(
        headings.map((h) =>
          h
            .split("\n")[0]!
            .replace(/\s+\S+$/, "")
            .trim(),
        ).length,
      ).toBe(areas.length);
      for (const area of areas) expect(headings.some((h) => h.startsWith(area))).toBe(true);
      for (const r of first.report.rules) {
        const item = page.locator(`li[data-rule="${r.id}"]`);
        await expect.poll(() => item.getAttribute("class")).toContain(r.status);
        expect(await item.locator(".mark").isVisible()).toBe(true);
      }
      const skipped = page.locator(`li[data-rule="${needsControlRule.id}"]`);
      expect(await skipped.innerText()).toContain("needs the target's control plane (--control)");

      // The failure: expandable, with expected, observed, the replay and the curl commands.
      const failed = first.report.rules.find((r) => r.id === FAILING)!;
      const c = failed.counterexample!;
      const details = page.locator(`li[data-rule="${FAILING}"] details`);
      const open = () => details.evaluate((d) => (d as unknown as { open: boolean }).open);
      if (!(await open())) await details.locator("summary").click();
      expect(await open()).toBe(true);
      const text = await details.innerText();
      expect(text).toContain("Expected");
      expect(text).toContain(c.expected);
      expect(text).toContain("Observed");
      expect(text).toContain(c.observed);
      expect(text).toContain(`--seed ${c.seed} --runs 5 --replay ${c.path}`);
      expect(text).toContain("reproducible");
      expect(text).toContain(`curl -i -X GET "$RETAIL_BASE_URL"`);
      expect(text).toContain(`authorization: Bearer '"$RETAIL_TOKEN"`);
      expect(await details.locator("pre").isVisible()).toBe(true);
      // Expected against observed, as a diff.
      expect(await details.locator(".diff").innerText()).toBe(`- expected  ${c.expected}\n+ observed  ${c.observed}`);
      // It folds and unfolds.
      await details.locator("summary").click();
      expect(await open()).toBe(false);
      await details.locator("summary").click();
      expect(await open()).toBe(true);

      expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
      mkdirSync(join(ROOT, "reports"), { recursive: true });
      await page.screenshot({ path: join(ROOT, "reports", "conformance-report.png"), fullPage: true });
      await page.close();
    }, 60_000);

    it("with many failures each starts folded, one line of expected and observed showing, and opens on a click", async () => {
      const failing = Array.from(
        { length: 7 },
        (_, i): Rule => ({
          id: `zztest.fails-${i}`,
          area: "Catalog",
          title: `Failing test rule ${i}`,
          spec: { section: "Test", quote: "A rule that fails." },
          cost: 1,
          run: async (ctx) => {
            await ctx.call("GET", "/me");
            ctx.check(false, `answer ${i}`, `another answer ${i}`);
          },
        }),
      );
      const report = await conformance({ seed: 1, runs: 2, rules: "zztest.*", catalog: [...CATALOG, ...failing] });
      const dir = mkdtempSync(join(tmpdir(), "rsconf-report-many-"));
      try {
        writeReports(report, dir, ["html"]);
        const page = await browser.newPage();
        await page.goto(`file://${join(dir, "report.html")}`);
        expect(await page.locator(".verdict").textContent()).toBe("FAILED: 7 of 7 rules failed; 0 held.");
        const item = page.locator(`li[data-rule="zztest.fails-3"]`);
        expect(await item.locator("details").evaluate((d) => (d as unknown as { open: boolean }).open)).toBe(false);
        expect(await item.locator(".brief").innerText()).toBe("expected answer 3; observed another answer 3");
        expect(await item.locator("pre").isVisible()).toBe(false);
        await item.locator("summary").click();
        expect(await item.locator("pre").isVisible()).toBe(true);
        expect(await item.locator("dd.observed").innerText()).toBe("another answer 3");
        expect(await item.locator(".brief").isVisible()).toBe(false);
        await page.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it("a run where every rule held says so in green", async () => {
      const report = await conformance({ seed: 1, runs: 2, rules: "pagination.*" });
      const dir = mkdtempSync(join(tmpdir(), "rsconf-report-ok-"));
      try {
        writeReports(report, dir, ["html"]);
        const page = await browser.newPage();
        await page.goto(`file://${join(dir, "report.html")}`);
        expect(await page.locator(".verdict").textContent()).toMatch(/^PASSED: All \d+ rules held\.$/);
        expect(await page.locator(".verdict").evaluate((e) => (globalThis as any).getComputedStyle(e).color)).toBe(
          "rgb(10, 107, 45)",
        );
        expect(await page.locator("li.rule details").count()).toBe(0);
        await page.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);
  },
);
