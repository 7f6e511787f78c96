// Abuse tests of the consent screen's sign-in (spec, Authentication 3; docs/interfaces.md, Caps:
// oauth-pending, rate-limit-keys; docs/spec-choices.md, OAuth), in process on a manual clock never
// moved: a stream of sign-ins keeps at most the cap of them, a sign-in with a huge state keeps nothing,
// failed sign-ins from many addresses keep at most the cap of windows without lifting a lockout, the
// heap stays within a stated figure and GET /me stays fast next to it (a ratio to its time alone).
import { describe, expect, it } from "vitest";
import { heapAfterGc, MeProbe } from "../test-support/abuse.js";
import { fixture, postSignIn, type Fixture } from "../test-support/oauth.js";
import { createSimulator, type Simulator, type SimulatorOptions } from "../simulator.js";

const MB = 1024 * 1024;
/** A simulator on a clock never moved, without the response check (which would double each request's time). */
const plainSim = (options: SimulatorOptions = {}) => createSimulator({ clock: "manual", seed: 1, ...options });

/** The status of a sign-in posted on the consent screen. */
const signIn = async (sim: Simulator, fx: Fixture, over: Record<string, string>, address = "127.0.0.1") =>
  (await postSignIn(sim, fx, over, address)).status;

/** Every status is `status` (the odd ones out are shown). */
const expectStatuses = (statuses: number[], status: number) => expect(statuses.filter((s) => s !== status)).toEqual([]);

describe("Abuse, spec Authentication 3: many sign-ins", () => {
  it("3,000 sign-ins with a 1,024-character state hold oauth-pending 500: at most 500 kept, the heap grows under 1 MB, GET /me within 4x its baseline", async () => {
    const sim = plainSim({ caps: { oauthPending: 500 } });
    const fx = await fixture(sim);
    const me = MeProbe.make(sim);
    const run = async (n: number, step = async () => {}) => {
      const statuses = [];
      for (let i = 0; i < n; i++) {
        await step();
        statuses.push(await signIn(sim, fx, { state: `${i}`.padEnd(1024, "s") }));
      }
      expectStatuses(statuses, 200);
    };
    await run(1_000); // warm up: the cap is reached and the code paths are compiled
    const baseline = await me.baseline();
    const before = await heapAfterGc();
    const during = await me.during((step) => run(2_000, step));
    const grown = (await heapAfterGc()) - before;
    expect(sim.world.oauth.tickets.size).toBe(500);
    expect(grown).toBeLessThan(1 * MB);
    expect(during / baseline).toBeLessThan(4);
  });

  it("20 sign-ins with a state of a megabyte are refused and keep nothing: the heap grows under 1 MB", async () => {
    const sim = plainSim();
    const fx = await fixture(sim);
    await signIn(sim, fx, { state: "s".repeat(1_000_000) });
    const before = await heapAfterGc();
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await signIn(sim, fx, { state: `${i}`.padEnd(1_000_000, "s") }));
    expectStatuses(statuses, 302);
    expect((await heapAfterGc()) - before).toBeLessThan(1 * MB);
    expect(sim.world.oauth.tickets.size).toBe(0);
  });

  it("6,000 failed sign-ins from as many addresses on as many accounts hold rate-limit-keys 1,000, and an account locked before stays locked", async () => {
    const sim = plainSim({ caps: { rateLimitKeys: 1_000 } });
    const fx = await fixture(sim);
    const me = MeProbe.make(sim);
    const locked = [];
    for (let i = 0; i < 10; i++) locked.push(await signIn(sim, fx, { password: `wrong-${i}` }, "10.200.0.1"));
    expectStatuses(locked, 401);
    const baseline = await me.baseline();
    const during = await me.during(async (step) => {
      const statuses = [];
      for (let i = 0; i < 6_000; i++) {
        await step();
        const address = `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
        statuses.push(await signIn(sim, fx, { email: `guess-${i}@demo.example`, password: "x" }, address));
      }
      expectStatuses(statuses, 401);
    });
    expect(sim.world.bounds.rateLimitWindows.size).toBeLessThanOrEqual(1_000);
    expect(await signIn(sim, fx, {}, "10.200.0.2")).toBe(429);
    expect(during / baseline).toBeLessThan(4);
  });
});
