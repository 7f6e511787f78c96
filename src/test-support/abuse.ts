// What the abuse tests share: the heap after a full garbage collection, and a probe request timed
// alone and while an abusive stream runs beside it. Timings are only ever compared with a baseline
// taken in the same test, by a generous ratio.
import { setImmediate as turn } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Bytes of heap in use after full collections (two, so what the first one freed is gone too). */
export function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The milliseconds `probe` takes, `times` times in a row (each after a turn of the event loop). */
export async function timeProbe(probe: () => Promise<void>, times: number): Promise<number[]> {
  const taken: number[] = [];
  for (let i = 0; i < times; i++) {
    await turn();
    const start = performance.now();
    await probe();
    taken.push(performance.now() - start);
  }
  return taken;
}

/**
 * Runs `stream` (each step one abusive request) and, beside it, `probe` `times` times: both give the
 * event loop a turn between requests, as two clients of one server do. Returns the probe's timings.
 */
export async function probeAlongside(
  steps: number,
  step: (i: number) => Promise<void>,
  probe: () => Promise<void>,
  times: number,
): Promise<number[]> {
  const abuse = (async () => {
    for (let i = 0; i < steps; i++) {
      await turn();
      await step(i);
    }
  })();
  const [taken] = await Promise.all([timeProbe(probe, times), abuse]);
  return taken;
}
