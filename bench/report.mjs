// bench.md from the figures of `npm run bench` (bench/run.mjs): the parts of the groups that ran, then the
// performance targets (docs/performance.md), each with the figure measured in this run and whether it is met.

export function renderReport(f) {
  const lines = [
    `# Benchmark (${f.machine.cpus} cores, Node ${f.machine.node}${f.only ? `, only ${f.only.join(", ")}` : ""})`,
    "",
  ];
  if (Object.keys(f.scenarios).length > 0)
    lines.push(
      `Fixture ${f.fixture}. wrk -t1 -c32 for ${f.seconds} s, ${f.rounds} alternating rounds, medians. Ratios are to the raw node:http baseline measured in the same run.`,
      "",
      "| scenario | simulator req/s | p50 ms | p99 ms | baseline req/s | ratio |",
      "|---|---|---|---|---|---|",
      ...Object.entries(f.scenarios).map(
        ([name, s]) =>
          `| ${name} | ${s.simulator.rps.toFixed(0)} | ${s.simulator.p50} | ${s.simulator.p99} | ${s.baseline ? s.baseline.rps.toFixed(0) : "—"} | ${s.ratio ?? "—"}${s.baseline_kind === "simulator" ? " (sim)" : ""} |`,
      ),
      "",
      "Ratios marked (sim) compare the simulator with itself in the same run (the baseline column is then the simulator's unfiltered or from-the-start page).",
      "",
    );
  if (f.sandboxes) lines.push(...sandboxLines(f.sandboxes));
  lines.push(
    "| target | measured | met |",
    "|---|---|---|",
    ...targets(f).map(([name, value, met]) => `| ${name} | ${value} | ${met ? "yes" : "**no**"} |`),
    "",
  );
  if (f.world_build)
    lines.push(
      `World built from the seed (${f.fixture}, in a fresh process, median of 3): ${f.world_build.ms} ms, resident memory then ${f.world_build.rss_mb} MB. Cold start of \`retail-sim\` (demo) to its first answered request: ${f.cold_start_ms} ms (median of 5).`,
    );
  if (f.fixture_start_ms !== undefined)
    lines.push(
      `Start with the ${f.fixture} fixture to the ready line: ${f.fixture_start_ms} ms. Peak resident memory of the simulator: ${f.simulator_peak_rss_mb} MB.`,
    );
  if (f.conformance)
    lines.push(
      `Conformance default run in process: ${f.conformance.ms} ms (${f.conformance.passed} passed, ${f.conformance.failed} failed).`,
    );
  lines.push("");
  return lines.join("\n");
}

function sandboxLines(s) {
  const rows = Object.entries(s.creations).map(([live, c]) => {
    const n = live.slice("live_".length);
    return `| ${n} | ${c.health.median_ms} / ${c.health.p99_ms} | ${c.create.median_ms} / ${c.create.p99_ms} | ${c.on_top_median_ms} | ${c.ratio} | ${c.health.server_cpu_us} | ${c.create.server_cpu_us} | ${c.on_top_server_cpu_us} |`;
  });
  const m = s.memory;
  const live = Object.keys(s.creations)
    .find((k) => k !== "live_1")
    .slice("live_".length);
  return [
    `Sandboxes (demo fixture): ${Object.values(s.creations)[0].requests} creations through POST /_sim/sandboxes over HTTP (one kept-alive connection, one request at a time) alternating in blocks of 10 with GET /_sim/health round trips to the same server; each created sandbox is removed after its block.`,
    "",
    "| live sandboxes | health median / p99 ms | create median / p99 ms | create − health ms | ratio | health server CPU µs | create server CPU µs | create − health CPU µs |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Heap after a full collection: ${m.per_sandbox_kb_1_live} KB per sandbox with 1 live (median of 5), ${m[`per_sandbox_kb_${live}_live`]} KB per sandbox with ${live} live (heap ${m.heap_base_mb} MB without them, ${m[`heap_${live}_live_mb`]} MB with them, resident ${m[`rss_${live}_live_mb`]} MB; the heap without them is measured once they are removed).`,
    "",
  ];
}

/** The performance targets (docs/performance.md), each as measured in this run (of the groups that ran). */
function targets(f) {
  const ratio = (name) => f.scenarios[name]?.ratio;
  const rows = [];
  if (Object.keys(f.scenarios).length > 0) {
    rows.push(
      [
        "GET /products/{id} ≥ 0.70 of the raw baseline",
        ratio("GET /products/{id}"),
        ratio("GET /products/{id}") >= 0.7,
      ],
      [
        "GET /products?limit=50 ≥ 1.0 of the raw baseline",
        ratio("GET /products?limit=50"),
        ratio("GET /products?limit=50") >= 1,
      ],
    );
    const deep = ratio("GET /sales?limit=50 from a deep cursor (vs from the start)");
    rows.push([
      "polling from a deep cursor as fast as from the start (≥ 0.77, i.e. within 1.3x)",
      deep,
      deep >= 1 / 1.3,
    ]);
  }
  if (f.cold_start_ms !== undefined)
    rows.push(["cold start to the first answer < 300 ms", `${f.cold_start_ms} ms`, f.cold_start_ms < 300]);
  if (f.conformance)
    rows.push(["conformance default run in process < 2 minutes", `${f.conformance.ms} ms`, f.conformance.ms < 120_000]);
  if (f.world_build && f.fixture === "large") {
    rows.push(["large fixture built from the seed < 3 s", `${f.world_build.ms} ms`, f.world_build.ms < 3_000]);
    rows.push([
      "resident memory with the large fixture < 1 GB",
      `${f.world_build.rss_mb} MB`,
      f.world_build.rss_mb < 1_024,
    ]);
  }
  if (f.sandboxes) {
    for (const [live, c] of Object.entries(f.sandboxes.creations))
      rows.push([
        `a demo sandbox's creation well under 1 ms on top of the HTTP round trip (< 0.5 ms, median; ${live.slice("live_".length)} live)`,
        `${c.on_top_median_ms} ms`,
        c.on_top_median_ms < 0.5,
      ]);
    const live = Object.keys(f.sandboxes.creations)
      .find((k) => k !== "live_1")
      .slice("live_".length);
    const heap = f.sandboxes.memory[`heap_${live}_live_mb`];
    rows.push([`${live} live demo sandboxes comfortably inside 1 GB (heap < 512 MB)`, `${heap} MB`, heap < 512]);
  }
  return rows;
}
