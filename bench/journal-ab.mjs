// Two builds' journals against each other, over HTTP in one process (docs/performance.md, The journal's
// cost): four simulators built alike (demo fixture, manual clock, no rate limits) behind ONE listening
// server, build A with the journal on, A off, build B with the journal on, A off, taking turns every
// `--phase-ms` (default 500) under one wrk run of `--seconds` (default 120) per scenario. Each phase with
// a journal on is compared with the two phases off beside it, so a change of the machine's speed falls
// on both builds alike; medians of those ratios, for throughput and for CPU per request. The four share
// one heap: this compares what the two journals do per request, and only part of what their entries
// cost the collector (`bench/journal-memory.mjs` measures that).
//
//   npm run build; cp -r dist /tmp/before; (change, build)
//   node bench/journal-ab.mjs /tmp/before dist [--seconds 120] [--phase-ms 500] [--only read,page,create]
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createScript } from "./journal-requests.mjs";
import { median, round } from "./wrk.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : args[at + 1];
};
const [distA, distB] = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
if (!distA || !distB) throw new Error("usage: node bench/journal-ab.mjs <dist A> <dist B> [options]");
const SECONDS = Number(option("seconds", 120));
const PHASE_MS = Number(option("phase-ms", 500));
const ONLY = option("only", "read,page,create").split(",");
// The first round of four phases is left out; at least two more give each build a phase to compare.
if (SECONDS * 1000 < 12 * PHASE_MS) throw new Error("journal A/B: --seconds must hold at least 12 phases");

const load = async (dist) =>
  (await import(pathToFileURL(join(resolve(dist), "src/simulator.js")).href)).createSimulator;
const [makeA, makeB] = [await load(distA), await load(distB)];
const options = { clock: "manual", rateLimits: false };
/** The sides in turn: A on, off, B on, off (both off sides are build A's). */
const sims = [
  makeA({ ...options, journal: true }),
  makeA({ ...options, journal: false }),
  makeB({ ...options, journal: true }),
  makeA({ ...options, journal: false }),
];
const handles = sims.map((sim) => sim.handle);
let side = 0;
const answered = [0, 0, 0, 0];
const front = sims[0];
front.handle = (req) => {
  answered[side] += 1;
  return handles[side](req);
};
await front.listen(0, "127.0.0.1");
const store = front.credentials().stores[0];
const token = store.keys[0].token;
for (const sim of sims)
  if (sim.credentials().stores[0].keys[0].token !== token) throw new Error("journal A/B: the simulators differ");
const first = await (
  await fetch(`${store.base_url}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
).json();
const create = createScript(mkdtempSync(join(tmpdir(), "journal-ab-")));
const scenarios = {
  read: ["GET /products/{id}", `/products/${first.data[0].id}`, undefined],
  page: ["GET /products?limit=50", "/products?limit=50", undefined],
  create: ["POST /products", "/products", create],
};

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const wrk = (path, script, seconds) =>
  new Promise((done, fail) => {
    const child = spawn(
      "wrk",
      [
        "-t1",
        "-c32",
        `-d${seconds}s`,
        "-H",
        `Authorization: Bearer ${token}`,
        ...(script ? ["-s", script] : []),
        `${store.base_url}${path}`,
      ],
      { stdio: "ignore" },
    );
    child.on("error", fail);
    child.on("exit", done);
  });

const out = {};
for (const key of ONLY) {
  const [name, path, script] = scenarios[key];
  side = 0;
  await wrk(path, script, 3);
  const phases = [];
  let startedAt = performance.now();
  let cpuAt = cpuNow();
  answered.fill(0);
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = cpuNow();
    phases.push([side, answered[side], now - startedAt, cpu - cpuAt]);
    answered[side] = 0;
    side = (side + 1) % 4;
    startedAt = now;
    cpuAt = cpu;
  }, PHASE_MS);
  await wrk(path, script, SECONDS);
  clearInterval(timer);
  // The first round holds wrk's start (its connections): left out.
  const kept = phases.slice(4);
  const rate = (p) => p[1] / p[2];
  const ratios = { A: [], B: [] };
  const cpu = { A: [], B: [] };
  for (let i = 1; i + 1 < kept.length; i++) {
    const [s, requests, , micros] = kept[i];
    if (s !== 0 && s !== 2) continue;
    const [before, after] = [kept[i - 1], kept[i + 1]];
    const build = s === 0 ? "A" : "B";
    ratios[build].push((2 * rate(kept[i])) / (rate(before) + rate(after)));
    cpu[build].push(micros / requests / ((before[3] + after[3]) / (before[1] + after[1])));
  }
  out[name] = Object.fromEntries(
    ["A", "B"].map((b) => [
      b,
      { ratio: round(median(ratios[b])), cpu_ratio: round(median(cpu[b])), phases: ratios[b].length },
    ]),
  );
  const f = out[name];
  console.error(
    `journal A/B, ${name}: A ${f.A.ratio} of off (CPU ×${f.A.cpu_ratio}), B ${f.B.ratio} (CPU ×${f.B.cpu_ratio}); ${f.A.phases} phases each`,
  );
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
