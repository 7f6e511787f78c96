// Helpers of `npm run bench` (bench/run.mjs): processes that print a ready line, wrk runs and their
// figures, medians, and the machine the run is on.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const round = (x, digits = 3) => Number(x.toFixed(digits));

/** Medians of wrk runs, and the p99/p50 ratio of each run. */
export const summary = (runs) => ({
  rps: median(runs.map((x) => x.rps)),
  p50: median(runs.map((x) => x.p50)),
  p99: median(runs.map((x) => x.p99)),
  non2xx: Math.max(...runs.map((x) => x.non2xx ?? 0)),
  tail_ratios: runs.map((x) => round(x.p99 / x.p50, 2)),
});

export function ensureWrk() {
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

/** The processes `start` made; `stopAll` ends those still running (a bench that fails leaves none behind). */
const children = new Set();
export function stopAll() {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}
process.on("exit", stopAll);

/** Starts a process and resolves with its first stdout line. */
export function start(cmd, args) {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
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

/** One wrk run (one thread, 32 connections) of `seconds`: requests a second, p50 and p99 in ms, non-2xx answers. */
export function wrk(url, seconds, { token, script } = {}) {
  const args = ["-t1", "-c32", `-d${seconds}s`, "--latency"];
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

/** The machine: CPU model, cores, Node's version, and the load average (1, 5, 15 minutes) now. */
export function machine() {
  const all = cpus();
  return { cpu: all[0]?.model ?? "unknown", cpus: all.length, node: process.version, load_before: load() };
}

export const load = () => loadavg().map((x) => round(x, 2));
