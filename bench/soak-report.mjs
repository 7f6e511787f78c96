// The soak's figures and reports: the least-squares slope of memory against requests over the second half
// of each run, the verdict against the stated thresholds, reports/soak/soak.md and the plot soak.svg.
import { renderPlot } from "./plot.mjs";

/** A run is flat when, over its second half, memory grows by at most this many MB per 100,000 requests. */
export const FLAT = { rss_mb: 2, heap_mb: 1 };

const COLORS = { moving: "#1f77b4", frozen: "#d62728" };
const round = (x, digits = 1) => (x === null || x === undefined ? null : Number(x.toFixed(digits)));

/** Least-squares slope of `y` against `x` over the points; null with fewer than three. */
export function slope(points) {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

/** Requests a second between each sample and the one before. */
const intervalRates = (samples) =>
  samples
    .slice(1)
    .map((s, i) => (s.requests - samples[i].requests) / Math.max(0.001, s.elapsed_s - samples[i].elapsed_s));

/**
 * A collapse of the request rate: the last three intervals between samples each under a fifth of the
 * median of the ten or more before them (a busy machine varies the rate by half, not by five), as when
 * every request starts scanning a large store. `{rate, before}` in requests a second, or null.
 */
export function slowdown(samples) {
  const rates = intervalRates(samples);
  if (rates.length < 13) return null;
  const earlier = [...rates.slice(0, -3)].sort((a, b) => a - b);
  const before = earlier[Math.floor(earlier.length / 2)];
  const last = rates.slice(-3);
  return last.every((r) => r < before / 5) ? { rate: Math.round(Math.max(...last)), before: Math.round(before) } : null;
}

/** The figures of one clock mode's run, from its samples. */
export function summarize(run) {
  const samples = run.samples;
  const at = (fraction) => samples.find((s) => s.requests >= run.requests * fraction) ?? samples.at(-1);
  // The second half of what was sent: of the whole run, or of what a stopped run got through.
  const second = samples.filter((s) => s.requests >= run.sent / 2);
  const per100k = (key) => {
    const m = slope(second.filter((s) => typeof s[key] === "number").map((s) => [s.requests / 100_000, s[key]]));
    return m === null ? null : round(m, 2);
  };
  const rssSlope = per100k("rss_mb");
  const heapSlope = per100k("heap_mb");
  const completed = run.stopped === null;
  let verdict;
  if (!completed) verdict = "stopped, not flat";
  else if (rssSlope === null || heapSlope === null) verdict = "too few samples";
  else verdict = rssSlope <= FLAT.rss_mb && heapSlope <= FLAT.heap_mb ? "flat" : "growing";
  const first = samples[0];
  const warm = at(0.1);
  const last = samples.at(-1);
  return {
    completed,
    stopped: run.stopped,
    requests_sent: run.sent,
    seconds: round(run.seconds, 0),
    requests_per_second: round(run.sent / run.seconds, 0),
    rss_mb: {
      start: first?.rss_mb,
      after_warm_up: warm?.rss_mb,
      end: last?.rss_mb,
      peak: Math.max(...samples.map((s) => s.rss_mb)),
    },
    heap_mb: { start: first?.heap_mb, after_warm_up: warm?.heap_mb, end: last?.heap_mb },
    warm_up_requests: warm?.requests,
    slope_mb_per_100k: { rss: rssSlope, heap_after_gc: heapSlope },
    verdict,
  };
}

const n = (x) => (x === null || x === undefined ? "–" : x.toLocaleString("en-US"));

export function renderMarkdown(report) {
  const p = report.params;
  const m = report.machine;
  const lines = [
    "# Soak",
    "",
    `${report.date}, simulator at commit ${report.commit}, ${m.cpus} × ${m.cpu_model}, ${m.memory_gb} GB, Node ${m.node}, load average ${m.load_average_start?.[0]} at the start and ${m.load_average_end?.[0]} at the end.`,
    `${n(p.requests)} requests per clock mode, ${p.concurrency} at a time; the demo fixture, rate limits on; OAuth \`state\` of ${n(p.oauth_state_bytes)} bytes; bodies of unknown keys of ${n(p.big_body_bytes)} bytes.`,
    "Rows are created in the first half only; the slope is fitted over the second half. A run is **flat** when there",
    `resident memory grows by at most ${FLAT.rss_mb} MB and the heap after a full collection by at most ${FLAT.heap_mb} MB per 100,000 requests.`,
  ];
  if (p.skipped_operations?.length) lines.push(`Operations left out (SOAK_SKIP): ${p.skipped_operations.join(", ")}.`);
  lines.push(
    "",
    "| clock | requests | duration | req/s | resident MB: start / after warm-up / end (peak) | heap after GC MB: start / after warm-up / end | slope MB per 100k, resident / heap | verdict |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const [mode, s] of Object.entries(report.summary)) {
    const r = s.rss_mb;
    const h = s.heap_mb;
    lines.push(
      `| ${mode} | ${n(s.requests_sent)} | ${n(s.seconds)} s | ${n(s.requests_per_second)} | ${r.start} / ${r.after_warm_up} / ${r.end} (${r.peak}) | ${h.start} / ${h.after_warm_up} / ${h.end ?? "–"} | ${s.slope_mb_per_100k.rss ?? "–"} / ${s.slope_mb_per_100k.heap_after_gc ?? "–"} | **${s.verdict}**${s.stopped ? ` (stopped: ${s.stopped})` : ""} |`,
    );
  }
  lines.push("");
  for (const [mode, r] of Object.entries(report.runs)) {
    const moved = r.clock_advanced_s
      ? `, moved on by ${n(Math.round(r.clock_advanced_s / 3600))} h through /_sim/clock in steps of ${n(r.clock_step_seconds)} s`
      : "";
    lines.push(
      `- ${mode}: clock ${r.clock}${moved}; server CPU ${r.server_cpu_s ?? "–"} s, the soak's own CPU ${r.client_cpu_s} s; ${n(r.keys_used)} API keys used (${n(r.keys_made_late)} made during the run), ${n(r.loopback_addresses_used)} loopback addresses.`,
    );
  }
  lines.push(
    "",
    "Answers by operation (status: count):",
    "",
    "| operation | frozen clock | moving clock |",
    "|---|---|---|",
  );
  const ops = [...new Set(Object.values(report.runs).flatMap((r) => Object.keys(r.tally)))].sort();
  const show = (t) =>
    t
      ? Object.entries(t)
          .map(([status, count]) => `${status}: ${n(count)}`)
          .join(", ")
      : "";
  for (const op of ops)
    lines.push(`| ${op} | ${show(report.runs.frozen?.tally[op])} | ${show(report.runs.moving?.tally[op])} |`);
  lines.push("", "The plot: `soak.svg`; the samples: `soak.json`.", "");
  return lines.join("\n");
}

export function renderSoakPlot(report) {
  const series = [];
  for (const [mode, run] of Object.entries(report.runs)) {
    const stopped = run.stopped === null ? "" : `, stopped at ${Math.round(run.sent / 1000)}k`;
    const name = `${mode === "moving" ? "moving" : "frozen"} clock${stopped}`;
    const pts = (key) => run.samples.filter((s) => typeof s[key] === "number").map((s) => [s.requests / 1000, s[key]]);
    series.push({ label: `${name}: resident`, color: COLORS[mode], points: pts("rss_mb") });
    series.push({ label: `${name}: heap after GC`, color: COLORS[mode], points: pts("heap_mb"), dashed: true });
  }
  return renderPlot({
    title: `retail-sim soak: memory against requests (demo fixture, rate limits on, ${report.commit})`,
    xLabel: "requests (thousands)",
    yLabel: "memory (MB)",
    series,
    markers: [{ x: report.params.requests / 2000, label: "rows stop growing" }],
    xMax: report.params.requests / 1000,
  });
}
