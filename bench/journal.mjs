// The cost of the request journal and coverage (docs/interfaces.md, Journal and coverage): the same
// reads and a write against two simulators started alike (demo fixture, manual clock, no rate limits),
// one with the journal on (the default) and one with --no-journal, in short alternating rounds (which
// goes first alternates too), a fresh warmed pair for each pair of rounds; the ratio on/off of each
// round and of the medians, and each server's CPU time per request (user + system, from /proc, all its
// threads: the garbage collector's helpers too), which a shared machine disturbs less than throughput.
// Then over HTTP in one process, the journal on and off in alternating phases of one wrk run (the
// measure judged against the aim: its A/A noise is within about ±2%), and without HTTP through `sim.handle`.
// docs/performance.md, The journal's cost.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createScript } from "./journal-requests.mjs";
import { median, round, start, summary } from "./wrk.mjs";

/** A process's CPU time so far in ms (Linux's /proc; undefined elsewhere). */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Rounds of `JOURNAL_SECONDS` (default 2), `JOURNAL_ROUNDS` pairs (default 7). */
const SECONDS = Number(process.env.JOURNAL_SECONDS ?? 2);
const ROUNDS = Number(process.env.JOURNAL_ROUNDS ?? 7);

/** Seconds of load each fresh server takes before its measured round (its code optimized), default 1. */
const WARM = Number(process.env.JOURNAL_WARM_SECONDS ?? 1);

const ARGS = ["--port", "0", "--json", "--clock", "manual", "--no-rate-limits"];

/** A fresh pair of simulators started alike, journal on and off: each one's base URL, and their one token. */
async function pair(cli) {
  const started = [
    // JOURNAL_AA=1: both servers with the journal off, to see the noise floor of the comparison.
    await start(process.execPath, [cli, ...ARGS, ...(process.env.JOURNAL_AA === "1" ? ["--no-journal"] : [])]),
    await start(process.execPath, [cli, ...ARGS, "--no-journal"]),
  ];
  const stores = started.map((s) => JSON.parse(s.line).stores[0]);
  const token = stores[0].keys[0].token;
  if (stores[1].keys[0].token !== token) throw new Error("journal bench: the two simulators differ");
  return { sims: started.map((s, k) => ({ child: s.child, base: stores[k].base_url })), token };
}

/**
 * Each pair of rounds runs against a fresh pair of servers, each warmed for `WARM` seconds first: a
 * process's own luck (what its compiler made of the hot code, where its heap landed) lasts as long as the
 * process, so servers kept for every round would pair the same two processes' luck seven times over.
 */
export async function journalCost({ cli, tmp, wrk }) {
  const probe = await pair(cli);
  const first = await (
    await fetch(`${probe.sims[0].base}/products?limit=1`, { headers: { authorization: `Bearer ${probe.token}` } })
  ).json();
  for (const sim of probe.sims) sim.child.kill();
  const create = createScript(tmp);
  // The seed and fixture are the same for every pair: the first product's id is every pair's.
  const scenarios = [
    ["GET /products/{id}", `/products/${first.data[0].id}`, undefined],
    ["GET /products?limit=50", "/products?limit=50", undefined],
    ["POST /products", "/products", create],
  ];
  const out = {};
  for (const [name, path, script] of scenarios) {
    const runs = [[], []];
    for (let i = 0; i < ROUNDS; i++) {
      const { sims, token } = await pair(cli);
      for (const sim of sims) if (WARM > 0) wrk(`${sim.base}${path}`, WARM, { token, script });
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const before = cpuMs(sims[k].child.pid);
        const run = wrk(`${sims[k].base}${path}`, SECONDS, { token, script });
        const after = cpuMs(sims[k].child.pid);
        const served = run.rps * SECONDS;
        runs[k].push({
          ...run,
          cpu_us: before === undefined || after === undefined ? undefined : ((after - before) * 1000) / served,
        });
      }
      for (const sim of sims) sim.child.kill();
    }
    const [a, b] = runs;
    const cpu = (xs) =>
      xs.some((x) => x.cpu_us === undefined) ? undefined : round(median(xs.map((x) => x.cpu_us)), 1);
    out[name] = {
      on: { ...summary(a), cpu_us: cpu(a) },
      off: { ...summary(b), cpu_us: cpu(b) },
      ratio: round(median(a.map((x) => x.rps)) / median(b.map((x) => x.rps))),
      paired_ratios: a.map((x, i) => round(x.rps / b[i].rps)),
      median_paired_ratio: round(median(a.map((x, i) => x.rps / b[i].rps))),
      cpu_ratio: cpu(a) === undefined ? undefined : round(cpu(b) / cpu(a)),
    };
    const o = out[name];
    console.error(
      `journal on/off, ${name}: ${o.ratio}x (rounds ${o.paired_ratios.join(", ")}); CPU per request ${o.on.cpu_us} / ${o.off.cpu_us} µs`,
    );
  }
  return out;
}

/** Seconds of phases per scenario (`JOURNAL_PHASE_SECONDS`, default 60: the more phases, the less their median moves) and each phase's length in ms (default 500). */
const PHASE_SECONDS = Number(process.env.JOURNAL_PHASE_SECONDS ?? 60);
const PHASE_MS = Number(process.env.JOURNAL_PHASE_MS ?? 500);

/** The q-quantile of numbers (nearest rank). */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/**
 * The journal's cost over HTTP measured in phases (`bench/journal-one-process.mjs`): one server in one
 * process whose requests go to the simulator with the journal on or to the one with it off, switched
 * every `PHASE_MS` under one continuous wrk run. Throughput on/off: the median over the phases with the
 * journal on of each one's throughput against the mean of the two phases off beside it (the figure
 * judged against the aim; a hiccup of the machine moves one ratio, not the median), with its 10th and
 * 90th percentiles, and pooled over every phase of a side; CPU time per request of each side (the
 * process's, all threads).
 */
