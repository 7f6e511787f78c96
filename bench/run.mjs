// npm run bench: the simulator against a raw node:http baseline in the same run, driven by wrk (one
// thread, 32 connections) over loopback, alternating A and B, reported as medians, ratios and the ratio
// of every round; the cold start against a bare `node -e` server (bench/cold-start.mjs), alternating too.
// Writes reports/bench/bench.json and bench.md. See docs/performance.md.
// `--only sandboxes,start` (or BENCH_ONLY) runs only those groups: throughput (wrk), journal (its cost,
// on against off), start (cold start and the world's build), conformance, sandboxes (bench/sandboxes.mjs).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { coldStart } from "./cold-start.mjs";
import { journalCost } from "./journal.mjs";
import { renderReport } from "./report.mjs";
import { sandboxScenarios } from "./sandboxes.mjs";
import { ensureWrk, load, machine, median, round, start, summary, wrk as wrkRun } from "./wrk.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "dist/bin/retail-sim.js");
/** A module the build does not emit (it emits the library only), loaded from its sources with tsx. */
const fromSource = async (path) => (await import("tsx/esm/api")).tsImport(join(ROOT, path), import.meta.url);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COLD_ROUNDS = Number(process.env.BENCH_COLD_ROUNDS ?? 7);
const FIXTURE = process.env.BENCH_FIXTURE ?? "large";
const tmp = mkdtempSync(join(tmpdir(), "retail-sim-bench-"));
const GROUPS = ["throughput", "journal", "start", "conformance", "sandboxes"];
const onlyArg = process.argv.indexOf("--only");
const ONLY = (onlyArg === -1 ? (process.env.BENCH_ONLY ?? "") : (process.argv[onlyArg + 1] ?? ""))
  .split(",")
  .filter(Boolean);
for (const group of ONLY) if (!GROUPS.includes(group)) throw new Error(`--only: no group "${group}" (${GROUPS})`);
const wants = (group) => ONLY.length === 0 || ONLY.includes(group);
const wrk = (url, options) => wrkRun(url, SECONDS, options);

/**
 * The world built from the seed, in a fresh process each time (no warm heap), median of 3: until it
 * answers, and until the rows its build left for idle moments are laid out too (the resident memory then).
 */
function worldBuild() {
  const script = `import { createSimulator } from ${JSON.stringify(join(ROOT, "dist/src/simulator.js"))};
const t0 = performance.now();
const sim = createSimulator({ fixture: ${JSON.stringify(FIXTURE)} });
const ms = performance.now() - t0;
while (sim.world.layOut(Number.POSITIVE_INFINITY));
const laidOut = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, laidOut, rss: process.memoryUsage().rss }));`;
  const runs = Array.from({ length: 3 }, () =>
    JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })),
  );
  return {
    ms: Math.round(median(runs.map((r) => r.ms))),
    laid_out_ms: Math.round(median(runs.map((r) => r.laidOut))),
    rss_mb: Math.round(median(runs.map((r) => r.rss)) / 2 ** 20),
  };
}

function lua(name, method, body, extra = "") {
  const path = join(tmp, `${name}.lua`);
  writeFileSync(
    path,
    `wrk.method = "${method}"\nwrk.headers["Content-Type"] = "application/json"\ncounter = 0\n${extra}\nrequest = function()\n  counter = counter + 1\n  ${body}\nend\n`,
  );
  return path;
}

