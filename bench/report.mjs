// bench.md from the figures of `npm run bench` (bench/run.mjs): the machine and its load, the parts of the
// groups that ran with the ratio of every round, then the floor (docs/performance.md, The floor), each with the
// figure measured in this run and whether it holds.

export function renderReport(f) {
  const m = f.machine;
  const lines = [
    `# Benchmark (${m.cpus} × ${m.cpu}, Node ${m.node}${f.only ? `, only ${f.only.join(", ")}` : ""})`,
    "",
    `Load average (1, 5, 15 min) before the run ${m.load_before.join(", ")}, after it ${m.load_after.join(", ")}.`,
    "",
  ];
  if (Object.keys(f.scenarios).length > 0)
    lines.push(
      `Fixture ${f.fixture}. wrk -t1 -c32 for ${f.seconds} s, ${f.rounds} alternating rounds, medians. Ratios are to the raw node:http baseline measured in the same run, which serves the simulator's own documents, stringified per request; "rounds" are the ratios of each round's pair. p99/p50 is the median p99 over the median p50 (each round's in brackets). The reads run first, on the world as the fixture built it; the writes after them.`,
      "",
      "| scenario | simulator req/s | p50 ms | p99 ms | p99/p50 | baseline req/s | ratio | rounds |",
      "|---|---|---|---|---|---|---|---|",
      ...Object.entries(f.scenarios).map(([name, s]) => {
        const sim = s.simulator;
        const tail = `${(sim.p99 / sim.p50).toFixed(1)} (${sim.tail_ratios.join(", ")})`;
        const kind = s.baseline_kind === "simulator" ? " (sim)" : "";
        return `| ${name} | ${sim.rps.toFixed(0)} | ${sim.p50} | ${sim.p99} | ${tail} | ${s.baseline ? s.baseline.rps.toFixed(0) : "—"} | ${s.ratio ?? "—"}${kind} | ${s.paired_ratios?.join(", ") ?? "—"} |`;
      }),
      "",
      "Ratios marked (sim) compare the simulator with itself in the same run (the baseline column is then the simulator's unfiltered or from-the-start page).",
      "",
    );
  if (f.cold_start) {
    const c = f.cold_start;
    lines.push(
      `Cold start, from the spawn to the first answered request, ${c.rounds} alternating rounds after one of each not counted: \`retail-sim --port 0 --json\` (demo) to its GET /me ${c.simulator_ms} ms, a bare \`node -e\` node:http server to its first answer ${c.bare_ms} ms (medians), ratio ${(c.simulator_ms / c.bare_ms).toFixed(3)}.`,
      "",
      "| round | bare ms | simulator ms | ratio |",
      "|---|---|---|---|",
      ...c.paired_ratios.map(
        (r, i) => `| ${i + 1} | ${c.bare_rounds_ms[i]} | ${c.simulator_rounds_ms[i]} | ${r.toFixed(2)} |`,
      ),
      "",
    );
  }
  if (f.journal)
    lines.push(
      "The request journal and coverage, on against off, over HTTP in phases: one server in one process whose requests go to a simulator with the journal on or to one with it off (built alike, demo fixture), switched every few hundred ms under one continuous wrk run (32 connections), so the two share the socket, the HTTP stack, the compiled code, the heap and the machine's drift. Throughput on/off is the median, over the phases with the journal on, of each one's throughput against the mean of the two phases off beside it (10–90% of those ratios), and pooled over each side's phases; CPU per request of each side (the process's, all threads):",
      "",
      "| scenario | on req/s | off req/s | on/off, median of phases (10–90%) | pooled | CPU µs per request, on / off | off/on |",
      "|---|---|---|---|---|---|---|",
      ...Object.entries(f.journal).map(
        ([name, j]) =>
          `| ${name} | ${j.on_rps} | ${j.off_rps} | ${j.ratio} (${j.range.join("–")}), ${j.phases} × ${j.phase_ms} ms | ${j.pooled_ratio} | ${j.cpu_us.on} / ${j.cpu_us.off} | ${j.cpu_ratio} |`,
      ),
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
      `World built from the seed (${f.fixture}, in a fresh process, median of 3): ${f.world_build.ms} ms; with the rows left for idle moments laid out, ${f.world_build.laid_out_ms} ms, resident memory then ${f.world_build.rss_mb} MB.`,
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

/** The floor (docs/performance.md, The floor), each as measured in this run (of the groups that ran). */
function targets(f) {
  const withRounds = (s) => `${s.ratio} (rounds ${s.paired_ratios.join(", ")})`;
  const rows = [];
  const one = f.scenarios["GET /products/{id}"];
  if (one) rows.push(["GET /products/{id} ≥ 0.5 of the raw baseline", withRounds(one), one.ratio >= 0.5]);
  for (const [name, s] of Object.entries(f.scenarios))
    if (s.read && s.baseline_kind === undefined && name.includes("?limit="))
      rows.push([`${name} ≥ 0.7 of the baseline stringifying the same documents`, withRounds(s), s.ratio >= 0.7]);
  for (const [name, s] of Object.entries(f.scenarios))
    if (s.read) {
      const tail = s.simulator.p99 / s.simulator.p50;
      rows.push([
        `${name}: p99 ≤ 5 × p50`,
        `${s.simulator.p99} / ${s.simulator.p50} ms = ${tail.toFixed(1)} (rounds ${s.simulator.tail_ratios.join(", ")})`,
        tail <= 5,
      ]);
    }
  if (f.fixture === "large" && f.fixture_start_ms !== undefined)
    rows.push([
      "the large world ready < 2.5 s: `retail-sim --fixture large` from its spawn to its ready line",
      `${f.fixture_start_ms} ms`,
      f.fixture_start_ms < 2_500,
    ]);
  if (f.fixture === "large" && f.world_build)
    rows.push([
      "the large world ready < 2.5 s: built in process from the seed (fresh process, median of 3)",
      `${f.world_build.ms} ms`,
      f.world_build.ms < 2_500,
    ]);
  if (f.cold_start) {
    const c = f.cold_start;
    // Judged on the medians themselves, not on the ratio rounded for display.
    const ratio = c.simulator_ms / c.bare_ms;
    rows.push([
      "cold start to the first answer ≤ 3 × a bare `node -e` server's, same run",
      `${c.simulator_ms} / ${c.bare_ms} ms = ${ratio.toFixed(3)} (rounds ${c.paired_ratios.map((r) => r.toFixed(2)).join(", ")})`,
      ratio <= 3,
    ]);
  }
  for (const [name, j] of Object.entries(f.journal ?? {}))
    rows.push([
      `${name} with the journal on ≥ 0.90 of off (costs ≤ 10% of a request; throughput in phases over HTTP)`,
      `${j.ratio} (median of ${j.phases} phases against their neighbours, 10–90% ${j.range.join("–")}; pooled ${j.pooled_ratio}; CPU per request, off/on: ${j.cpu_ratio})`,
      j.ratio >= 0.9,
    ]);
  if (f.sandboxes) {
    const live = Object.keys(f.sandboxes.creations)
      .find((k) => k !== "live_1")
      .slice("live_".length);
    const heap = f.sandboxes.memory[`heap_${live}_live_mb`];
    rows.push([`${live} live demo sandboxes: heap < 512 MB`, `${heap} MB`, heap < 512]);
  }
  return rows;
}