export async function journalOneProcess({ root, tmp, wrk }) {
  const { child, line, next, send } = await startWithCommands(process.execPath, [
    join(root, "bench/journal-one-process.mjs"),
    join(root, "dist/src/simulator.js"),
    "--phase-ms",
    String(PHASE_MS),
    ...(process.env.JOURNAL_AA === "1" ? ["--aa"] : []),
  ]);
  const ready = JSON.parse(line);
  const create = createScript(tmp);
  const scenarios = [
    ["GET /products/{id}", `/products/${ready.id}`, undefined],
    ["GET /products?limit=50", "/products?limit=50", undefined],
    ["POST /products", "/products", create],
  ];
  const phasesOf = async (seconds, path, script) => {
    send("begin");
    wrk(`${ready.base}${path}`, seconds, { token: ready.token, script });
    send("end");
    return JSON.parse(await next());
  };
  const out = {};
  try {
    for (const [name, path, script] of scenarios) {
      if (WARM > 0) await phasesOf(Math.max(1, 2 * WARM), path, script);
      // The first pair holds wrk's start (its connections): left out, as is a last phase without its pair.
      const phases = (await phasesOf(PHASE_SECONDS, path, script)).slice(2);
      // Whole pairs (on, off) for the pooled figures.
      const whole = phases.slice(0, phases.length - (phases.length % 2));
      const sum = (side, field) => whole.reduce((total, p) => total + (p[0] === side ? p[field] : 0), 0);
      const onRps = (sum(0, 1) * 1000) / sum(0, 2);
      const offRps = (sum(1, 1) * 1000) / sum(1, 2);
      // Each phase with the journal on against the mean of the phases off on either side of it: a drift
      // of the machine's speed across the three cancels, and so does which side goes first.
      const rate = (p) => p[1] / p[2];
      const ratios = [];
      for (let i = 2; i + 1 < phases.length; i += 2)
        ratios.push((2 * rate(phases[i])) / (rate(phases[i - 1]) + rate(phases[i + 1])));
      const cpuOn = sum(0, 3) / sum(0, 1);
      const cpuOff = sum(1, 3) / sum(1, 1);
      out[name] = {
        on_rps: round(onRps, 0),
        off_rps: round(offRps, 0),
        ratio: round(median(ratios)),
        pooled_ratio: round(onRps / offRps),
        range: [round(quantile(ratios, 0.1), 2), round(quantile(ratios, 0.9), 2)],
        phases: ratios.length,
        phase_ms: PHASE_MS,
        cpu_us: { on: round(cpuOn, 1), off: round(cpuOff, 1) },
        cpu_ratio: round(cpuOff / cpuOn),
      };
      const o = out[name];
      console.error(
        `journal in phases over HTTP, ${name}: ${o.ratio}x (median of ${o.phases} phases of ${PHASE_MS} ms against the two beside each, 10–90% ${o.range.join("–")}; pooled ${o.pooled_ratio}); CPU per request ${o.cpu_us.on} / ${o.cpu_us.off} µs`,
      );
    }
  } finally {
    child.kill();
  }
  return out;
}

/** Starts a process that takes commands on stdin and answers in lines: its first line, then `next()` for each. */
async function startWithCommands(cmd, args) {
  const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
  const lines = [];
  const waiting = [];
  let rest = "";
  child.stdout.on("data", (chunk) => {
    rest += chunk;
    for (let nl = rest.indexOf("\n"); nl !== -1; nl = rest.indexOf("\n")) {
      const line = rest.slice(0, nl);
      rest = rest.slice(nl + 1);
      const wake = waiting.shift();
      if (wake) wake.resolve(line);
      else lines.push(line);
    }
  });
  child.on("exit", (code) => {
    for (const wake of waiting.splice(0)) wake.reject(new Error(`${cmd} exited ${code}`));
  });
  const next = () =>
    lines.length > 0
      ? Promise.resolve(lines.shift())
      : new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  const send = (command) => child.stdin.write(`${command}\n`);
  return { child, line: await next(), next, send };
}

/**
 * The journal's own cost without HTTP (`bench/journal-inproc.mjs`, in a fresh process): CPU time per
 * request through `sim.handle`, journal on against off, alternating batches in one process.
 */
export function journalInProcess(root) {
  const script = join(root, "bench/journal-inproc.mjs");
  const out = execFileSync(process.execPath, [script, join(root, "dist/src/simulator.js")], { encoding: "utf8" });
  const figures = JSON.parse(out);
  for (const [name, f] of Object.entries(figures))
    console.error(
      `journal in process, ${name}: ${f.on_us} / ${f.off_us} µs a request (+${f.extra_us}), off/on ${f.ratio}`,
    );
  return figures;
}

/**
 * What a journal entry holds in memory against what its byte budget counts (`bench/journal-memory.mjs`,
 * in a fresh process): bytes per entry of the JS heap and outside it, and the budget's estimate.
 */
export function journalMemory(root) {
  const script = join(root, "bench/journal-memory.mjs");
  const out = execFileSync(process.execPath, ["--expose-gc", script, join(root, "dist/src/simulator.js")], {
    encoding: "utf8",
  });
  const figures = JSON.parse(out);
  for (const [name, f] of Object.entries(figures))
    console.error(
      `journal memory, ${name}: ${f.heap_bytes} B of heap and ${f.outside_bytes} B outside it an entry; the budget counts ${f.budget_bytes} B`,
    );
  return figures;
}