/** The wrk scenarios against the simulator with the fixture (and the raw baseline), and its peak memory. */
async function throughput(figures) {
  const buildStart = performance.now();
  const sim = await start(process.execPath, [
    CLI,
    "--port",
    "0",
    "--json",
    "--clock",
    "manual",
    "--no-rate-limits",
    "--fixture",
    FIXTURE,
  ]);
  figures.fixture_start_ms = Math.round(performance.now() - buildStart);
  const ready = JSON.parse(sim.line);
  const base = ready.stores[0].base_url;
  const token = ready.stores[0].keys[0].token;
  // Again on a failure, up to 8 times: the fetches before a scenario leave kept-alive connections in
  // the client's pool, which the server closes while wrk runs (its keep-alive timeout) and this process,
  // blocked on wrk, does not see closed; each retry may draw another of them.
  const get = async (path) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
      } catch (error) {
        if (attempt === 8) throw error;
      }
    }
  };
  // The baseline serves the simulator's own pages, documents and cursors as it returned them.
  const LISTS = ["/products?limit=50", "/products?limit=200", "/sales?limit=50", "/sales?limit=200"];
  const pages = Object.fromEntries(await Promise.all(LISTS.map(async (path) => [path, await get(path)])));
  const page = pages["/products?limit=200"];
  writeFileSync(join(tmp, "documents.json"), JSON.stringify({ products: page.data, pages }));
  const raw = await start(process.execPath, [join(ROOT, "bench/raw-server.mjs"), join(tmp, "documents.json")]);
  const rawBase = `http://127.0.0.1:${raw.line}`;
  const id = page.data[0].id;
  const outlet = (await get("/outlets")).data[0].id;

  // The reads first, on the world as the fixture built it; the writes after them add ~100,000 products.
  const paired = [["GET /products/{id}", `/products/${id}`], ...LISTS.map((path) => [`GET ${path}`, path])];
  for (const [name, path] of paired) {
    const s = [];
    const r = [];
    for (let i = 0; i < ROUNDS; i++) {
      s.push(wrk(`${base}${path}`, { token }));
      r.push(wrk(`${rawBase}${path}`));
    }
    const simulator = summary(s);
    const baseline = summary(r);
    figures.scenarios[name] = {
      read: true,
      simulator,
      baseline,
      ratio: round(simulator.rps / baseline.rps),
      paired_ratios: s.map((x, i) => round(x.rps / r[i].rps)),
    };
    console.error(
      `${name}: ${simulator.rps.toFixed(0)} req/s vs raw ${baseline.rps.toFixed(0)} (${(simulator.rps / baseline.rps).toFixed(2)}x; p50 ${simulator.p50} ms, p99 ${simulator.p99} ms)`,
    );
  }
  // Polling from a cursor deep in the feed against polling from the start, alternating; and a selective
  // filter (one customer's sales, one in 600 of the feed, spread over all of it) against a plain page.
  const newest = await get("/sales?order=desc&limit=60");
  // A version is the change sequence number and a cursor names the last one seen (docs/spec-choices.md);
  // the bench builds one 60 sales from the end with the simulator's own encoder.
  const { encodeCursor } = await import(join(ROOT, "dist/src/kernel/cursor.js"));
  const deepCursor = encodeCursor(
    `${ready.stores[0].prefix}/sales`,
    Number(newest.data[newest.data.length - 1].version) - 1,
  );
  const customers = (await get("/customers?limit=20")).data.filter((c) => !c.is_walk_in);
  const comparisons = [
    [
      "GET /sales?limit=50 from a deep cursor (vs from the start)",
      `${base}/sales?limit=50&cursor=${encodeURIComponent(deepCursor)}`,
      `${base}/sales?limit=50`,
    ],
  ];
  if (customers.length > 0)
    comparisons.push([
      "GET /sales?customer_id=…&limit=50 (vs unfiltered)",
      `${base}/sales?customer_id=${customers[0].id}&limit=50`,
      `${base}/sales?limit=50`,
    ]);
  for (const [name, url, against] of comparisons) {
    const a = [];
    const b = [];
    for (let i = 0; i < ROUNDS; i++) {
      a.push(wrk(url, { token }));
      b.push(wrk(against, { token }));
    }
    figures.scenarios[name] = {
      read: true,
      simulator: summary(a),
      baseline: summary(b),
      baseline_kind: "simulator",
      ratio: round(median(a.map((x) => x.rps)) / median(b.map((x) => x.rps))),
      paired_ratios: a.map((x, i) => round(x.rps / b[i].rps)),
    };
    console.error(`${name}: ${figures.scenarios[name].ratio}x`);
  }
  const ids = page.data.slice(0, 100).map((p) => p.id);
  const writes = [
    [
      "POST /products",
      `${base}/products`,
      lua(
        "create",
        "POST",
        `return wrk.format(nil, nil, nil, '{"name":"Bench item ' .. counter .. '","retail_price":' .. (100 + counter % 900) .. '}')`,
      ),
    ],
    [
      "PATCH /products/{id}",
      `${base}/products/${id}`,
      lua("patch", "PATCH", `return wrk.format(nil, nil, nil, '{"retail_price":' .. (100 + counter % 900) .. '}')`),
    ],
    [
      "PUT stock",
      `${base}/products/${id}/inventory/${outlet}`,
      lua("put", "PUT", `return wrk.format(nil, nil, nil, '{"on_hand":' .. (counter % 500) .. '}')`),
    ],
    [
      "POST /inventory/batch (100 lines)",
      `${base}/inventory/batch`,
      lua(
        "batch",
        "POST",
        `wrk.headers["Idempotency-Key"] = "bench-" .. counter\n  local lines = {}\n  for i, pid in ipairs(ids) do lines[i] = '{"product_id":"' .. pid .. '","outlet_id":"${outlet}","set":{"on_hand":' .. ((counter + i) % 500) .. '}}' end\n  return wrk.format(nil, nil, nil, '{"lines":[' .. table.concat(lines, ",") .. ']}')`,
        `ids = {${ids.map((x) => `"${x}"`).join(",")}}`,
      ),
    ],
  ];
  for (const [name, url, script] of writes) {
    const runs = Array.from({ length: ROUNDS }, () => wrk(url, { token, script }));
    figures.scenarios[name] = { simulator: summary(runs) };
    console.error(`${name}: ${figures.scenarios[name].simulator.rps.toFixed(0)} req/s`);
  }
  figures.simulator_peak_rss_mb = Math.round(
    Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${sim.child.pid}/status`, "utf8"))[1]) / 1024,
  );
  sim.child.kill();
  raw.child.kill();
}

async function main() {
  const figures = {
    machine: machine(),
    only: ONLY.length > 0 ? ONLY : undefined,
    fixture: FIXTURE,
    seconds: SECONDS,
    rounds: ROUNDS,
    scenarios: {},
  };
  // The groups that drive HTTP load use wrk (either alone: `--only journal` too).
  if (wants("throughput") || wants("journal")) ensureWrk();
  if (wants("throughput")) await throughput(figures);
  if (wants("journal")) {
    figures.journal = await journalCost({ root: ROOT, tmp, wrk: wrkRun });
  }
  if (wants("start")) {
    figures.cold_start = await coldStart(CLI, COLD_ROUNDS);
    console.error(`cold start: ${JSON.stringify(figures.cold_start)}`);
    figures.world_build = worldBuild();
  }
  if (wants("conformance")) {
    // tsx compiles the suite before t0.
    const { conformance } = await fromSource("conformance/run.ts");
    const t0 = performance.now();
    const report = await conformance({ seed: 1 });
    figures.conformance = {
      ms: Math.round(performance.now() - t0),
      passed: report.summary.passed,
      failed: report.summary.failed,
    };
  }
  if (wants("sandboxes")) {
    figures.sandboxes = await sandboxScenarios();
    console.error(`sandboxes: ${JSON.stringify(figures.sandboxes)}`);
  }
  figures.machine.load_after = load();
  const out = join(ROOT, "reports/bench");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "bench.json"), `${JSON.stringify(figures, null, 2)}\n`);
  const md = renderReport(figures);
  writeFileSync(join(out, "bench.md"), md);
  process.stdout.write(md);
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
