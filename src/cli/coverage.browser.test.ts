import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_SKIP, browserTitle, CHROMIUM, CHROMIUM_ARGS } from "../test-support/browser.js";
import { COVERAGE_FIXTURE } from "../test-support/coverage.js";
import { coverageHtml } from "./coverage-html.js";

// docs/interfaces.md, `retail-sim coverage`: coverage.html as a reader sees it, in headless Chromium
// (Debian's package; nothing downloads a browser): a page that loads nothing else, whose never-met tables
// list their items first and whose totals read as the report's. The screenshot is kept in reports/.

const SHOT = "reports/coverage-report.png";
let browser: Browser;
let dir = "";

beforeAll(async () => {
  if (BROWSER_SKIP) return;
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH.`,
    );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  dir = mkdtempSync(join(tmpdir(), "retail-sim-coverage-html-"));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe.skipIf(BROWSER_SKIP !== undefined)(browserTitle("retail-sim coverage: coverage.html in a browser"), () => {
  it("renders from file:// alone, never-met items first per kind, the totals as the report's; a 1280×800 screenshot", async () => {
    const file = join(dir, "coverage.html");
    writeFileSync(file, coverageHtml(COVERAGE_FIXTURE));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
    expect(requested).toEqual([pathToFileURL(file).href]);
    expect(await page.locator("h1").textContent()).toBe("Spec coverage");
    const totals = await page
      .locator(".totals .total")
      .evaluateAll((els) =>
        els.map((e) => [
          e.querySelector(".label")?.textContent,
          e.querySelector("b")?.textContent,
          e.querySelector(".pct")?.textContent,
        ]),
      );
    expect(totals).toEqual([
      ["Operations", "3/4", "75.0%"],
      ["Statuses", "1/3", "33.3%"],
      ["Error codes", "2/4", "50.0%"],
      ["Rule branches", "1/4", "25.0%"],
      ["Overall", "7/15", "45.8%"],
    ]);
    const barWidth = await page.locator(".total.all .bar span").getAttribute("style");
    expect(barWidth).toBe("width:45.8%");
    // Per kind: the ids of its tables, in order, with the table each sits in.
    const sections = await page
      .locator("section.kind")
      .evaluateAll((els) =>
        els.map((s) => [
          s.id,
          [...s.querySelectorAll("table")].map((t) => [
            t.className,
            [...t.querySelectorAll("tbody tr")].map((r) => r.querySelector("code")?.textContent),
          ]),
        ]),
      );
    expect(sections).toEqual([
      [
        "kind-operation",
        [
          ["never", ["listOrders"]],
          ["met", ["createBrand", "listProducts", "updateProduct"]],
        ],
      ],
      [
        "kind-status",
        [
          ["never", ["listProducts 429", "updateProduct 409"]],
          ["met", ["listProducts 200"]],
        ],
      ],
      [
        "kind-error_code",
        [
          ["never", ["RATE_LIMITED", "STALE_VERSION"]],
          ["met", ["INTERNAL", "VALIDATION_FAILED"]],
        ],
      ],
      [
        "kind-branch",
        [
          ["never", ["catalog.stale-version", "markup.<script>", "pagination.cursor-expired"]],
          ["met", ["pagination.cursor-invalid"]],
        ],
      ],
    ]);
    // The unmet item only a fault produces is in a section of its own, in no kind's tables.
    const faultOnly = await page
      .locator("section.fault-only")
      .evaluate((s) => [
        s.querySelector("h2")?.textContent,
        [...s.querySelectorAll("tbody code")].map((c) => c.textContent),
      ]);
    expect(faultOnly).toEqual(["Only through injected faults 1", ["listProducts 500"]]);
    // The quote holding markup is shown as text: no element was made of it and no script ran.
    const quote = page.locator('tr[data-id="markup.<script>"] blockquote');
    expect(await quote.evaluate((e) => [e.childElementCount, e.firstChild?.textContent])).toEqual([
      1,
      "<script>alert('x')</script> & \"quoted\" ",
    ]);
    expect([await page.locator("script").count(), dialogs]).toEqual([0, []]);
    mkdirSync("reports", { recursive: true });
    await page.screenshot({ path: SHOT });
    const png = readFileSync(SHOT);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect(pngSize(png)).toEqual({ width: 1280, height: 800 });
    expect(statSync(SHOT).size).toBeGreaterThan(20_000);
    await page.close();
  }, 60_000);
});
