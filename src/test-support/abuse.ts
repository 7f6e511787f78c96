// Helpers for the abuse tests (docs/interfaces.md, Caps): the heap after a full collection, and the
// time GET /me takes while a flood runs against the same simulator, as a ratio to its time alone.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Simulator } from "../simulator.js";
import { ORIGIN } from "./sim.js";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Bytes of heap in use after two full collections. */
export function heapAfterGc(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

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
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await this.once());
    return median(times);
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
