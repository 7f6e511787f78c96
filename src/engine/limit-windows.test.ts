// Tests of the rate-limit windows as a store of state (spec, Limits; docs/interfaces.md, Caps:
// rate-limit-keys; docs/spec-choices.md, Limits): a window is gone when its time ends, whatever else
// happens; the windows of every world of a process are held to one cap, the oldest going first,
// except that a failed-authentication or token-failure window at its limit is never let go early.
import { describe, expect, it } from "vitest";
import { POLICIES, RateLimiter, WindowLedger, type Policy } from "./limits.js";
import { call, makeSim } from "../test-support/sim.js";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const limiter = (cap: number, ledger = new WindowLedger(cap)) => new RateLimiter(true, ledger);
const { general, failedPair, failedAddress } = POLICIES;
/** Counts `n` events of `key` at `at`. */
const hits = (limits: RateLimiter, policy: Policy, key: string, n: number, at = T0) => {
  for (let i = 0; i < n; i++) limits.hit(policy, key, at);
};

describe("Rate-limit windows end on time, on the world's clock", () => {
  it("500 general windows opened at one instant are all gone at the first call 60 s later, none before", () => {
    const limits = limiter(1_000);
    for (let i = 0; i < 500; i++) limits.hit(general, `key-${i}`, T0);
    expect(limits.peek(general, "key-0", T0 + 59_999)).toEqual({ policy: general, used: 1, resetMs: 1 });
    expect(limits.size).toBe(500);
    expect(limits.peek(general, "other", T0 + 60_000)).toEqual({ policy: general, used: 0, resetMs: 0 });
    expect(limits.size).toBe(0);
  });

  it("each policy's windows end after that policy's length: 60 s for the general limit, 300 s for failed authentication", () => {
    const ledger = new WindowLedger(1_000);
    const limits = limiter(1_000, ledger);
    limits.hit(general, "k", T0);
    limits.hit(failedPair, "10.0.0.1\u0000", T0 + 1_000);
    limits.hit(general, "k2", T0 + 2_000);
    expect(limits.windows().map((w) => [w.policy, w.key])).toEqual([
      ["general", "k"],
      ["general", "k2"],
      ["failed-auth", "10.0.0.1\u0000"],
    ]);
    limits.peek(general, "k", T0 + 61_000);
    expect(limits.windows().map((w) => w.key)).toEqual(["k2", "10.0.0.1\u0000"]);
    limits.peek(general, "k", T0 + 62_000);
    expect(limits.windows().map((w) => w.key)).toEqual(["10.0.0.1\u0000"]);
    limits.peek(general, "k", T0 + 301_000);
    expect(limits.size).toBe(0);
    expect(ledger.size).toBe(0);
  });

  it("a key counted again after its window ended opens a new window that ends 60 s after its first new event", () => {
    const limits = limiter(10);
    limits.hit(general, "k", T0);
    limits.hit(general, "k", T0 + 30_000);
    expect(limits.hit(general, "k", T0 + 70_000)).toEqual({ policy: general, used: 1, resetMs: 60_000 });
    expect(limits.windows()).toEqual([{ policy: "general", key: "k", start: T0 + 70_000, count: 1 }]);
  });
});

