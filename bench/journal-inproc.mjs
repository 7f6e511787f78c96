// The journal's own cost, without HTTP: two simulators built alike in one fresh process (demo fixture,
// manual clock, no rate limits), journal on and off, answer the same requests through `sim.handle` in
// alternating batches (which goes first alternating too); each batch's CPU time per request from
// `process.cpuUsage`. The two share the process's compiled code and its heap, so what differs between
// them is what recording does. Prints one JSON object: per scenario, the medians and the ratio off/on of
// each pair. docs/performance.md, The journal's cost.
//
//   node bench/journal-inproc.mjs <dist/src/simulator.js> [pairs]
import { pathToFileURL } from "node:url";
import { ORIGIN, SCENARIOS, target } from "./journal-requests.mjs";

const [simulatorJs, pairsArg] = process.argv.slice(2);
const { createSimulator } = await import(pathToFileURL(simulatorJs).href);
const PAIRS = Number(pairsArg ?? 15);
const sims = {
  on: createSimulator({ clock: "manual", rateLimits: false, journal: true }),
  off: createSimulator({ clock: "manual", rateLimits: false, journal: false }),
};

const targets = { on: await target(sims.on), off: await target(sims.off) };

/** The batch of each scenario that takes about 0.1–0.3 s. */
const BATCH = { "GET /products/{id}": 20_000, "GET /products?limit=50": 4_000, "POST /products": 4_000 };
const scenarios = SCENARIOS.map(([name, make]) => [name, make, BATCH[name]]);

async function batch(k, make, n) {
  const sim = sims[k];
  const t = targets[k];
  const [method, path, query, body] = make(t);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const headers = { host: "127.0.0.1:8080", authorization: `Bearer ${t.token}` };
    if (body) headers["content-type"] = "application/json";
    const res = await sim.handle({ method, path, query, headers, body, remoteAddress: "127.0.0.1", origin: ORIGIN });
    if (res.status >= 300) throw new Error(`journal in process: ${method} ${path} answered ${res.status}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

const out = {};
for (const [name, make, n] of scenarios) {
  // Warm both: the first batches compile what the rest measure.
  for (let i = 0; i < 2; i++) for (const k of ["on", "off"]) await batch(k, make, n);
  const on = [];
  const off = [];
  for (let i = 0; i < PAIRS; i++)
    for (const k of i % 2 === 0 ? ["on", "off"] : ["off", "on"]) (k === "on" ? on : off).push(await batch(k, make, n));
  const ratios = on.map((x, i) => off[i] / x);
  out[name] = {
    on_us: round(median(on), 2),
    off_us: round(median(off), 2),
    extra_us: round(median(on.map((x, i) => x - off[i])), 2),
    ratio: round(median(ratios)),
    range: [round(Math.min(...ratios)), round(Math.max(...ratios))],
  };
}
process.stdout.write(JSON.stringify(out));
