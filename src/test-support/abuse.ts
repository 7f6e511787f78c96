// What the abuse tests share: the heap after a full garbage collection, and a probe request timed
// alone and while an abusive stream runs beside it. Timings are only ever compared with a baseline
// taken in the same test, by a generous ratio.
import { setImmediate as turn } from "node:timers/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Simulator } from "../simulator.js";
import { ORIGIN } from "./sim.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Bytes of heap in use after full collections (two, so what the first one freed is gone too), once the
 * turn's deferred work is done: the request journal records the exchanges it was handed when the event
 * loop's turn ends (http/journal.ts).
 */
export async function heapAfterGc(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
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

/**
 * GET /demo/v1/me timed, with keys of its own made for it (each used 100 times at most, so the general
 * limit of 120 a minute never answers on a clock that does not move).
 */
export class MeProbe {
  private used = 0;

  private constructor(
    private readonly sim: Simulator,
    private readonly tokens: readonly string[],
  ) {}

  static make(sim: Simulator, keys = 30): MeProbe {
    const tokens = Array.from(
      { length: keys },
      (_, i) => sim.createKey("demo", { name: `probe ${i}`, scopes: [] }).token,
    );
    return new MeProbe(sim, tokens);
  }

  /** One GET /me; its duration in milliseconds (throws unless 200). */
  async once(): Promise<number> {
    const token = this.tokens[Math.floor(this.used++ / 100)];
    if (token === undefined) throw new Error("the probe's keys are used up: make it with more keys");
    const start = performance.now();
    const res = await this.sim.fetch(`${ORIGIN}/demo/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    await res.text();
    const took = performance.now() - start;
    if (res.status !== 200) throw new Error(`GET /me answered ${res.status}`);
    return took;
  }

  /** The median time of `n` GET /me in a row. */
  async baseline(n = 200): Promise<number> {
    return median(
      await timeProbe(async () => {
        await this.once();
      }, n),
    );
  }

  /**
   * Runs `flood`, which awaits `step()` before each request it sends; every `every` steps a GET /me
   * runs between two flood requests. The median time of those GET /me: in process one thread serves
   * both, so this is what a request costs while the flood's state is there.
   */
  async during(flood: (step: () => Promise<void>) => Promise<void>, every = 50): Promise<number> {
    let steps = 0;
    const times: number[] = [];
    await flood(async () => {
      steps += 1;
      if (steps % every === 0) times.push(await this.once());
    });
    if (times.length === 0) throw new Error("the flood sent fewer requests than one probe's interval");
    return median(times);
  }
}
