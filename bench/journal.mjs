// The cost of the request journal and coverage (docs/interfaces.md, Journal and coverage), over HTTP:
// two simulators built alike (demo fixture, manual clock, no rate limits), the journal on in one and off
// in the other, behind ONE listening server in a child process whose requests go to one of them,
// switched every `JOURNAL_PHASE_MS` (default 500) under one continuous wrk run. The two sides share the
// socket, the HTTP stack, the compiled code, the heap and the machine's drift. docs/performance.md,
// The floor.
//
// Run as a script (`node bench/journal.mjs <dist/src/simulator.js> <phase ms>`) it is that child: it
// prints {base, token, id} when it listens, then on each line of stdin prints the phases since the last
// line, [side (0 on, 1 off), requests, ms, CPU µs] each, and starts counting anew.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, round } from "./wrk.mjs";

/** Seconds of phases per scenario (the more phases, the less their median moves) and each phase's ms. */
const PHASE_SECONDS = Number(process.env.JOURNAL_PHASE_SECONDS ?? 60);
const PHASE_MS = Number(process.env.JOURNAL_PHASE_MS ?? 500);
/** Seconds of load before each scenario's measured phases (its code optimized). */
const WARM = Number(process.env.JOURNAL_WARM_SECONDS ?? 1);

/** The q-quantile of numbers (nearest rank). */
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

/**
 * Throughput on/off of each scenario: the median over the phases with the journal on of each one's
 * throughput against the mean of the two phases off beside it (the figure judged against the aim; a
 * hiccup of the machine moves one ratio, not the median), with its 10th and 90th percentiles, and pooled
 * over every phase of a side; CPU time per request of each side (the process's, all threads).
 */
export async function journalCost({ root, tmp, wrk }) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), join(root, "dist/src/simulator.js"), PHASE_MS],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`journal bench: its server exited (${child.exitCode})`);
    return JSON.parse(value);
  };
  const phasesOf = async (seconds, path, script) => {
    child.stdin.write("\n");
    await next();
    wrk(`${ready.base}${path}`, seconds, { token: ready.token, script });
    child.stdin.write("\n");
    return next();
  };
  const ready = await next();
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
      if (WARM > 0) await phasesOf(Math.max(1, 2 * WARM), path, script);
      // The first pair holds wrk's start (its connections): left out, as is a last phase without its pair.
      const phases = (await phasesOf(PHASE_SECONDS, path, script)).slice(2);
      const whole = phases.slice(0, phases.length - (phases.length % 2));
      const sum = (side, field) => whole.reduce((total, p) => total + (p[0] === side ? p[field] : 0), 0);
      const onRps = (sum(0, 1) * 1000) / sum(0, 2);
      const offRps = (sum(1, 1) * 1000) / sum(1, 2);
      // Each phase on against the mean of the phases off either side of it: a drift of the machine's
      // speed across the three cancels, and so does which side goes first.
      const rate = (p) => p[1] / p[2];
      const ratios = [];
      for (let i = 2; i + 1 < phases.length; i += 2)
        ratios.push((2 * rate(phases[i])) / (rate(phases[i - 1]) + rate(phases[i + 1])));
      const cpuOn = sum(0, 3) / sum(0, 1);
      const cpuOff = sum(1, 3) / sum(1, 1);
      const o = {
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
      out[name] = o;
      console.error(
        `journal on/off, ${name}: ${o.ratio}x (median of ${o.phases} phases of ${PHASE_MS} ms against the two beside each, 10–90% ${o.range.join("–")}; pooled ${o.pooled_ratio}); CPU per request ${o.cpu_us.on} / ${o.cpu_us.off} µs`,
      );
    }
  } finally {
    child.kill();
  }
  return out;
}

/** The child: both simulators behind one server, switching side every `phaseMs`. */
async function serve(simulatorPath, phaseMs) {
  const { createSimulator } = await import(pathToFileURL(simulatorPath).href);
  const on = createSimulator({ clock: "manual", rateLimits: false });
  const off = createSimulator({ clock: "manual", rateLimits: false, journal: false });
  const handles = [on.handle, off.handle];
  const answered = [0, 0];
  let side = 0;
  on.handle = (req) => {
    answered[side] += 1;
    return handles[side](req);
  };
  await on.listen(0, "127.0.0.1");
  const store = on.credentials().stores[0];
  const token = store.keys[0].token;
  if (off.credentials().stores[0].keys[0].token !== token) throw new Error("journal bench: the two simulators differ");
  const first = await (
    await fetch(`${store.base_url}/products?limit=1`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  let phases = [];
  let startedAt = performance.now();
  let cpuAt = cpuNow();
  const flip = () => {
    const [now, cpu] = [performance.now(), cpuNow()];
    phases.push([side, answered[side], now - startedAt, cpu - cpuAt]);
    answered[side] = 0;
    side = 1 - side;
    [startedAt, cpuAt] = [now, cpu];
  };
  let timer = setInterval(flip, phaseMs);
  const commands = createInterface({ input: process.stdin });
  // The bench gone (its end of stdin closed), this process goes too.
  commands.on("close", () => process.exit(0));
  commands.on("line", () => {
    process.stdout.write(`${JSON.stringify(phases)}\n`);
    // Counting starts anew on the journal's side.
    phases = [];
    side = 0;
    answered[0] = answered[1] = 0;
    [startedAt, cpuAt] = [performance.now(), cpuNow()];
    clearInterval(timer);
    timer = setInterval(flip, phaseMs);
  });
  process.stdout.write(`${JSON.stringify({ base: store.base_url, token, id: first.data[0].id })}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve(process.argv[2], Number(process.argv[3]));
