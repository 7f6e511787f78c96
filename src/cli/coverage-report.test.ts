import { describe, expect, it } from "vitest";
import type { CoverageReport } from "../contract/journal.js";
import { COVERAGE_FIXTURE, fullyCovered } from "../test-support/coverage.js";
import { coverageHtml } from "./coverage-html.js";
import {
  bar,
  coverageMarkdown,
  coverageReportProblem,
  coverageSummary,
  faultOnlyUnmet,
  mergeCoverage,
  neverMet,
} from "./coverage-report.js";

// docs/interfaces.md, `retail-sim coverage`: the reports of a CoverageReport (Journal and coverage) list per
// kind the items never met first, with their spec sentence and how to provoke them, then the met ones; the
// items only an injected fault produces, unmet, in a section of their own; the overall figure is the mean of
// the four kinds' percents.

describe("coverageSummary: a few lines for the end of a test run", () => {
  it("prints the totals per kind and overall, then the first never-met items and how many more", () => {
    expect(coverageSummary(COVERAGE_FIXTURE, 3)).toBe(
      [
        "Spec coverage of sb1 (37 requests counted):",
        "  Operations     3/4  75.0% ████████░░",
        "  Statuses       1/3  33.3% ███░░░░░░░",
        "  Error codes    2/4  50.0% █████░░░░░",
        "  Rule branches  1/4  25.0% ███░░░░░░░",
        "  Overall       7/15  45.8% █████░░░░░",
        "  (Overall: the mean of the four kinds' percents, each kind weighing the same.)",
        "Never met (8, the first 3):",
        "  operation  listOrders: GET {base_url}/sales with a key holding sales:read",
        '  status     listProducts 429: POST {control_url}/faults {"status": 429}',
        "  status     updateProduct 409: PATCH {base_url}/products/{id} with an old version",
        "  ... and 5 more",
        "Only through injected faults (1 not met, left out of the totals): listProducts 500",
        "Unexpected answers: GET 404 ×2, DELETE 405 ×1",
        "",
      ].join("\n"),
    );
  });

  it("has no never-met part when every item was met, and no unexpected line when there were none", () => {
    const text = coverageSummary(fullyCovered());
    expect(text.split("\n")).toHaveLength(8);
    expect(text).toContain("  Overall       16/16 100.0% ██████████\n");
    expect(text).not.toContain("Never met");
    expect(text).not.toContain("Only through injected faults");
    expect(text).not.toContain("Unexpected");
  });

  it("never lists an item only a fault produces as never met; lists it apart until a fault meets it", () => {
    expect(neverMet(COVERAGE_FIXTURE).map((i) => i.id)).not.toContain("listProducts 500");
    expect(faultOnlyUnmet(COVERAGE_FIXTURE).map((i) => [i.kind, i.id, i.reach])).toEqual([
      ["status", "listProducts 500", "fault"],
    ]);
    expect(faultOnlyUnmet(fullyCovered())).toEqual([]);
  });

  it("bars round to the nearest tenth and stay within their width", () => {
    expect([0, 4.9, 5, 42.9, 95, 100, 140].map((p) => bar({ covered: 0, total: 1, percent: p }))).toEqual([
      "░░░░░░░░░░",
      "░░░░░░░░░░",
      "█░░░░░░░░░",
      "████░░░░░░",
      "██████████",
      "██████████",
      "██████████",
    ]);
  });
});

