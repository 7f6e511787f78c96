import { describe, expect, it } from "vitest";
import { Pacer } from "./pacer.js";

// Spec, Limits: 120 requests per credential per minute (30 more on customer endpoints). The pacer
// learns each credential's windows from `RateLimit`, waits a window out before it runs dry, and
// hands each rule the key with the most budget left, so several keys' windows run down side by side.

function clock() {
  let now = 0;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => void (waits.push(ms), (now += ms)),
    waits,
    tick: (ms: number) => (now += ms),
  };
}
const rate = (limit: number, remaining: number, reset: number) => ({
  ratelimit: `limit=${limit}, remaining=${remaining}, reset=${reset}`,
});

describe("Pacer", () => {
  it("waits out a credential's window before it runs dry, and only for that credential", async () => {
    const c = clock();
    const pacer = new Pacer({ sleep: c.sleep, now: c.now });
    await pacer.after("a", 200, rate(120, 9, 42));
    await pacer.before("b");
    expect(c.waits).toEqual([]);
    await pacer.before("a");
    expect(c.waits).toEqual([42_000]);
    expect(pacer.waitedMs).toBe(42_000);
    // The window has ended: no more waiting for it.
    await pacer.before("a");
    expect(c.waits).toEqual([42_000]);
  });

  it("the customers window (30) is kept apart from the general one, with its own reserve", async () => {
    const c = clock();
    const pacer = new Pacer({ sleep: c.sleep, now: c.now });
    await pacer.after("a", 200, rate(120, 100, 60));
    await pacer.after("a", 200, rate(30, 8, 20));
    await pacer.before("a");
    expect(c.waits).toEqual([]);
    await pacer.after("a", 200, rate(30, 7, 20));
    await pacer.before("a");
    expect(c.waits).toEqual([20_000]);
  });

  it("picks the key with the most budget left; a key not yet used counts as full", async () => {
    const c = clock();
    const pacer = new Pacer({ sleep: c.sleep, now: c.now });
    await pacer.after("a", 200, rate(120, 15, 60));
    await pacer.after("b", 200, rate(120, 80, 60));
    expect(pacer.pick(["a", "b"])).toBe("b");
    expect(pacer.pick(["a", "b", "c"])).toBe("c");
    c.tick(61_000);
    // Both windows have ended: the first key listed is as good as any.
    expect(pacer.pick(["a", "b"])).toBe("a");
  });

  it("when no key has what a rule needs to spare, picks the one whose low window ends soonest", async () => {
    const c = clock();
    const pacer = new Pacer({ sleep: c.sleep, now: c.now });
    await pacer.after("a", 200, rate(120, 30, 50));
    await pacer.after("b", 200, rate(120, 12, 5));
    // 25 requests: a has 20 to spare (30 less the reserve of 10), b has 2: neither has them; b's window ends first.
    expect(pacer.pick(["a", "b"], 25)).toBe("b");
    // 15 requests: a has them to spare, and is picked over b.
    expect(pacer.pick(["a", "b"], 15)).toBe("a");
  });

  it("a 429 it did not ask for is counted and its Retry-After waited out; with a control plane the clock moves instead", async () => {
    const c = clock();
    const moved: number[] = [];
    const pacer = new Pacer({ sleep: c.sleep, now: c.now, advance: async (s) => (moved.push(s), true) });
    await pacer.after("a", 429, { ...rate(120, 0, 30), "retry-after": "7" });
    expect(pacer.unrequested429).toBe(1);
    expect(moved).toEqual([7]);
    expect(c.waits).toEqual([]);
    expect(pacer.waitedMs).toBe(0);
  });

  it("--rate spaces requests across every key", async () => {
    const c = clock();
    const pacer = new Pacer({ perMinute: 30, sleep: c.sleep, now: c.now });
    await pacer.before("a");
    await pacer.before("b");
    await pacer.before("a");
    expect(c.waits).toEqual([2_000, 2_000]);
  });
});
