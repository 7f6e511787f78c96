// `node bench/soak.mjs --self-check`: checks the soak's own parts without a simulator (vitest collects
// tests from src/, scenarios/ and conformance/ only): round tick steps, a plot with one polyline of every
// sample per series and its labels, the slope and the verdict on made-up samples, and distinct loopback addresses.
import { strict as assert } from "node:assert";
import { niceStep } from "./plot.mjs";
import { loopbackAddress } from "./soak-http.mjs";
import { FLAT, renderMarkdown, renderSoakPlot, slope, slowdown, summarize } from "./soak-report.mjs";

const checks = [];
const check = (name, fn) => checks.push([name, fn]);

check("round tick steps", () => {
  assert.equal(niceStep(1000, 10), 100);
  assert.equal(niceStep(183, 8), 50);
  assert.equal(niceStep(1.2, 8), 0.2);
});

check("the slope of a line", () => {
  assert.equal(
    slope([
      [0, 1],
      [1, 4],
      [2, 7],
      [3, 10],
    ]),
    3,
  );
  assert.equal(
    slope([
      [0, 1],
      [1, 2],
    ]),
    null,
  );
});

const run = (perSample, stopped = null) => ({
  requests: 100_000,
  sent: stopped ? 60_000 : 100_000,
  seconds: 50,
  stopped,
  tally: { me: { 200: 10 } },
  samples: Array.from({ length: stopped ? 61 : 101 }, (_, i) => ({
    requests: i * 1000,
    rss_mb: 100 + perSample(i),
    heap_mb: 20 + perSample(i),
  })),
});

check("the verdict: flat, growing, stopped", () => {
  assert.equal(summarize(run(() => 0)).verdict, "flat");
  // 3 MB per 100,000 requests is over both thresholds.
  assert.ok(FLAT.rss_mb < 3 && FLAT.heap_mb < 3);
  assert.equal(summarize(run((i) => i * 0.03)).verdict, "growing");
  assert.equal(summarize(run((i) => i * 0.03)).slope_mb_per_100k.rss, 3);
  assert.equal(summarize(run(() => 0, "the simulator exited (1)")).verdict, "stopped, not flat");
  const s = summarize(run((i) => i));
  assert.deepEqual(s.rss_mb, { start: 100, after_warm_up: 110, end: 200, peak: 200 });
});

check("the plot: one polyline a series, every sample, the labels", () => {
  const report = {
    date: "2026-01-01",
    commit: "abc1234+changes",
    machine: { cpus: 2, cpu_model: "x", memory_gb: 1, node: "v20" },
    params: { requests: 100_000, concurrency: 16 },
    runs: { moving: run(() => 0), frozen: run((i) => i) },
    summary: { moving: summarize(run(() => 0)), frozen: summarize(run((i) => i)) },
  };
  const svg = renderSoakPlot(report);
  assert.match(svg, /^<svg [^>]*width="1100" height="700"/);
  const lines = [...svg.matchAll(/<polyline points="([^"]*)" fill="none" stroke="([^"]*)"/g)];
  assert.deepEqual(
    lines.map((m) => m[2]),
    ["#1f77b4", "#1f77b4", "#d62728", "#d62728"],
  );
  for (const [, points] of lines) {
    assert.equal(points.split(" ").length, 101);
    for (const p of points.split(" ")) assert.match(p, /^-?[\d.]+,-?[\d.]+$/);
  }
  assert.equal((svg.match(/stroke-dasharray="10 7"/g) ?? []).length, 4, "heap lines and their legend dashed");
  for (const label of [
    "retail-sim soak: memory against requests (demo fixture, rate limits on, abc1234+changes)",
    "requests (thousands)",
    "memory (MB)",
    "rows stop growing",
    "moving clock: resident",
    "frozen clock: heap after GC",
    ">100<",
    ">0<",
  ])
    assert.ok(svg.includes(label), `the plot names "${label}"`);
  assert.match(renderMarkdown(report), /\| frozen \| 100,000 \|.*\*\*growing\*\*/);
});

check("a collapse of the request rate, and not the noise of a busy machine", () => {
  const at = (seconds) => seconds.map((elapsed_s, i) => ({ requests: i * 1000, elapsed_s }));
  let t = 0;
  const steady = at(Array.from({ length: 20 }, (_, i) => (t += i % 2 ? 1 : 2)));
  assert.equal(slowdown(steady), null);
  const slowed = [...steady, ...[20, 40, 60].map((d, i) => ({ requests: (20 + i) * 1000, elapsed_s: t + d }))];
  assert.deepEqual(slowdown(slowed), { rate: 50, before: 1000 });
  assert.equal(slowdown(slowed.slice(0, -1)), null, "two slow intervals are not enough");
});

check("loopback addresses are distinct", () => {
  const seen = new Set(Array.from({ length: 300_000 }, (_, n) => loopbackAddress(n)));
  assert.equal(seen.size, 300_000);
  assert.equal(loopbackAddress(65_536 * 254 - 1), "127.254.255.255");
  for (const a of seen) if (!/^127\.(\d+)\.\d+\.\d+$/.test(a) || a.startsWith("127.0.")) assert.fail(a);
});

export async function selfCheck() {
  let failed = 0;
  for (const [name, fn] of checks) {
    try {
      await fn();
      console.log(`ok   ${name}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${name}: ${error.message}`);
    }
  }
  if (failed > 0) process.exitCode = 1;
  console.log(`${checks.length - failed} of ${checks.length} checks passed`);
}