describe("coverageMarkdown", () => {
  const md = coverageMarkdown(COVERAGE_FIXTURE);

  it("heads with the overall figure, the sandbox, the requests and a totals table with percents and bars", () => {
    expect(md.split("\n").slice(0, 12)).toEqual([
      "# Spec coverage: 45.8%",
      "",
      "Sandbox `sb1`, 37 requests counted. Overall: the mean of the four kinds' percents, each kind weighing the same; its covered and total are the kinds' sums.",
      "",
      "| kind | covered | total | percent | |",
      "|---|---:|---:|---:|---|",
      "| Operations | 3 | 4 | 75.0% | ████████░░ |",
      "| Statuses | 1 | 3 | 33.3% | ███░░░░░░░ |",
      "| Error codes | 2 | 4 | 50.0% | █████░░░░░ |",
      "| Rule branches | 1 | 4 | 25.0% | ███░░░░░░░ |",
      "| **Overall** | 7 | 15 | 45.8% | █████░░░░░ |",
      "",
    ]);
  });

  it("lists per kind the never-met items first, by id, with spec and provoke, then the met ones with counts", () => {
    const headings = md.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual([
      "# Spec coverage: 45.8%",
      "## Operations: 3 of 4 (75.0%)",
      "### Never met (1)",
      "### Met (3)",
      "## Statuses: 1 of 3 (33.3%)",
      "### Never met (2)",
      "### Met (1)",
      "## Error codes: 2 of 4 (50.0%)",
      "### Never met (2)",
      "### Met (2)",
      "## Rule branches: 1 of 4 (25.0%)",
      "### Never met (3)",
      "### Met (1)",
      "## Only through injected faults (1)",
      "## Unexpected answers",
    ]);
    const never = md.split("\n").filter((l) => l.startsWith("| `") && l.split(" | ").length === 4);
    expect(never.map((l) => l.split(" | ")[0])).toEqual([
      "| `listOrders`",
      "| `listProducts 429`",
      "| `updateProduct 409`",
      "| `RATE_LIMITED`",
      "| `STALE_VERSION`",
      "| `catalog.stale-version`",
      "| `markup.<script>`",
      "| `pagination.cursor-expired`",
    ]);
    expect(md).toContain("| `listOrders` | GET /sales | - | GET {base\\_url}/sales with a key holding sales:read |");
    expect(md).toContain(
      '| `RATE_LIMITED` | 429 RATE\\_LIMITED | Errors: "a rate limit exceeded, or too many image imports running" | send more requests than the key\'s rate limit |',
    );
    expect(md).toContain(
      "### Met (3)\n\n| id | title | count |\n|---|---|---:|\n| `createBrand` | POST /brands | 4 |\n| `listProducts` | GET /products | 21 |\n| `updateProduct` | PATCH /products/{id} | 9 |\n",
    );
    expect(md).toContain("| `INTERNAL` | 500 INTERNAL | 1 |");
    expect(md).toContain(
      [
        "## Only through injected faults (1)",
        "",
        "Not met, and left out of the totals until met: only an injected fault produces them (the simulator never fails of itself).",
        "",
        "| kind | id | title | how to provoke it |",
        "|---|---|---|---|",
        '| status | `listProducts 500` | 500 Internal Server Error | POST {control\\_url}/faults {"method": "GET", "path": "/{prefix}/v1/products", "status": 500} |',
        "",
      ].join("\n"),
    );
    expect(md.endsWith("| answer | count |\n|---|---:|\n| `GET 404` | 2 |\n| `DELETE 405` | 1 |\n")).toBe(true);
  });

  it("shows markup in a quote as text: no raw <script>, & or pipe breaks the table", () => {
    expect(md).toContain(
      `| \`markup.<script>\` | a quote that holds markup | Errors &gt; &lt;Envelope&gt; &amp; "friends": "&lt;script&gt;alert('x')&lt;/script&gt; &amp; "quoted"" | send &lt;b&gt;&amp;&lt;/b&gt; "quoted" 'text' |`,
    );
    expect(md.replace(/`markup\.<script>`/g, "")).not.toContain("<script>");
    const piped = coverageMarkdown({
      ...COVERAGE_FIXTURE,
      items: [{ kind: "branch", id: "a|b", count: 0, title: "x | y\nz", provoke: "p" }],
    });
    expect(piped).toContain("| `a\\|b` | x \\| y z | - | p |");
  });
});

describe("coverageHtml: a self-contained page", () => {
  const html = coverageHtml(COVERAGE_FIXTURE);

  it("loads nothing from elsewhere and runs no script", () => {
    expect(html.startsWith("<!doctype html>\n")).toBe(true);
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });

  it("escapes every text of the report: a <script> in an id, a quote or a section stays text", () => {
    expect(html).toContain(
      '<tr data-id="markup.&lt;script&gt;"><td><code class="id">markup.&lt;script&gt;</code></td>',
    );
    expect(html).toContain(
      "<blockquote>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot; <cite>Errors &gt; &lt;Envelope&gt; &amp; &quot;friends&quot;</cite></blockquote>",
    );
    expect(html).toContain('<td class="provoke">send &lt;b&gt;&amp;&lt;/b&gt; &quot;quoted&quot; &#39;text&#39;</td>');
  });

  it("shows the totals per kind and overall, and per kind the never-met table before the met one", () => {
    expect(html).toContain(
      '<div class="total all" data-kind="all"><span class="label">Overall</span><b><span class="covered">7</span>/<span class="of">15</span></b><span class="pct">45.8%</span><span class="bar" role="img" aria-label="45.8% covered"><span style="width:45.8%"></span></span></div>',
    );
    expect(html).toContain(
      "· overall 45.8%: the mean of the four kinds&#39; percents, each kind weighing the same</p>",
    );
    const statuses = html.slice(html.indexOf('id="kind-status"'));
    expect(statuses.slice(0, statuses.indexOf("</section>"))).not.toContain("listProducts 500");
    expect(html).toContain(
      '<section class="fault-only"><h2>Only through injected faults <span class="count">1</span></h2>',
    );
    expect(html).toContain(
      '<tr data-id="listProducts 500"><td>status</td><td><code class="id">listProducts 500</code></td><td>500 Internal Server Error</td>',
    );
    const branches = html.slice(html.indexOf('<section class="kind part" id="kind-branch">'));
    const ids = [...branches.slice(0, branches.indexOf("</section>")).matchAll(/data-id="([^"]*)"/g)].map((m) => m[1]);
    expect(ids).toEqual([
      "catalog.stale-version",
      "markup.&lt;script&gt;",
      "pagination.cursor-expired",
      "pagination.cursor-invalid",
    ]);
    expect(branches.indexOf('<table class="never">')).toBeLessThan(branches.indexOf('<table class="met">'));
    expect(html).toContain('<h2>Rule branches <span class="count">1 of 4 · 25.0%</span></h2>');
    expect(html).toContain('<tr><td><code>GET 404</code></td><td class="n">2</td></tr>');
  });
});

