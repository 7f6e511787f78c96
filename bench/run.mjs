// npm run bench: the simulator against a raw node:http baseline in the same run, driven by wrk (one
// thread, 32 connections) over loopback, alternating A and B, reported as medians and ratios.
// Writes reports/bench/bench.json and bench.md. See docs/performance.md.
// `--only sandboxes,start` (or BENCH_ONLY) runs only those groups: throughput (wrk), start (cold start and
// the world's build), conformance, sandboxes (bench/sandboxes.mjs).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderReport } from "./report.mjs";
import { sandboxScenarios } from "./sandboxes.mjs";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CLI = join(ROOT, "dist/bin/retail-sim.js");
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FIXTURE = process.env.BENCH_FIXTURE ?? "large";
const tmp = mkdtempSync(join(tmpdir(), "retail-sim-bench-"));
const GROUPS = ["throughput", "start", "conformance", "sandboxes"];
const onlyArg = process.argv.indexOf("--only");
const ONLY = (onlyArg === -1 ? (process.env.BENCH_ONLY ?? "") : (process.argv[onlyArg + 1] ?? ""))
  .split(",")
  .filter(Boolean);
for (const group of ONLY) if (!GROUPS.includes(group)) throw new Error(`--only: no group "${group}" (${GROUPS})`);
const wants = (group) => ONLY.length === 0 || ONLY.includes(group);

function ensureWrk() {
  if (spawnSync("wrk", ["--version"]).error === undefined) return;
  if (process.getuid?.() === 0) {
    console.error("Installing Debian's wrk (the load generator)...");
    execFileSync(
      "bash",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null"],
      { stdio: "inherit" },
    );
    return;
  }
  throw new Error("wrk is needed: apt-get install -y wrk");
}

/** Starts a process and resolves with its first stdout line. */
function start(cmd, args) {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, line: out.slice(0, nl) });
    });
    child.on("exit", (code) => reject(new Error(`${cmd} exited ${code}`)));
  });
}

function wrk(url, { token, script } = {}) {
  const args = ["-t1", "-c32", `-d${SECONDS}s`, "--latency"];
  if (token) args.push("-H", `Authorization: Bearer ${token}`);
  if (script) args.push("-s", script);
  const out = execFileSync("wrk", [...args, url], { encoding: "utf8" });
  const ms = (label) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!m) return null;
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), p50: ms("50%"), p99: ms("99%"), non2xx };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs) => ({
  rps: median(runs.map((x) => x.rps)),
  p50: median(runs.map((x) => x.p50)),
  p99: median(runs.map((x) => x.p99)),
  non2xx: Math.max(...runs.map((x) => x.non2xx)),
});

/** The world built from the seed, in a fresh process each time (no warm heap), median of 3. */
function worldBuild() {
  const script = `import { createSimulator } from ${JSON.stringify(join(ROOT, "dist/src/simulator.js"))};
const t0 = performance.now();
createSimulator({ fixture: ${JSON.stringify(FIXTURE)} });
const ms = performance.now() - t0;
process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss }));`;
  const runs = Array.from({ length: 3 }, () =>
    JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })),
  );
  return {
    ms: Math.round(median(runs.map((r) => r.ms))),
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

async function coldStart() {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const { child, line } = await start(process.execPath, [CLI, "--port", "0", "--json"]);
    const ready = JSON.parse(line);
    const demo = ready.stores[0];
    await fetch(`${demo.base_url}/me`, { headers: { authorization: `Bearer ${demo.keys[0].token}` } }).then((r) =>
      r.text(),
    );
    times.push(performance.now() - t0);
    child.kill();
  }
  return median(times);
}

