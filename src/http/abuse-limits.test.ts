// Abuse tests of the rate-limit windows (spec, Limits; docs/interfaces.md, Caps: rate-limit-keys;
// docs/spec-choices.md, Limits), in process on a manual clock never moved: a flood of failed
// authentication from many addresses keeps at most the cap of windows, the heap stays within a stated
// figure, and GET /me stays fast next to it (a generous ratio to its time alone, measured in the same test).
import { describe, expect, it } from "vitest";
import { heapAfterGc, MeProbe } from "../test-support/abuse.js";
import { call } from "../test-support/sim.js";
import { createSimulator, type SimulatorOptions } from "../simulator.js";
import { POLICIES } from "../engine/limits.js";

const MB = 1024 * 1024;
/** A simulator on a clock never moved, without the response check (which would double each request's time). */
const plainSim = (options: SimulatorOptions = {}) => createSimulator({ clock: "manual", seed: 1, ...options });
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe("Abuse, spec Limits: many addresses failing authentication", () => {
  it("12,000 failures from 6,000 addresses hold rate-limit-keys 1,000: at most 1,000 windows, the heap grows under 1 MB, GET /me within 4x its baseline", async () => {
    const sim = plainSim({ caps: { rateLimitKeys: 1_000 } });
    const ledger = sim.world.bounds.rateLimitWindows;
    const fail = async (from: number, to: number, step = async () => {}) => {
      for (let i = from; i < to; i++) {
        await step();
        const reply = await call(sim, "GET", "/demo/v1/me", {
          auth: `Bearer guess-${i}`,
          remoteAddress: address(i >> 1),
        });
        if (reply.status !== 401) throw new Error(`failure ${i} answered ${reply.status}`);
      }
    };
    const me = MeProbe.make(sim);
    await fail(0, 2_000); // warm up: the cap is reached and the code paths are compiled
    const baseline = await me.baseline();
    const before = await heapAfterGc();
    const during = await me.during((step) => fail(2_000, 12_000, step));
    const grown = (await heapAfterGc()) - before;
    expect(ledger.size).toBeLessThanOrEqual(1_000);
    expect(sim.world.limits.size).toBeLessThanOrEqual(1_000);
    expect(grown).toBeLessThan(1 * MB);
    expect(during / baseline).toBeLessThan(4);
  });

  it("with 150,000 windows offered to a sandbox allowed the process's default 100,000, on a frozen clock, a request costs what it costs with few: GET /me within 3x its baseline", async () => {
    const sim = plainSim({ caps: { rateLimitKeysPerSandbox: 100_000 } });
    const me = MeProbe.make(sim);
    const baseline = await me.baseline();
    const now = sim.world.env.clock.now();
    for (let i = 0; i < 150_000; i++)
      sim.world.limits.hit(POLICIES.failedAddress, address(i), now, { address: address(i) });
    expect(sim.world.limits.size).toBe(100_000);
    const held = await me.baseline();
    expect(held / baseline).toBeLessThan(3);
  });
});
