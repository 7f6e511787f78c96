// The simulator under soak: the built bin in a child process of its own (node --expose-gc, demo fixture,
// rate limits on), with bench/soak-probe.cjs preloaded so the heap after a full collection can be asked
// for over IPC; its resident memory and CPU time are read from /proc.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../dist/bin/retail-sim.js", import.meta.url));
const PROBE = fileURLToPath(new URL("./soak-probe.cjs", import.meta.url));
const live = new Set();
// A soak that fails leaves no simulator behind.
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * Starts `retail-sim --clock <clock>` and resolves with the child, its ready line (parsed) and its exit;
 * `nodeArgs` go to node before the bin (SOAK_NODE_ARGS, e.g. `--cpu-prof` to see where the time goes).
 */
export function startSimulator(clock, nodeArgs = []) {
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      "--expose-gc",
      "--require",
      PROBE,
      CLI,
      "--port",
      "0",
      "--json",
      "--fixture",
      "demo",
      "--clock",
      clock,
    ],
    { stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  live.add(child);
  const exited = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const nl = out.indexOf("\n");
      if (nl !== -1 && out[0] === "{") resolve({ child, ready: JSON.parse(out.slice(0, nl)), exited });
    });
    exited.then(({ code, signal }) => reject(new Error(`retail-sim exited before it was ready (${code ?? signal})`)));
  });
}

/** VmRSS of the process, in bytes (read from /proc, so it costs the process nothing). */
export function residentBytes(pid) {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb === undefined ? null : Number(kb) * 1024;
}

/** User and system CPU time of the process, in seconds. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat(5) (utime, stime), counted here from field 3; clock ticks are 100 a second on Linux.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The heap after two full collections, and the resident size then, from the probe. */
export function heapAfterGc(child, timeoutMs = 120_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no answer from the heap probe")), timeoutMs);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    child.send("heap");
  });
}

/** Stops the simulator (SIGTERM, then SIGKILL after 10 s) and resolves with how it exited. */
export async function stopSimulator({ child, exited }) {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const result = await exited;
  clearTimeout(timer);
  return result;
}
