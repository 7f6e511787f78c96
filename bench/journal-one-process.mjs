// The journal's cost over HTTP, measured in phases (bench/journal.mjs drives it): two simulators built
// alike in this one process (demo fixture, manual clock, no rate limits), the journal on in one and off
// in the other, behind ONE listening server whose requests go to one of them, switched every
// `--phase-ms` (default 500). One wrk run loads the server throughout; each phase counts the requests it
// answered, its length and the process's CPU time. The two sides share the socket, the HTTP stack, the
// compiled code and the heap, and alternate within a fraction of a second, so the machine's drift (which
// moves separate 2 s rounds by ±10% on a shared machine) falls on both alike.
//
//   node bench/journal-one-process.mjs <dist/src/simulator.js> [--phase-ms N] [--aa]
//
// Prints a JSON line when it listens: {base, token, id} (the first product's id). Then reads commands on
// stdin: `begin` starts the phases (the journal's side first), `end` stops them and prints a JSON line,
// an array of phases [side (0 on, 1 off), requests, ms, CPU µs]. `--aa` turns the journal off on both
// sides, to show the comparison's own noise.
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const { createSimulator } = await import(pathToFileURL(args[0]).href);
const phaseAt = args.indexOf("--phase-ms");
const PHASE_MS = phaseAt === -1 ? 500 : Number(args[phaseAt + 1]);
const aa = args.includes("--aa");

const options = { clock: "manual", rateLimits: false };
const on = createSimulator({ ...options, journal: !aa });
const off = createSimulator({ ...options, journal: false });
const handles = [on.handle, off.handle];
let side = 0;
const answered = [0, 0];
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

let phases = [];
let timer;
let startedAt = 0;
let cpuAt = 0;
const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
function flip() {
  const now = performance.now();
  const cpu = cpuNow();
  phases.push([side, answered[side], now - startedAt, cpu - cpuAt]);
  answered[side] = 0;
  side = 1 - side;
  startedAt = now;
  cpuAt = cpu;
}
const commands = createInterface({ input: process.stdin });
// The bench gone (its end of stdin closed), this process goes too.
commands.on("close", () => process.exit(0));
commands.on("line", (line) => {
  if (line === "begin") {
    clearInterval(timer);
    phases = [];
    side = 0;
    answered[0] = answered[1] = 0;
    startedAt = performance.now();
    cpuAt = cpuNow();
    timer = setInterval(flip, PHASE_MS);
  } else if (line === "end") {
    clearInterval(timer);
    process.stdout.write(`${JSON.stringify(phases)}\n`);
  }
});
process.stdout.write(`${JSON.stringify({ base: store.base_url, token, id: first.data[0].id })}\n`);