describe("docs/interfaces.md, Caps: rate-limit-keys bounds the windows of the whole process, whatever the clock does", () => {
  it("on a frozen clock, 250 keys with a cap of 100 leave the newest 100 windows", () => {
    const ledger = new WindowLedger(100);
    const limits = limiter(100, ledger);
    for (let i = 0; i < 250; i++) limits.hit(failedAddress, `10.0.${i >> 8}.${i & 255}`, T0);
    expect(ledger.size).toBe(100);
    expect(limits.size).toBe(100);
    expect(limits.windows()[0]!.key).toBe("10.0.0.150");
    expect(limits.peek(failedAddress, "10.0.0.149", T0).used).toBe(0);
    expect(limits.peek(failedAddress, "10.0.0.249", T0).used).toBe(1);
  });

  it("a failed-authentication window at its limit outlives any flood: the lockout holds until its 5 minutes end", () => {
    const limits = limiter(100);
    const attacker = "10.9.9.9\u0000bearer:guess";
    hits(limits, failedPair, attacker, 30);
    // Ten thousand other pairs, each failing once, from as many addresses.
    for (let i = 0; i < 10_000; i++) limits.hit(failedPair, `10.1.${i >> 8}.${i & 255}\u0000`, T0 + 1_000);
    expect(limits.peek(failedPair, attacker, T0 + 2_000)).toEqual({ policy: failedPair, used: 30, resetMs: 298_000 });
    expect(limits.size).toBe(100);
    expect(limits.peek(failedPair, attacker, T0 + 300_000).used).toBe(0);
  });

  it("windows under their limit go first, oldest first; a general window at its limit goes after them", () => {
    const limits = limiter(3);
    hits(limits, general, "spent", 120);
    limits.hit(general, "b", T0);
    limits.hit(general, "c", T0);
    limits.hit(general, "d", T0);
    expect(limits.windows().map((w) => w.key)).toEqual(["spent", "c", "d"]);
    limits.hit(failedPair, "e", T0);
    limits.hit(failedPair, "f", T0);
    expect(limits.windows().map((w) => w.key)).toEqual(["spent", "e", "f"]);
    hits(limits, failedPair, "e", 29);
    hits(limits, failedPair, "f", 29);
    limits.hit(general, "g", T0);
    // Every window left is at its limit: the general one goes, the failed-authentication ones stay.
    expect(limits.windows().map((w) => w.key)).toEqual(["g", "e", "f"]);
  });

  it("a window refunded below its limit can go again, oldest first among those under their limit", () => {
    const limits = limiter(2);
    hits(limits, general, "a", 120);
    limits.hit(general, "b", T0);
    limits.refund(general, "a", T0);
    limits.hit(general, "c", T0);
    expect(limits.windows().map((w) => w.key)).toEqual(["a", "c"]);
  });

  it("when every window held is a failed-authentication window at its limit, a new key is refused as full and nothing is kept", () => {
    const ledger = new WindowLedger(2);
    const limits = limiter(2, ledger);
    for (const key of ["x", "y"]) hits(limits, failedPair, key, 30);
    const full = { policy: failedAddress, used: 300, resetMs: 300_000 };
    expect(limits.peek(failedAddress, "10.0.0.7", T0 + 1_000)).toEqual(full);
    expect(limits.hit(failedAddress, "10.0.0.7", T0 + 1_000)).toEqual(full);
    expect(limits.hit(general, "key", T0 + 1_000)).toEqual({ policy: general, used: 120, resetMs: 60_000 });
    expect(ledger.size).toBe(2);
    // When they end, there is room again.
    expect(limits.hit(failedAddress, "10.0.0.7", T0 + 300_000)).toEqual({ ...full, used: 1 });
    expect(ledger.size).toBe(1);
  });

  it("one cap for every limiter of the process: a second limiter's windows push out the first's oldest; a released limiter gives its share back and keeps nothing more", () => {
    const ledger = new WindowLedger(100);
    const first = limiter(100, ledger);
    const second = limiter(100, ledger);
    for (let i = 0; i < 100; i++) first.hit(general, `a${i}`, T0);
    for (let i = 0; i < 10; i++) second.hit(general, `b${i}`, T0);
    expect([first.size, second.size, ledger.size]).toEqual([90, 10, 100]);
    expect(first.peek(general, "a9", T0).used).toBe(0);
    first.release();
    expect([first.size, ledger.size]).toEqual([0, 10]);
    expect(first.hit(general, "late", T0).used).toBe(1);
    expect([first.size, ledger.size]).toEqual([0, 10]);
  });

  it("windows() exports each policy's windows oldest first, and restore() puts them back as they were", () => {
    const source = limiter(10);
    source.hit(general, "k1", T0);
    source.hit(failedPair, "p1", T0 + 5);
    source.hit(general, "k2", T0 + 10);
    source.hit(general, "k1", T0 + 20);
    const copy = limiter(10);
    copy.restore(source.windows());
    expect(copy.windows()).toEqual(source.windows());
    expect(copy.peek(general, "k1", T0 + 30)).toEqual(source.peek(general, "k1", T0 + 30));
    expect(copy.peek(failedPair, "p1", T0 + 300_005).used).toBe(0);
  });

  it("a limiter turned off counts and keeps nothing", () => {
    const ledger = new WindowLedger(10);
    const off = new RateLimiter(false, ledger);
    expect(off.hit(general, "k", T0)).toEqual({ policy: general, used: 0, resetMs: 0 });
    expect([off.size, ledger.size]).toEqual([0, 0]);
  });
});

describe("docs/interfaces.md, Caps: a sandbox reset or removed gives its windows back to the process", () => {
  it("with rate-limit-keys 40, windows of a removed sandbox and of the default sandbox before a reset no longer count", async () => {
    const sim = makeSim({ caps: { rateLimitKeys: 40 } });
    const ledger = sim.world.bounds.rateLimitWindows;
    const sandbox = sim.sandbox();
    const prefix = sandbox.view.stores[0]!.prefix;
    for (let i = 0; i < 10; i++) {
      const reply = await call(sim, "GET", `/${prefix}/v1/me`, { auth: "Bearer nope", remoteAddress: `10.0.0.${i}` });
      expect(reply.status).toBe(401);
    }
    expect(ledger.size).toBe(20);
    for (let i = 0; i < 5; i++) await call(sim, "GET", "/demo/v1/me", { auth: null, remoteAddress: `10.1.0.${i}` });
    expect(ledger.size).toBe(30);
    sandbox.remove();
    expect(ledger.size).toBe(10);
    sim.reset();
    expect(ledger.size).toBe(0);
    expect((await call(sim, "GET", "/demo/v1/me", { key: "full" })).status).toBe(200);
    expect(ledger.size).toBe(1);
  });
});
