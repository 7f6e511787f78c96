// The simulator for the sandbox scenarios (bench/sandboxes.mjs): demo fixture, manual clock, a cap above
// the 1,000 live sandboxes measured. Run with --expose-gc; prints its URL when ready and answers the
// bench over IPC with its heap after a full collection, its resident memory and its CPU time.
import { createSimulator } from "../dist/src/simulator.js";

const sim = createSimulator({ clock: "manual", maxSandboxes: Number(process.argv[2] ?? 2000) });
await sim.listen(0);
process.on("message", (message) => {
  if (message === "heap") {
    // Twice: the first full collection can leave garbage that finalizers released.
    globalThis.gc();
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    process.send({ heapUsed, rss });
  } else if (message === "cpu") {
    const { user, system } = process.cpuUsage();
    process.send({ cpuMicros: user + system });
  }
});
process.stdout.write(`${sim.url}\n`);
