// npm run bench:snapshots: what a snapshot costs (docs/performance.md, Running the benchmarks). For the demo and large
// fixtures, each in fresh processes (no warm heap), alternating so a busy machine slows both alike:
// - the world built from the seed, and its snapshot taken and serialized (time, size);
// - the world restored from that snapshot file, by phase: read, JSON.parse, check, restore;
// - the command line's start to its ready line: `--fixture <name>` against `--fixture <snapshot file>`.
// Medians of BENCH_SNAPSHOT_ROUNDS (default 3). Writes reports/snapshots/snapshots.json.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "dist/bin/retail-sim.js");
const SRC = (path) => JSON.stringify(join(ROOT, "dist", path));
const ROUNDS = Number(process.env.BENCH_SNAPSHOT_ROUNDS ?? 3);
const FIXTURES = (process.env.BENCH_SNAPSHOT_FIXTURES ?? "demo,large").split(",");
const tmp = mkdtempSync(join(tmpdir(), "retail-sim-snapshots-"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => Math.round((bytes / 2 ** 20) * 100) / 100;
const ms = (value) => Math.round(value * 10) / 10;

/** Runs a module script in a fresh node (which can collect garbage on demand) and parses the JSON it prints. */
function fresh(script) {
  const args = ["--expose-gc", "--input-type=module", "-e", script];
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 2 ** 26 }));
}

/** Built from the seed; the snapshot taken, serialized and written to `file`. */
const buildScript = (fixture, file) => `
import { writeFileSync } from "node:fs";
import { createSimulator } from ${SRC("src/simulator.js")};
const t0 = performance.now();
const sim = createSimulator({ clock: "manual", fixture: ${JSON.stringify(fixture)} });
const t1 = performance.now();
globalThis.gc?.();
const rss = process.memoryUsage().rss;
const t1b = performance.now();
const doc = sim.snapshot();
const t2 = performance.now();
const text = JSON.stringify(doc);
const t3 = performance.now();
${file ? `writeFileSync(${JSON.stringify(file)}, text);` : ""}
process.stdout.write(JSON.stringify({ build: t1 - t0, take: t2 - t1b, stringify: t3 - t2, bytes: Buffer.byteLength(text), rss }));`;

/** Restored from the file, phase by phase as the loader does it: read, parse, check, then the world. */
const restoreScript = (file) => `
import { checkSnapshot, readJsonText } from ${SRC("scenarios/fixtures/index.js")};
import { createSimulator } from ${SRC("src/simulator.js")};
const t0 = performance.now();
const text = readJsonText(${JSON.stringify(file)});
const t1 = performance.now();
const doc = JSON.parse(text);
const t2 = performance.now();
checkSnapshot(doc);
const t3 = performance.now();
const sim = createSimulator({ clock: "manual", fixture: doc });
const t4 = performance.now();
globalThis.gc?.();
process.stdout.write(JSON.stringify({ read: t1 - t0, parse: t2 - t1, check: t3 - t2, world: t4 - t3, total: t4 - t0, rss: process.memoryUsage().rss, kept: sim !== undefined }));`;

/** The command line from its start to its ready line. */
function readyLine(fixture) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [CLI, "--port", "0", "--json", "--clock", "manual", "--fixture", fixture], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.once("data", () => {
      resolve(performance.now() - t0);
      child.kill("SIGKILL");
    });
    child.on("exit", (code) => code !== null && code !== 0 && reject(new Error(`retail-sim exited ${code}`)));
  });
}

const figures = {};
for (const fixture of FIXTURES) {
  const file = join(tmp, `${fixture}.snapshot.json`);
  const taken = fresh(buildScript(fixture, file));
  const builds = [];
  const restores = [];
  const starts = { fixture: [], snapshot: [] };
  for (let i = 0; i < ROUNDS; i++) {
    builds.push(fresh(buildScript(fixture, null)));
    restores.push(fresh(restoreScript(file)));
    starts.fixture.push(await readyLine(fixture));
    starts.snapshot.push(await readyLine(file));
  }
  const of = (runs, key) => ms(median(runs.map((r) => r[key])));
  const restore = {
    read_ms: of(restores, "read"),
    parse_ms: of(restores, "parse"),
    check_ms: of(restores, "check"),
    world_ms: of(restores, "world"),
    total_ms: of(restores, "total"),
    rss_mb: mb(of(restores, "rss")),
  };
  figures[fixture] = {
    snapshot_mb: mb(taken.bytes),
    take_ms: ms(taken.take),
    stringify_ms: ms(taken.stringify),
    build_from_seed_ms: of(builds, "build"),
    build_rss_mb: mb(of(builds, "rss")),
    restore,
    ready_line_ms: {
      fixture: ms(median(starts.fixture)),
      snapshot: ms(median(starts.snapshot)),
    },
  };
  console.log(fixture, JSON.stringify(figures[fixture]));
}
const out = join(ROOT, "reports/snapshots");
mkdirSync(out, { recursive: true });
writeFileSync(join(out, "snapshots.json"), `${JSON.stringify(figures, null, 2)}\n`);
console.log(`load average: ${execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).trim()}`);
