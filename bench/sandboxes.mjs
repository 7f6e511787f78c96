// Sandbox scenarios of `npm run bench` (docs/performance.md, The floor): the cost of creating a demo
// sandbox through POST /_sim/sandboxes over HTTP, paired with the same server's GET /_sim/health round
// trip in the same run (alternating blocks), with 1 and with 1,000 live sandboxes; and the heap each
// live sandbox takes (after a full collection), with 1 and with 1,000 live.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";

const SERVER = fileURLToPath(new URL("./sandbox-server.mjs", import.meta.url));
const CREATIONS = Number(process.env.BENCH_SANDBOX_CREATIONS ?? 300);
const LIVE = Number(process.env.BENCH_SANDBOX_LIVE ?? 1000);
const BLOCK = 10;
const WARM_UP = Number(process.env.BENCH_SANDBOX_WARM_UP ?? 2000);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const round = (x, digits = 3) => Number(x.toFixed(digits));

function startServer() {
  const child = spawn(process.execPath, ["--expose-gc", SERVER, String(LIVE + 100)], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl !== -1) resolve({ child, url: out.slice(0, nl) });
    });
    child.on("exit", (code) => reject(new Error(`the sandbox bench server exited ${code}`)));
  });
}

/** Asks the server process for a reading over IPC ("heap" or "cpu"). */
function ask(child, what) {
  return new Promise((resolve) => {
    child.once("message", resolve);
    child.send(what);
  });
}

/** One request over a kept-alive connection; resolves with the status, the body and the milliseconds taken. */
function call(agent, url, method, body) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { method, agent, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode, text, ms: performance.now() - t0 }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function create(agent, url) {
  const r = await call(agent, `${url}/_sim/sandboxes`, "POST", "{}");
  if (r.status !== 201) throw new Error(`POST /_sim/sandboxes answered ${r.status}: ${r.text}`);
  return { id: JSON.parse(r.text).id, ms: r.ms };
}

async function remove(agent, url, id) {
  const r = await call(agent, `${url}/_sim/sandboxes/${id}`, "DELETE");
  if (r.status !== 204) throw new Error(`DELETE /_sim/sandboxes/${id} answered ${r.status}`);
}

/**
 * Alternating blocks of health round trips and creations (each created sandbox removed after its block,
 * outside the timing), so as many sandboxes are live during each creation as before the scenario.
 */
async function creationTimes(server, agent) {
  const health = [];
  const created = [];
  const healthCpu = [];
  const createCpu = [];
  for (let done = 0; done < CREATIONS; done += BLOCK) {
    let before = (await ask(server.child, "cpu")).cpuMicros;
    for (let i = 0; i < BLOCK; i++) {
      const r = await call(agent, `${server.url}/_sim/health`, "GET");
      if (r.status !== 200) throw new Error(`GET /_sim/health answered ${r.status}`);
      health.push(r.ms);
    }
    let after = (await ask(server.child, "cpu")).cpuMicros;
    healthCpu.push((after - before) / BLOCK);
    const ids = [];
    before = after;
    for (let i = 0; i < BLOCK; i++) {
      const { id, ms } = await create(agent, server.url);
      ids.push(id);
      created.push(ms);
    }
    after = (await ask(server.child, "cpu")).cpuMicros;
    createCpu.push((after - before) / BLOCK);
    for (const id of ids) await remove(agent, server.url, id);
  }
  const stats = (xs) => ({ median_ms: round(median(xs)), p99_ms: round(quantile(xs, 0.99)) });
  const h = stats(health);
  const c = stats(created);
  return {
    requests: CREATIONS,
    health: { ...h, server_cpu_us: Math.round(median(healthCpu)) },
    create: { ...c, server_cpu_us: Math.round(median(createCpu)) },
    on_top_median_ms: round(c.median_ms - h.median_ms),
    on_top_server_cpu_us: Math.round(median(createCpu) - median(healthCpu)),
    ratio: round(c.median_ms / h.median_ms, 2),
  };
}

export async function sandboxScenarios() {
  const server = await startServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // Warm-up: the code paths compiled, the demo fixture's first build done. The creations are timed before
    // the heap is measured: the forced full collections age the compiled code, and it would be compiled again.
    for (let i = 0; i < WARM_UP; i++) {
      await remove(agent, server.url, (await create(agent, server.url)).id);
      await call(agent, `${server.url}/_sim/health`, "GET");
    }
    const mb = (bytes) => round(bytes / 2 ** 20, 1);
    const kb = (bytes) => round(bytes / 1024, 1);
    const withOne = await creationTimes(server, agent);
    const ids = [];
    for (let i = 0; i < LIVE; i++) ids.push((await create(agent, server.url)).id);
    const withMany = await creationTimes(server, agent);

    const full = await ask(server.child, "heap");
    for (const id of ids) await remove(agent, server.url, id);
    const base = await ask(server.child, "heap");
    // Heap of one live sandbox: the median of five (create, measure, remove), each against the heap just before.
    const one = [];
    for (let i = 0; i < 5; i++) {
      const before = (await ask(server.child, "heap")).heapUsed;
      const { id } = await create(agent, server.url);
      one.push((await ask(server.child, "heap")).heapUsed - before);
      await remove(agent, server.url, id);
    }
    return {
      creations: { live_1: withOne, [`live_${LIVE}`]: withMany },
      memory: {
        heap_base_mb: mb(base.heapUsed),
        per_sandbox_kb_1_live: kb(median(one)),
        [`per_sandbox_kb_${LIVE}_live`]: kb((full.heapUsed - base.heapUsed) / LIVE),
        [`heap_${LIVE}_live_mb`]: mb(full.heapUsed),
        [`rss_${LIVE}_live_mb`]: mb(full.rss),
      },
    };
  } finally {
    agent.destroy();
    server.child.kill();
  }
}
