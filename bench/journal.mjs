// The cost of the request journal and coverage (docs/interfaces.md, Journal and coverage): the same
// reads and a write against two simulators started alike (demo fixture, manual clock, no rate limits),
// one with the journal on (the default) and one with --no-journal, in short alternating rounds (which
// goes first alternates too), a fresh warmed pair for each pair of rounds; the ratio on/off of each
// round and of the medians, and each server's CPU time per request (user + system, from /proc, all its
// threads: the garbage collector's helpers too), which a shared machine disturbs less than throughput.
// Then the same over HTTP with both servers in one process, and without HTTP through `sim.handle`.
// docs/performance.md, The journal's cost.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
  const create = join(tmp, "journal-create.lua");
  writeFileSync(
    create,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"Journal bench","retail_price":100}'\n`,
  );
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

/**
 * The journal's cost over HTTP with both servers in one process (`bench/journal-one-process.mjs`): the
 * same scenarios and rounds as `journalCost`, each server warmed first; no CPU figure (one process).
 */
export async function journalOneProcess({ root, tmp, wrk }) {
  const { child, line } = await start(process.execPath, [
    join(root, "bench/journal-one-process.mjs"),
    join(root, "dist/src/simulator.js"),
  ]);
  const ready = JSON.parse(line);
  const create = join(tmp, "journal-create.lua");
  writeFileSync(
    create,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"Journal bench","retail_price":100}'\n`,
  );
  const scenarios = [
    ["GET /products/{id}", `/products/${ready.id}`, undefined],
    ["GET /products?limit=50", "/products?limit=50", undefined],
    ["POST /products", "/products", create],
  ];
  const out = {};
  try {
    for (const [name, path, script] of scenarios) {
      const bases = [ready.on, ready.off];
      for (const base of bases) if (WARM > 0) wrk(`${base}${path}`, WARM, { token: ready.token, script });
      const runs = [[], []];
      for (let i = 0; i < ROUNDS; i++)
        for (const k of i % 2 === 0 ? [0, 1] : [1, 0])
          runs[k].push(wrk(`${bases[k]}${path}`, SECONDS, { token: ready.token, script }).rps);
      const ratios = runs[0].map((x, i) => x / runs[1][i]);
      out[name] = {
        on_rps: round(median(runs[0]), 0),
        off_rps: round(median(runs[1]), 0),
        ratio: round(median(ratios)),
        paired_ratios: ratios.map((x) => round(x)),
      };
      console.error(
        `journal in one process over HTTP, ${name}: ${out[name].ratio}x (rounds ${out[name].paired_ratios.join(", ")})`,
      );
    }
  } finally {
    child.kill();
  }
  return out;
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
