// npm run soak: drives the simulator (the built bin, a child process, the demo fixture, rate limits on)
// with a mixed stream of SOAK_REQUESTS requests (default 500,000) once on a moving clock (the system
// clock, also moved through /_sim/clock in steps so that 7 simulated days pass) and once on a frozen
// manual clock, sampling its resident memory (/proc) and its heap after a full collection (over IPC).
// Writes reports/soak/soak.json, soak.md and soak.svg. See docs/performance.md, Running the benchmarks.
// `node bench/soak.mjs --self-check` checks the plot and the slope instead;
// `node bench/soak.mjs --render [soak.json]` draws soak.md and soak.svg again from the samples.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderMarkdown, renderSoakPlot, slowdown, summarize } from "./soak-report.mjs";
import { cpuSeconds, heapAfterGc, residentBytes, startSimulator, stopSimulator } from "./soak-server.mjs";
import { KEY_BUDGET, MIX, Traffic } from "./soak-traffic.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const env = process.env;
// Half a million a clock mode, a million in all: the simulator's CPU allows about 1,700 requests a second
// on 2 idle cores, some 11 minutes for both runs, and a busy shared machine took 17 to 28 minutes (an
// estimate from the CPU time per request, 0.4-0.6 ms); a million a mode would take twice that.
const TOTAL = Number(env.SOAK_REQUESTS ?? 500_000);
const MODES = (env.SOAK_MODES ?? "moving,frozen").split(",").filter(Boolean);
const CONCURRENCY = Number(env.SOAK_CONCURRENCY ?? 16);
const CEILING_MB = Number(env.SOAK_RSS_CEILING_MB ?? 2048);
const STATE_BYTES = Number(env.SOAK_STATE_BYTES ?? 16 * 1024);
const BIG_BODY_BYTES = 100 * 1024;
const SKIP = (env.SOAK_SKIP ?? "").split(",").filter(Boolean);
for (const op of SKIP) if (!(op in MIX)) throw new Error(`SOAK_SKIP: no operation "${op}" (${Object.keys(MIX)})`);
const SAMPLE_EVERY = Math.max(200, Math.round(TOTAL / 100));
const CLOCK_EVERY = 2000;
const SIMULATED_DAYS = 7;
const STALL_MS = 60_000;
const MAX_MINUTES = Number(env.SOAK_MAX_MINUTES ?? 30);
const MB = 2 ** 20;
const mb = (bytes) => (bytes === null || bytes === undefined ? null : Number((bytes / MB).toFixed(1)));

