// The cost of the request journal and coverage (docs/interfaces.md, Journal and coverage): the same
// reads and a write against two simulators started alike (demo fixture, manual clock, no rate limits),
// one with the journal on (the default) and one with --no-journal, in short alternating rounds (which
// goes first alternates too); the ratio on/off of each round and of the medians, and each server's CPU
// time per request (user + system, from /proc, all its threads: the garbage collector's helpers too),
// which a shared machine disturbs less than throughput. docs/performance.md, The journal's cost.
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

export async function journalCost({ cli, tmp, wrk }) {
  const args = ["--port", "0", "--json", "--clock", "manual", "--no-rate-limits"];
  const on = await start(process.execPath, [cli, ...args]);
  const off = await start(process.execPath, [cli, ...args, "--no-journal"]);
  const stores = [on, off].map((s) => JSON.parse(s.line).stores[0]);
  const token = stores[0].keys[0].token;
  if (stores[1].keys[0].token !== token) throw new Error("journal bench: the two simulators differ");
  const first = await (
    await fetch(`${stores[0].base_url}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const create = join(tmp, "journal-create.lua");
  writeFileSync(
    create,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = '{"name":"Journal bench","retail_price":100}'\n`,
  );
  const scenarios = [
    ["GET /products/{id}", `/products/${first.data[0].id}`, undefined],
    ["GET /products?limit=50", "/products?limit=50", undefined],
    ["POST /products", "/products", create],
  ];
  const out = {};
  const sims = [
    { child: on.child, base: stores[0].base_url },
    { child: off.child, base: stores[1].base_url },
  ];
  for (const [name, path, script] of scenarios) {
    const runs = [[], []];
    for (let i = 0; i < ROUNDS; i++)
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
  on.child.kill();
  off.child.kill();
  return out;
}