/** The wrk scenarios against the simulator with the fixture (and the raw baseline), and its peak memory. */
async function throughput(figures) {
  ensureWrk();
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
  const page = await (
    await fetch(`${base}/products?limit=200`, { headers: { authorization: `Bearer ${token}` } })
  ).json();
  writeFileSync(join(tmp, "products.json"), JSON.stringify(page.data));
  const raw = await start(process.execPath, [join(ROOT, "bench/raw-server.mjs"), join(tmp, "products.json")]);
  const rawBase = `http://127.0.0.1:${raw.line}`;
  const id = page.data[0].id;
  const outlet = (await (await fetch(`${base}/outlets`, { headers: { authorization: `Bearer ${token}` } })).json())
    .data[0].id;

  const paired = [
    ["GET /products/{id}", `${base}/products/${id}`, `${rawBase}/products/${id}`],
    ["GET /products?limit=50", `${base}/products?limit=50`, `${rawBase}/products?limit=50`],
    ["GET /products?limit=200", `${base}/products?limit=200`, `${rawBase}/products?limit=200`],
  ];
  for (const [name, simUrl, rawUrl] of paired) {
    const s = [];
    const r = [];
    for (let i = 0; i < ROUNDS; i++) {
      s.push(wrk(simUrl, { token }));
      r.push(wrk(rawUrl));
    }
    const sim = {
      rps: median(s.map((x) => x.rps)),
      p50: median(s.map((x) => x.p50)),
      p99: median(s.map((x) => x.p99)),
      non2xx: Math.max(...s.map((x) => x.non2xx)),
    };
    const baseline = {
      rps: median(r.map((x) => x.rps)),
      p50: median(r.map((x) => x.p50)),
      p99: median(r.map((x) => x.p99)),
    };
    figures.scenarios[name] = {
      simulator: sim,
      baseline,
      ratio: Number((sim.rps / baseline.rps).toFixed(3)),
      paired_ratios: s.map((x, i) => Number((x.rps / r[i].rps).toFixed(3))),
    };
    console.error(
      `${name}: ${sim.rps.toFixed(0)} req/s vs raw ${baseline.rps.toFixed(0)} (${(sim.rps / baseline.rps).toFixed(2)}x)`,
    );
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
    figures.scenarios[name] = {
      simulator: {
        rps: median(runs.map((x) => x.rps)),
        p50: median(runs.map((x) => x.p50)),
        p99: median(runs.map((x) => x.p99)),
        non2xx: Math.max(...runs.map((x) => x.non2xx)),
      },
    };
    console.error(`${name}: ${figures.scenarios[name].simulator.rps.toFixed(0)} req/s`);
  }
  const sales = Array.from({ length: ROUNDS }, () => wrk(`${base}/sales?limit=200`, { token }));
  figures.scenarios["GET /sales?limit=200"] = { simulator: summary(sales) };
  console.error(`GET /sales?limit=200: ${figures.scenarios["GET /sales?limit=200"].simulator.rps.toFixed(0)} req/s`);

  // Polling from a cursor deep in the feed against polling from the start, alternating; and a selective
  // filter (one customer's sales, one in 600 of the feed, spread over all of it) against a plain page.
  const get = async (path) => (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const newest = await get("/sales?order=desc&limit=60");
  // A version is the change sequence number and a cursor names the last one seen (docs/spec-choices.md);
  // the bench builds one 60 sales from the end with the simulator's own encoder.
  const { encodeCursor } = await import(join(ROOT, "dist/src/engine/cursor.js"));
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
      simulator: summary(a),
      baseline: summary(b),
      baseline_kind: "simulator",
      ratio: Number((median(a.map((x) => x.rps)) / median(b.map((x) => x.rps))).toFixed(3)),
    };
    console.error(`${name}: ${figures.scenarios[name].ratio}x`);
  }
  figures.simulator_peak_rss_mb = Math.round(
    Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${sim.child.pid}/status`, "utf8"))[1]) / 1024,
  );
  sim.child.kill();
  raw.child.kill();
}

async function main() {
  const figures = {
    machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
    only: ONLY.length > 0 ? ONLY : undefined,
    fixture: FIXTURE,
    seconds: SECONDS,
    rounds: ROUNDS,
    scenarios: {},
  };
  if (wants("throughput")) await throughput(figures);
  if (wants("start")) {
    figures.cold_start_ms = Math.round(await coldStart());
    figures.world_build = worldBuild();
  }
  if (wants("conformance")) {
    const { conformance } = await import(join(ROOT, "dist/conformance/run.js"));
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
