// Tests of the rate-limit windows as a store of state (spec, Limits; docs/interfaces.md, Caps:
// rate-limit-keys; docs/spec-choices.md, Limits): a window is gone when its time ends, whatever else
// happens; the windows of every world of a process are held to one cap, the oldest going first,
// except that a failed-authentication or token-failure window at its limit is never let go early.
import { describe, expect, it } from "vitest";
import { POLICIES, RateLimiter, WindowLedger, type Payer, type Policy } from "./limits.js";
import { call, makeSim } from "../test-support/sim.js";

const T0 = Date.parse("2026-01-01T00:00:00Z");
/** A ledger with each sandbox's pools of `cap`, each caller's and the process's (both `cap` unless given). */
const ledgerOf = (cap: number, perCaller = cap, process = cap) =>
  new WindowLedger({ rateLimitKeys: process, rateLimitKeysPerSandbox: cap, rateLimitKeysPerCaller: perCaller });
const limiter = (cap: number, ledger = ledgerOf(cap)) => new RateLimiter(true, ledger);
/** Who the pipeline charges: a failure window to the address its key starts with, a credential's limit to it. */
const payerOf = (policy: Policy, key: string): Payer =>
  policy.guards ? { address: key.split("\u0000")[0] as string } : { credential: key };
const hit = (limits: RateLimiter, policy: Policy, key: string, at = T0) =>
  limits.hit(policy, key, at, payerOf(policy, key));
const { general, failedPair, failedAddress } = POLICIES;
/** Counts `n` events of `key` at `at`. */
const hits = (limits: RateLimiter, policy: Policy, key: string, n: number, at = T0) => {
  for (let i = 0; i < n; i++) hit(limits, policy, key, at);
};

describe("Rate-limit windows end on time, on the world's clock", () => {
  it("500 general windows opened at one instant are all gone at the first call 60 s later, none before", () => {
    const limits = limiter(1_000);
    for (let i = 0; i < 500; i++) hit(limits, general, `key-${i}`, T0);
    expect(limits.peek(general, "key-0", T0 + 59_999)).toEqual({ policy: general, used: 1, resetMs: 1 });
    expect(limits.size).toBe(500);
    expect(limits.peek(general, "other", T0 + 60_000)).toEqual({ policy: general, used: 0, resetMs: 0 });
    expect(limits.size).toBe(0);
  });

  it("each policy's windows end after that policy's length: 60 s for the general limit, 300 s for failed authentication", () => {
    const ledger = ledgerOf(1_000);
    const limits = limiter(1_000, ledger);
    hit(limits, general, "k", T0);
    hit(limits, failedPair, "10.0.0.1\u0000", T0 + 1_000);
    hit(limits, general, "k2", T0 + 2_000);
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
    hit(limits, general, "k", T0);
    hit(limits, general, "k", T0 + 30_000);
    expect(hit(limits, general, "k", T0 + 70_000)).toEqual({ policy: general, used: 1, resetMs: 60_000 });
    expect(limits.windows()).toEqual([{ policy: "general", key: "k", start: T0 + 70_000, count: 1 }]);
  });
});