describe("coverageReportProblem: is an answer a CoverageReport?", () => {
  it("accepts the fixture and names the first thing wrong otherwise", () => {
    expect(coverageReportProblem(COVERAGE_FIXTURE)).toBeUndefined();
    expect(coverageReportProblem([])).toBe("the answer is not a JSON object");
    expect(coverageReportProblem({ ...COVERAGE_FIXTURE, requests: -1 })).toBe("`requests` is not a count");
    const { branches: _, ...totals } = COVERAGE_FIXTURE.totals;
    expect(coverageReportProblem({ ...COVERAGE_FIXTURE, totals })).toBe("`totals.branches` is not an object");
    expect(
      coverageReportProblem({ ...COVERAGE_FIXTURE, items: [{ ...COVERAGE_FIXTURE.items[0], kind: "header" }] }),
    ).toBe("`items[0]` is not a coverage item");
    expect(
      coverageReportProblem({ ...COVERAGE_FIXTURE, items: [{ ...COVERAGE_FIXTURE.items[0], reach: "sometimes" }] }),
    ).toBe("`items[0]` is not a coverage item");
    expect(coverageReportProblem({ ...COVERAGE_FIXTURE, unexpected: { "GET 404": "2" } })).toBe(
      "`unexpected` is not an object of counts",
    );
  });
});

describe("mergeCoverage: several sandboxes' coverage as one report", () => {
  it("adds the counts up, counts an item met in any sandbox as met, and counts the totals again", () => {
    const other = { ...fullyCovered(2), sandbox: "sb2", requests: 5, unexpected: { "GET 404": 1 } };
    const merged = mergeCoverage([COVERAGE_FIXTURE, other]);
    expect([merged.sandbox, merged.requests, merged.unexpected]).toEqual([
      "sb1, sb2",
      42,
      { "GET 404": 3, "DELETE 405": 1 },
    ]);
    expect(merged.totals.all).toEqual({ covered: 16, total: 16, percent: 100 });
    expect(merged.items.find((i) => i.id === "listProducts")?.count).toBe(42);
    expect(merged.items.find((i) => i.id === "listOrders")?.count).toBe(2);
    expect(merged.items.find((i) => i.id === "listProducts 500")).toMatchObject({ count: 2, reach: "fault" });
    expect(coverageReportProblem(merged)).toBeUndefined();
    const alone = mergeCoverage([COVERAGE_FIXTURE]);
    expect(alone.totals).toEqual(COVERAGE_FIXTURE.totals);
    expect(alone.items.map((i) => i.id).slice(0, 4)).toEqual([
      "RATE_LIMITED",
      "STALE_VERSION",
      "catalog.stale-version",
      "listOrders",
    ]);
  });

  it("keeps an unmet fault-only item out of the totals and counts it once a fault in any sandbox met it", () => {
    const faulted: CoverageReport = {
      ...COVERAGE_FIXTURE,
      sandbox: "sb2",
      items: COVERAGE_FIXTURE.items.map((i) => ({ ...i, count: i.id === "listProducts 500" ? 1 : 0 })),
    };
    const merged = mergeCoverage([COVERAGE_FIXTURE, faulted]);
    expect(merged.totals.statuses).toEqual({ covered: 2, total: 4, percent: 50 });
    expect(merged.totals.all).toEqual({ covered: 8, total: 16, percent: 50 });
    expect(faultOnlyUnmet(merged)).toEqual([]);
    expect(mergeCoverage([COVERAGE_FIXTURE, COVERAGE_FIXTURE]).totals).toEqual(COVERAGE_FIXTURE.totals);
  });
});