async function runMode(mode) {
  const nodeArgs = (env.SOAK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const sim = await startSimulator(mode === "moving" ? "system" : "manual", nodeArgs);
  const pid = sim.child.pid;
  const clockStepSeconds = Math.max(1, Math.round((SIMULATED_DAYS * 86_400 * CLOCK_EVERY) / TOTAL));
  const traffic = new Traffic({
    ready: sim.ready,
    mode,
    total: TOTAL,
    concurrency: CONCURRENCY,
    stateBytes: STATE_BYTES,
    bigBodyBytes: BIG_BODY_BYTES,
    clockEvery: CLOCK_EVERY,
    clockStepSeconds,
    skip: SKIP,
  });
  const setupStart = performance.now();
  // About 55% of the requests are authenticated with an API key; a margin so that none is made during the run.
  const keyCount = Math.ceil((TOTAL * 0.7) / KEY_BUDGET) + 20;
  await traffic.setup(keyCount);
  const setupSeconds = (performance.now() - setupStart) / 1000;

  const samples = [];
  let stopped = null;
  let finishing = false;
  const t0 = performance.now();
  const clientCpu0 = process.cpuUsage();
  const elapsed = () => Number(((performance.now() - t0) / 1000).toFixed(1));
  const halt = (reason) => {
    if (stopped !== null || finishing) return;
    stopped = reason;
    traffic.stop();
    console.error(`soak ${mode}: stopped at ${traffic.sent} requests: ${reason}`);
    sim.child.kill("SIGKILL");
  };
  sim.exited.then(({ code, signal }) => halt(`the simulator exited (${code ?? signal})`));

  const sample = async () => {
    const requests = traffic.sent;
    const rss = residentBytes(pid);
    const entry = { requests, elapsed_s: elapsed(), rss_mb: mb(rss), heap_mb: null, rss_after_gc_mb: null };
    entry.cpu_s = cpuSeconds(pid);
    entry.clock_advanced_s = traffic.clockAdvanced;
    try {
      const heap = await heapAfterGc(sim.child);
      Object.assign(entry, {
        heap_mb: mb(heap.heapUsed),
        rss_after_gc_mb: mb(heap.rss),
        external_mb: mb(heap.external),
        gc_ms: Math.round(heap.gcMs),
      });
    } catch {
      // The process went away or did not answer: the resident size stands alone.
    }
    samples.push(entry);
    return entry;
  };
  await sample();

  let next = SAMPLE_EVERY;
  let sampling = false;
  let lastSent = 0;
  let lastProgressAt = performance.now();
  let reportAt = TOTAL / 10;
  traffic.onRequest = (sent) => {
    if (sent < next || sampling || stopped !== null) return;
    while (next <= sent) next += SAMPLE_EVERY;
    sampling = true;
    sample()
      .then((s) => {
        const slow = slowdown(samples);
        if (slow)
          halt(`the simulator slowed to ${slow.rate} requests a second, from ${slow.before} earlier in the run`);
        if (s.requests < reportAt) return;
        reportAt += TOTAL / 10;
        const rate = Math.round(s.requests / s.elapsed_s);
        console.error(
          `soak ${mode}: ${s.requests} requests, ${rate} req/s, resident ${s.rss_mb} MB, heap ${s.heap_mb} MB`,
        );
      })
      .finally(() => {
        sampling = false;
      });
  };
  const watchdog = setInterval(() => {
    const rss = residentBytes(pid);
    if (rss !== null && rss > CEILING_MB * MB) {
      samples.push({
        requests: traffic.sent,
        elapsed_s: elapsed(),
        rss_mb: mb(rss),
        heap_mb: null,
        rss_after_gc_mb: null,
      });
      halt(`resident memory over the ${CEILING_MB} MB ceiling`);
    }
    if (traffic.sent !== lastSent) [lastSent, lastProgressAt] = [traffic.sent, performance.now()];
    else if (performance.now() - lastProgressAt > STALL_MS) halt(`no request sent for ${STALL_MS / 1000} s`);
    if (elapsed() > MAX_MINUTES * 60) halt(`the run took over ${MAX_MINUTES} minutes`);
  }, 500);

  await traffic.run();
  const seconds = (performance.now() - t0) / 1000;
  const clientCpu = process.cpuUsage(clientCpu0);
  clearInterval(watchdog);
  while (sampling) await new Promise((r) => setTimeout(r, 20));
  if (stopped === null) await sample();
  finishing = true;
  const serverCpu = stopped === null ? cpuSeconds(pid) : null;
  await traffic.close();
  const exit = await stopSimulator(sim);
  return {
    clock: mode === "moving" ? "system" : "manual, never moved",
    sent: traffic.sent,
    requests: TOTAL,
    seconds,
    setup_seconds: Number(setupSeconds.toFixed(1)),
    server_cpu_s: serverCpu,
    client_cpu_s: Number(((clientCpu.user + clientCpu.system) / 1e6).toFixed(1)),
    stopped,
    exit,
    clock_step_seconds: mode === "moving" ? clockStepSeconds : 0,
    clock_advanced_s: traffic.clockAdvanced,
    keys_made_up_front: keyCount,
    keys_made_late: traffic.keysLate,
    keys_used: traffic.keyAt + 1,
    loopback_addresses_used: traffic.addresses,
    operations: traffic.ops,
    tally: traffic.tally,
    samples,
  };
}

/** The last commit that changed the simulator's source (what the soak measures), "+changes" when src/ is edited. */
function commit() {
  const git = (...args) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  try {
    const hash = git("log", "-1", "--format=%h", "--", "src");
    return git("status", "--porcelain", "--", "src") ? `${hash}+changes` : hash;
  } catch {
    return "unknown";
  }
}

function writeReports(out, report) {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "soak.json"), `${JSON.stringify(report, null, 2)}\n`);
  const md = renderMarkdown(report);
  writeFileSync(join(out, "soak.md"), md);
  writeFileSync(join(out, "soak.svg"), renderSoakPlot(report));
  process.stdout.write(md);
}

async function main() {
  if (process.argv.includes("--self-check")) {
    const { selfCheck } = await import("./soak-check.mjs");
    await selfCheck();
    return;
  }
  const out = join(ROOT, "reports/soak");
  const renderArg = process.argv.indexOf("--render");
  if (renderArg !== -1) {
    // Draws soak.md and soak.svg again from a soak.json (its summary worked out again).
    const report = JSON.parse(readFileSync(process.argv[renderArg + 1] ?? join(out, "soak.json"), "utf8"));
    for (const [mode, run] of Object.entries(report.runs)) report.summary[mode] = summarize(run);
    writeReports(out, report);
    return;
  }
  if (!existsSync(join(ROOT, "dist/bin/retail-sim.js"))) throw new Error("build first: npm run build");
  if (!(TOTAL >= 1000)) throw new Error("SOAK_REQUESTS must be at least 1000");
  const report = {
    date: new Date().toISOString().slice(0, 10),
    commit: commit(),
    machine: {
      cpus: os.cpus().length,
      cpu_model: os.cpus()[0]?.model ?? "unknown",
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      load_average_start: os.loadavg().map((x) => Number(x.toFixed(2))),
    },
    params: {
      requests: TOTAL,
      modes: MODES,
      concurrency: CONCURRENCY,
      sample_every: SAMPLE_EVERY,
      rss_ceiling_mb: CEILING_MB,
      oauth_state_bytes: STATE_BYTES,
      big_body_bytes: BIG_BODY_BYTES,
      clock_every_requests: CLOCK_EVERY,
      simulated_days_moving: SIMULATED_DAYS,
      key_budget: KEY_BUDGET,
      mix_per_thousand_operations: MIX,
      skipped_operations: SKIP,
    },
    runs: {},
    summary: {},
  };
  const started = performance.now();
  for (const mode of MODES) {
    console.error(`soak ${mode}: ${TOTAL} requests...`);
    report.runs[mode] = await runMode(mode);
    report.summary[mode] = summarize(report.runs[mode]);
  }
  report.total_seconds = Math.round((performance.now() - started) / 1000);
  report.machine.load_average_end = os.loadavg().map((x) => Number(x.toFixed(2)));
  writeReports(out, report);
  console.error(`soak: ${report.total_seconds} s in all; reports/soak/soak.{json,md,svg}`);
}

main().catch((error) => {
  console.error(`soak: ${error.stack ?? error.message}`);
  process.exit(1);
});