describe("docs/interfaces.md, Caps: rate-limit-keys bounds the windows of the whole process, whatever the clock does", () => {
  it("on a frozen clock, 250 keys with a cap of 100 leave the newest 100 windows", () => {
    const ledger = ledgerOf(100);
    const limits = limiter(100, ledger);
    for (let i = 0; i < 250; i++) hit(limits, failedAddress, `10.0.${i >> 8}.${i & 255}`, T0);
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
    for (let i = 0; i < 10_000; i++) hit(limits, failedPair, `10.1.${i >> 8}.${i & 255}\u0000`, T0 + 1_000);
    expect(limits.peek(failedPair, attacker, T0 + 2_000)).toEqual({ policy: failedPair, used: 30, resetMs: 298_000 });
    expect(limits.size).toBe(100);
    expect(limits.peek(failedPair, attacker, T0 + 300_000).used).toBe(0);
  });

  it("in a pool at its cap, windows under their limit go first, oldest first; a general window at its limit goes after them; a failed-authentication one at its limit stays", () => {
    const limits = limiter(3);
    hits(limits, general, "spent", 120);
    hit(limits, general, "b", T0);
    hit(limits, general, "c", T0);
    hit(limits, general, "d", T0);
    expect(limits.windows().map((w) => w.key)).toEqual(["spent", "c", "d"]);
    // A known credential's failed pairs share the pool of the credentials' own limits.
    const pair = (key: string) => limits.hit(failedPair, key, T0, { credential: key });
    pair("e");
    pair("f");
    expect(limits.windows().map((w) => w.key)).toEqual(["spent", "e", "f"]);
    for (let i = 0; i < 29; i++) pair("e"), pair("f");
    hit(limits, general, "g", T0);
    // Every window left is at its limit: the general one goes, the failed-authentication ones stay.
    expect(limits.windows().map((w) => w.key)).toEqual(["g", "e", "f"]);
  });

  it("a window refunded below its limit can go again, oldest first among those under their limit", () => {
    const limits = limiter(2);
    hits(limits, general, "a", 120);
    hit(limits, general, "b", T0);
    limits.refund(general, "a", T0);
    hit(limits, general, "c", T0);
    expect(limits.windows().map((w) => w.key)).toEqual(["a", "c"]);
  });

  it("when a pool holds only failed-authentication windows at their limit, a new address's failure is neither kept nor refused, and a credential's own limit is counted in its own pool", () => {
    const ledger = ledgerOf(2, 2, 10);
    const limits = limiter(2, ledger);
    for (const key of ["10.0.0.1", "10.0.0.2"]) hits(limits, failedAddress, key, 300);
    const unused = { policy: failedAddress, used: 0, resetMs: 0 };
    expect(limits.peek(failedAddress, "10.0.0.7", T0 + 1_000)).toEqual(unused);
    hit(limits, failedAddress, "10.0.0.7", T0 + 1_000);
    expect(limits.peek(failedAddress, "10.0.0.7", T0 + 1_000)).toEqual(unused);
    expect(hit(limits, general, "key", T0 + 1_000)).toEqual({ policy: general, used: 1, resetMs: 60_000 });
    expect(ledger.size).toBe(3);
    // When they end, there is room again.
    expect(hit(limits, failedAddress, "10.0.0.7", T0 + 300_000)).toEqual({ ...unused, used: 1, resetMs: 300_000 });
  });

  it("at the process cap, when no world can let a window go, a credential's own limit reads as full and nothing is kept", () => {
    const ledger = ledgerOf(2);
    const limits = limiter(2, ledger);
    for (const key of ["10.0.0.1", "10.0.0.2"]) hits(limits, failedAddress, key, 300);
    const full = { policy: general, used: 120, resetMs: 60_000 };
    expect(limits.peek(general, "key", T0 + 1_000)).toEqual(full);
    expect(hit(limits, general, "key", T0 + 1_000)).toEqual(full);
    expect(ledger.size).toBe(2);
  });

  it("rate-limit-keys-per-caller: an address's windows past its cap let its own oldest go, never another address's or a credential's", () => {
    const ledger = ledgerOf(100, 3);
    const limits = limiter(100, ledger);
    hit(limits, general, "key", T0);
    hit(limits, failedAddress, "10.0.0.1", T0);
    for (let i = 0; i < 5; i++) limits.hit(failedPair, `10.0.0.9\u0000guess-${i}`, T0, { address: "10.0.0.9" });
    expect(limits.windows().map((w) => w.key)).toEqual([
      "key",
      "10.0.0.9\u0000guess-2",
      "10.0.0.9\u0000guess-3",
      "10.0.0.9\u0000guess-4",
      "10.0.0.1",
    ]);
  });

  it("windows of strangers never take a window of a known credential: each pool has its own cap", () => {
    const limits = limiter(2, ledgerOf(2, 2, 100));
    hit(limits, general, "k1", T0);
    hit(limits, general, "k2", T0);
    for (let i = 0; i < 50; i++) hit(limits, failedAddress, `10.1.0.${i}`, T0);
    expect(limits.peek(general, "k1", T0)).toEqual({ policy: general, used: 1, resetMs: 60_000 });
    expect(limits.peek(general, "k2", T0).used).toBe(1);
    expect(limits.size).toBe(4);
  });

  it("rate-limit-keys, the process's last line: past it the world holding the most lets its own oldest go, never a world holding fewer; a released limiter gives its share back and keeps nothing more", () => {
    const ledger = ledgerOf(100, 100, 100);
    const first = limiter(100, ledger);
    const second = limiter(100, ledger);
    for (let i = 0; i < 10; i++) hit(second, general, `b${i}`, T0);
    for (let i = 0; i < 200; i++) hit(first, general, `a${i}`, T0);
    expect([first.size, second.size, ledger.size]).toEqual([90, 10, 100]);
    expect(second.peek(general, "b0", T0).used).toBe(1);
    expect(first.peek(general, "a109", T0).used).toBe(0);
    // The smaller world grows at the larger one's expense until they are even.
    for (let i = 10; i < 100; i++) hit(second, general, `b${i}`, T0);
    expect([first.size, second.size, ledger.size]).toEqual([50, 50, 100]);
    first.release();
    expect([first.size, ledger.size]).toEqual([0, 50]);
    expect(hit(first, general, "late", T0).used).toBe(1);
    expect([first.size, ledger.size]).toEqual([0, 50]);
  });

  it("windows() exports each policy's windows oldest first, and restore() puts them back as they were", () => {
    const source = limiter(10);
    hit(source, general, "k1", T0);
    hit(source, failedPair, "p1", T0 + 5);
    hit(source, general, "k2", T0 + 10);
    hit(source, general, "k1", T0 + 20);
    const copy = limiter(10);
    copy.restore(source.windows());
    expect(copy.windows()).toEqual(source.windows());
    expect(copy.peek(general, "k1", T0 + 30)).toEqual(source.peek(general, "k1", T0 + 30));
    expect(copy.peek(failedPair, "p1", T0 + 300_005).used).toBe(0);
  });

  it("a limiter turned off counts and keeps nothing", () => {
    const ledger = ledgerOf(10);
    const off = new RateLimiter(false, ledger);
    expect(hit(off, general, "k", T0)).toEqual({ policy: general, used: 0, resetMs: 0 });
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
