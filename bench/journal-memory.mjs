// What a journal entry holds in memory, against what the journal's byte budget counts for it
// (docs/interfaces.md, Journal and coverage: Bounds). In a fresh process started with --expose-gc, one
// simulator (demo fixture, manual clock, no rate limits) answers each scenario's request through
// `sim.handle`; the growth of the JS heap and of the memory outside it (array buffers) over N entries,
// each measured after a full collection, divided by N. Then the budget's own count: a journal given a
// budget of B bytes holds B / (its estimate per entry) entries. Deterministic, unlike throughput: what
// the entries keep alive is what the collector works on for as long as they are held (docs/performance.md,
// The journal's cost). Prints one JSON object, per scenario.
//
//   node --expose-gc bench/journal-memory.mjs <dist/src/simulator.js> [entries]
import { pathToFileURL } from "node:url";
import { ORIGIN, SCENARIOS, target } from "./journal-requests.mjs";

const [simulatorJs, entriesArg] = process.argv.slice(2);
if (typeof globalThis.gc !== "function") throw new Error("journal memory: run node with --expose-gc");
const { createSimulator } = await import(pathToFileURL(simulatorJs).href);
const N = Number(entriesArg ?? 10_000);
/** The budget for the estimate's count: room for several thousand entries of each scenario. */
const BUDGET = 8 * 1024 * 1024;

async function simulator(caps, journal = true) {
  const sim = createSimulator({ clock: "manual", rateLimits: false, journal, caps });
  return { sim, journaled: journal, target: await target(sim) };
}

async function send({ sim, target, journaled }, make, n) {
  const [method, path, query, body] = make(target);
  for (let i = 0; i < n; i++) {
    // A fresh body and headers for each, as a server reads them: the journal keeps what it was given.
    const headers = { host: "127.0.0.1:8080", authorization: `Bearer ${target.token}`, "user-agent": "bench/1" };
    if (body) headers["content-type"] = "application/json";
    const res = await sim.handle({
      method,
      path,
      query,
      headers,
      body: body ? body.slice() : null,
      remoteAddress: "127.0.0.1",
      origin: ORIGIN,
    });
    if (res.status >= 300) throw new Error(`journal memory: ${method} ${path} answered ${res.status}`);
  }
  // Every exchange recorded before anything is measured.
  if (journaled) sim.journal({ limit: 1 });
}

function measure() {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, outside: arrayBuffers };
}

/** Bytes of the heap and outside it per request of a simulator that answers N more (its store grows too on a write). */
async function growth(journal, make) {
  // A ring longer than N, and a budget that holds them all.
  const sim = await simulator({ journalEntries: 2 * N, journalBytes: 2 ** 40 }, journal);
  await send(sim, make, 2_000);
  const before = measure();
  await send(sim, make, N);
  const after = measure();
  return { heap: (after.heap - before.heap) / N, outside: (after.outside - before.outside) / N };
}

const out = {};
for (const [name, make] of SCENARIOS) {
  // What the journal holds: the growth with it on, less the growth with it off (a write's new rows).
  const on = await growth(true, make);
  const off = await growth(false, make);
  // The estimate: how many entries a budget of BUDGET bytes holds.
  const counted = await simulator({ journalEntries: 2 * N, journalBytes: BUDGET });
  await send(counted, make, N);
  const kept = counted.sim.journal({ limit: 1 }).held;
  out[name] = {
    heap_bytes: Math.round(on.heap - off.heap),
    outside_bytes: Math.round(on.outside - off.outside),
    budget_bytes: kept < N ? Math.round(BUDGET / kept) : null,
  };
}
process.stdout.write(JSON.stringify(out));
