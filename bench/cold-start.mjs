// The cold start of `npm run bench`: `retail-sim` (demo fixture) from its spawn to its first answered
// GET /me, against a bare `node -e` node:http server from its spawn to its first answered request, timed
// the same way (spawn, the first stdout line, one request over a fresh connection, its body read), in
// alternating rounds after one round of each that is not counted. docs/performance.md, The floor.
import { median, round, start } from "./wrk.mjs";

const BARE = `const s = require("node:http").createServer((q, r) => r.end("{}"));
s.listen(0, "127.0.0.1", () => process.stdout.write(s.address().port + "\\n"));`;

async function simulator(cli) {
  const t0 = performance.now();
  const { child, line } = await start(process.execPath, [cli, "--port", "0", "--json"]);
  const demo = JSON.parse(line).stores[0];
  const res = await fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${demo.keys[0].token}` } });
  await res.text();
  const ms = performance.now() - t0;
  child.kill();
  if (res.status !== 200) throw new Error(`cold start: GET /me answered ${res.status}`);
  return ms;
}

async function bare() {
  const t0 = performance.now();
  const { child, line } = await start(process.execPath, ["-e", BARE]);
  await (await fetch(`http://127.0.0.1:${line}/`)).text();
  const ms = performance.now() - t0;
  child.kill();
  return ms;
}

/** Rounds of (bare, simulator), alternating; medians, their ratio and the ratio of each round. */
export async function coldStart(cli, rounds) {
  await bare();
  await simulator(cli);
  const b = [];
  const s = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await bare());
    s.push(await simulator(cli));
  }
  return {
    rounds,
    bare_ms: round(median(b), 1),
    simulator_ms: round(median(s), 1),
    ratio: round(median(s) / median(b), 3),
    bare_rounds_ms: b.map((x) => round(x, 1)),
    simulator_rounds_ms: s.map((x) => round(x, 1)),
    paired_ratios: s.map((x, i) => round(x / b[i], 2)),
  };
}
