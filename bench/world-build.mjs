// The large world's build, this checkout against another built one, alternating in the same run
// (docs/performance.md, The large world's build). Each round, for each checkout, in a fresh process:
// `createSimulator({ fixture: "large" })` from `dist/src` (what bench/run.mjs's world build measures),
// with the resident memory after it; and the bin (`dist/bin/retail-sim.js --fixture large`) from its
// spawn to its ready line. Both checkouts must be built (`npm run build`).
//
//   node bench/world-build.mjs /path/to/other/checkout [rounds=5]

import { execFileSync, spawn } from "node:child_process";
import { resolve } from "node:path";

const here = resolve(import.meta.dirname, "..");
const other = resolve(process.argv[2] ?? "");
const rounds = Number(process.argv[3] ?? 5);
if (!process.argv[2]) {
  console.error("usage: node bench/world-build.mjs <other checkout> [rounds]");
  process.exit(2);
}

function inProcess(root) {
  const script = `import { createSimulator } from ${JSON.stringify(`${root}/dist/src/simulator.js`)};
const t0 = performance.now();
createSimulator({ fixture: "large" });
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss }));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }));
}

function readyLine(root) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [`${root}/dist/bin/retail-sim.js`, "--fixture", "large", "--port", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((done, fail) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (!out.includes("\n")) return;
      const ms = performance.now() - t0;
      child.kill();
      done(ms);
    });
    child.on("exit", (code) => out.includes("\n") || fail(new Error(`${root}: exited ${code}`)));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const runs = { this: { build: [], rss: [], ready: [] }, other: { build: [], rss: [], ready: [] } };
for (let round = 0; round < rounds; round++) {
  // Alternate which goes first, so a change in the machine's load falls on both alike.
  const order = round % 2 === 0 ? ["other", "this"] : ["this", "other"];
  for (const who of order) {
    const root = who === "this" ? here : other;
    const built = inProcess(root);
    runs[who].build.push(built.ms);
    runs[who].rss.push(built.rss / 2 ** 20);
    runs[who].ready.push(await readyLine(root));
  }
  const r = (k) => (runs.this[k][round] / runs.other[k][round]).toFixed(2);
  console.error(
    `round ${round + 1}: build ${Math.round(runs.other.build[round])} -> ${Math.round(runs.this.build[round])} ms (${r("build")}), ` +
      `ready line ${Math.round(runs.other.ready[round])} -> ${Math.round(runs.this.ready[round])} ms (${r("ready")})`,
  );
}
const summary = Object.fromEntries(
  Object.entries(runs).map(([who, r]) => [
    who,
    { build_ms: Math.round(median(r.build)), ready_ms: Math.round(median(r.ready)), rss_mb: Math.round(median(r.rss)) },
  ]),
);
const ratio = (k) =>
  median(runs.this[k].map((x, i) => x / runs.other[k][i]))
    .toFixed(2)
    .toString();
console.log(JSON.stringify({ ...summary, median_ratio: { build: ratio("build"), ready: ratio("ready") } }, null, 2));
