// Tests of the spec's rate limits (retail-api-v1.md: Limits; Errors: RATE_LIMITED) and the chosen window
// semantics: fixed windows opening at the first counted request; general 120 per 60 s per credential;
// failed authentication (401, 402, 403) 30 per 5 minutes per address and Authorization value, 300 per address.
// Every test uses a fresh simulator on a manual clock; time only moves through sim.clock.advance.
import { describe, expect, it } from "vitest";
import { call, makeSim, type CallOptions, type Reply } from "../test-support/sim.js";
import type { Simulator } from "../simulator.js";
import { expectError } from "../test-support/errors.js";

const ME = "/demo/v1/me";
const GENERAL_POLICY = "120;w=60";
const FAILED_AUTH_POLICY = "30;w=300";

/** `limit=120, remaining=N, reset=S` as numbers; fails the test on another shape. */
function rateLimitOf(reply: Reply): { limit: number; remaining: number; reset: number } {
  const header = reply.headers.get("ratelimit");
  expect(header).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
  const [, limit, remaining, reset] = /^limit=(\d+), remaining=(\d+), reset=(\d+)$/.exec(header!)!;
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}

function expectHeaders(reply: Reply, policy: string, value: string): void {
  expect({ policy: reply.headers.get("ratelimit-policy"), value: reply.headers.get("ratelimit") }).toEqual({
    policy,
    value,
  });
}

/** A 429 in the spec's envelope with code RATE_LIMITED and the given Retry-After (seconds). */
function expectRateLimited(reply: Reply, retryAfter: number): void {
  expectError(reply, 429, "RATE_LIMITED");
  expect(reply.headers.get("retry-after")).toBe(String(retryAfter));
}

/** Sends `n` identical requests and returns the replies. */
async function repeat(
  sim: Simulator,
  n: number,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < n; i++) replies.push(await call(sim, method, path, options));
  return replies;
}

const statuses = (replies: Reply[]) => replies.map((r) => r.status);

describe("Spec, Limits: requests per credential, 120 per minute", () => {
  it("120 requests answer 200 and the 121st answers 429 RATE_LIMITED with Retry-After 60 and remaining=0", async () => {
    const sim = makeSim();
    const ok = await repeat(sim, 120, "GET", ME, { key: "full" });
    expect(statuses(ok)).toEqual(Array(120).fill(200));
    const refused = await call(sim, "GET", ME, { key: "full" });
    expectRateLimited(refused, 60);
    expectHeaders(refused, GENERAL_POLICY, "limit=120, remaining=0, reset=60");
  });

  it("RateLimit remaining counts down exactly from 119 to 0 while reset stays 60 on a standing clock", async () => {
    const sim = makeSim();
    const replies = await repeat(sim, 120, "GET", ME, { key: "full" });
    expect(replies.map((r) => r.headers.get("ratelimit"))).toEqual(
      Array.from({ length: 120 }, (_, i) => `limit=120, remaining=${119 - i}, reset=60`),
    );
    expect(replies.every((r) => r.headers.get("ratelimit-policy") === GENERAL_POLICY)).toBe(true);
  });

  it("further requests after the first 429 keep answering 429 until the window ends", async () => {
    const sim = makeSim();
    await repeat(sim, 120, "GET", ME, { key: "full" });
    const refused = await repeat(sim, 5, "GET", ME, { key: "full" });
    for (const reply of refused) expectRateLimited(reply, 60);
  });

  it("reset and Retry-After count down with the clock: exhausted 15 s into the window, Retry-After is 45", async () => {
    const sim = makeSim();
    expect(rateLimitOf(await call(sim, "GET", ME, { key: "full" }))).toEqual({ limit: 120, remaining: 119, reset: 60 });
    sim.clock.advance(15);
    const second = await call(sim, "GET", ME, { key: "full" });
    expect(rateLimitOf(second)).toEqual({ limit: 120, remaining: 118, reset: 45 });
    await repeat(sim, 118, "GET", ME, { key: "full" });
    const refused = await call(sim, "GET", ME, { key: "full" });
    expectRateLimited(refused, 45);
    expect(rateLimitOf(refused)).toEqual({ limit: 120, remaining: 0, reset: 45 });
  });

  it("moving the clock 59 s leaves the 429 in place (Retry-After 1); moving it 60 s opens a new window", async () => {
    const sim = makeSim();
    await repeat(sim, 120, "GET", ME, { key: "full" });
    expectRateLimited(await call(sim, "GET", ME, { key: "full" }), 60);
    sim.clock.advance(59);
    expectRateLimited(await call(sim, "GET", ME, { key: "full" }), 1);
    sim.clock.advance(1);
    const reply = await call(sim, "GET", ME, { key: "full" });
    expect(reply.status).toBe(200);
    expectHeaders(reply, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
  });

  it("the new window after 60 s allows 120 requests again, then 429", async () => {
    const sim = makeSim();
    await repeat(sim, 121, "GET", ME, { key: "full" });
    sim.clock.advance(60);
    expect(statuses(await repeat(sim, 120, "GET", ME, { key: "full" }))).toEqual(Array(120).fill(200));
    expectRateLimited(await call(sim, "GET", ME, { key: "full" }), 60);
  });

  it("the window opens at the first counted request, not on a clock-aligned minute", async () => {
    const sim = makeSim();
    sim.clock.advance(30);
    expect(rateLimitOf(await call(sim, "GET", ME, { key: "full" }))).toEqual({ limit: 120, remaining: 119, reset: 60 });
    sim.clock.advance(40); // 70 s on the clock, 40 s into the window
    expect(rateLimitOf(await call(sim, "GET", ME, { key: "full" }))).toEqual({ limit: 120, remaining: 118, reset: 20 });
    sim.clock.advance(20); // 60 s into the window: a new one opens
    expect(rateLimitOf(await call(sim, "GET", ME, { key: "full" }))).toEqual({ limit: 120, remaining: 119, reset: 60 });
  });

  it("separate credentials have separate windows: with `full` exhausted, `read` answers 200 with remaining=119", async () => {
    const sim = makeSim();
    await repeat(sim, 120, "GET", ME, { key: "full" });
    expectRateLimited(await call(sim, "GET", ME, { key: "full" }), 60);
    const read = await call(sim, "GET", ME, { key: "read" });
    expect(read.status).toBe(200);
    expectHeaders(read, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
    const other = await call(sim, "GET", "/other/v1/me", { key: "full" });
    expect(other.status).toBe(200);
    expectHeaders(other, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
  });

  it("the window is per credential, not per endpoint: requests to different endpoints share it", async () => {
    const sim = makeSim();
    const paths = ["/me", "/store", "/outlets", "/payment-types", "/taxes", "/inventory/adjustment-reasons"];
    for (let i = 0; i < 120; i++) {
      const reply = await call(sim, "GET", `/demo/v1${paths[i % paths.length]}`, { key: "full" });
      expect({ i, status: reply.status }).toEqual({ i, status: 200 });
    }
    expectRateLimited(await call(sim, "GET", "/demo/v1/taxes", { key: "full" }), 60);
  });

  it("the window is per credential, not per address: the same key from a second address is also refused", async () => {
    const sim = makeSim();
    await repeat(sim, 120, "GET", ME, { key: "full", remoteAddress: "10.0.0.1" });
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: "10.0.0.2" }), 60);
  });
});

describe("Spec, Limits: every response carries RateLimit-Policy and RateLimit", () => {
  it("a 200 carries the general window: 120;w=60 and limit=120, remaining=119, reset=60", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", ME, { key: "full" });
    expect(reply.status).toBe(200);
    expectHeaders(reply, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
  });

  it("a 400 VALIDATION_FAILED carries the general window", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/outlets?limit=0", { key: "full" });
    expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status: 400, code: "VALIDATION_FAILED" });
    expectHeaders(reply, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
  });

  it("a 404 NOT_FOUND for an unknown path carries the general window", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/no-such-thing", { key: "full" });
    expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status: 404, code: "NOT_FOUND" });
    expectHeaders(reply, GENERAL_POLICY, "limit=120, remaining=119, reset=60");
  });

  it("a 401 without a credential carries the failed-auth window: 30;w=300 and limit=30, remaining=29, reset=300", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", ME, { auth: null });
    expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status: 401, code: "UNAUTHORIZED" });
    expectHeaders(reply, FAILED_AUTH_POLICY, "limit=30, remaining=29, reset=300");
  });

  it("a 401 for an unknown token carries the failed-auth window", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", ME, { auth: "Bearer rsk_unknown" });
    expect(reply.status).toBe(401);
    expectHeaders(reply, FAILED_AUTH_POLICY, "limit=30, remaining=29, reset=300");
  });

  it("403 INSUFFICIENT_SCOPE and 402 PLAN_REQUIRED responses carry RateLimit-Policy and RateLimit too", async () => {
    const sim = makeSim();
    const scope = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { key: "none" });
    const plan = await call(sim, "GET", "/lite/v1/me", { key: "full" });
    for (const reply of [scope, plan]) {
      expect(reply.headers.get("ratelimit-policy")).toMatch(/^\d+;w=\d+$/);
      rateLimitOf(reply);
    }
    expect(scope.status).toBe(403);
    expect(plan.status).toBe(402);
  });
});

describe("Spec, Limits: failed authentication, per network address and credential, 30 per 5 minutes", () => {
  const BAD = "Bearer rsk_notARealToken000000000000000000000000";
  const A = "10.1.1.1";
  const B = "10.1.1.2";

  it("30 failures answer 401 with remaining counting down 29..0; the 31st request of the pair answers 429 with Retry-After 300", async () => {
    const sim = makeSim();
    const failures = await repeat(sim, 30, "GET", ME, { auth: BAD, remoteAddress: A });
    expect(statuses(failures)).toEqual(Array(30).fill(401));
    expect(failures.map((r) => r.headers.get("ratelimit"))).toEqual(
      Array.from({ length: 30 }, (_, i) => `limit=30, remaining=${29 - i}, reset=300`),
    );
    const blocked = await call(sim, "GET", ME, { auth: BAD, remoteAddress: A });
    expectRateLimited(blocked, 300);
    expectHeaders(blocked, FAILED_AUTH_POLICY, "limit=30, remaining=0, reset=300");
  });

  it("every further request of the blocked pair answers 429 until the window ends", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", ME, { auth: BAD, remoteAddress: A });
    for (const reply of await repeat(sim, 5, "GET", "/demo/v1/store", { auth: BAD, remoteAddress: A }))
      expectRateLimited(reply, 300);
  });

  it("403 INSUFFICIENT_SCOPE counts: after 30, the same key from the same address answers 429 even on GET /me", async () => {
    const sim = makeSim();
    const failures = await repeat(sim, 30, "GET", "/demo/v1/inventory/adjustment-reasons", {
      key: "none",
      remoteAddress: A,
    });
    expect(statuses(failures)).toEqual(Array(30).fill(403));
    expectRateLimited(await call(sim, "GET", ME, { key: "none", remoteAddress: A }), 300);
  });

  it("402 counts: after 30 PLAN_REQUIRED answers, the lite key from the same address answers 429", async () => {
    const sim = makeSim();
    const failures = await repeat(sim, 30, "GET", "/lite/v1/me", { key: "full", remoteAddress: A });
    expect(statuses(failures)).toEqual(Array(30).fill(402));
    expectRateLimited(await call(sim, "GET", "/lite/v1/me", { key: "full", remoteAddress: A }), 300);
  });

  it("403 store-status answers count: after 30 RETAILER_SUSPENDED, the 31st answers 429", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { status: "suspended" });
    const failures = await repeat(sim, 30, "GET", ME, { key: "full", remoteAddress: A });
    expect(statuses(failures)).toEqual(Array(30).fill(403));
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
  });

  it("the block is per pair: another address with the same Authorization, and the same address with another credential, are unaffected", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", "/demo/v1/inventory/adjustment-reasons", { key: "none", remoteAddress: A });
    expectRateLimited(await call(sim, "GET", ME, { key: "none", remoteAddress: A }), 300);
    expect((await call(sim, "GET", ME, { key: "none", remoteAddress: B })).status).toBe(200);
    expect((await call(sim, "GET", ME, { key: "full", remoteAddress: A })).status).toBe(200);
    expect((await call(sim, "GET", ME, { auth: "Bearer rsk_someOtherBadToken", remoteAddress: A })).status).toBe(401);
  });

  it("an unknown token blocked at one address still answers 401 (not 429) from another address", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", ME, { auth: BAD, remoteAddress: A });
    expectRateLimited(await call(sim, "GET", ME, { auth: BAD, remoteAddress: A }), 300);
    const elsewhere = await call(sim, "GET", ME, { auth: BAD, remoteAddress: B });
    expect(elsewhere.status).toBe(401);
    expectHeaders(elsewhere, FAILED_AUTH_POLICY, "limit=30, remaining=29, reset=300");
  });

  it("Retry-After is the time left in the 5-minute window that opened at the first failure", async () => {
    const sim = makeSim();
    await call(sim, "GET", ME, { auth: BAD, remoteAddress: A });
    sim.clock.advance(100);
    await repeat(sim, 29, "GET", ME, { auth: BAD, remoteAddress: A });
    const blocked = await call(sim, "GET", ME, { auth: BAD, remoteAddress: A });
    expectRateLimited(blocked, 200);
    expect(rateLimitOf(blocked)).toEqual({ limit: 30, remaining: 0, reset: 200 });
  });

  it("moving the clock 299 s keeps the block (Retry-After 1); 5 minutes lifts it and 30 new failures are allowed", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", "/demo/v1/inventory/adjustment-reasons", { key: "none", remoteAddress: A });
    expectRateLimited(await call(sim, "GET", ME, { key: "none", remoteAddress: A }), 300);
    sim.clock.advance(299);
    expectRateLimited(await call(sim, "GET", ME, { key: "none", remoteAddress: A }), 1);
    sim.clock.advance(1);
    expect((await call(sim, "GET", ME, { key: "none", remoteAddress: A })).status).toBe(200);
    const again = await repeat(sim, 30, "GET", "/demo/v1/inventory/adjustment-reasons", {
      key: "none",
      remoteAddress: A,
    });
    expect(statuses(again)).toEqual(Array(30).fill(403));
    expectRateLimited(await call(sim, "GET", ME, { key: "none", remoteAddress: A }), 300);
  });

  it("moving the clock 5 minutes lifts the block of an unknown token: it answers 401 again with a fresh window", async () => {
    const sim = makeSim();
    await repeat(sim, 31, "GET", ME, { auth: BAD, remoteAddress: A });
    sim.clock.advance(300);
    const reply = await call(sim, "GET", ME, { auth: BAD, remoteAddress: A });
    expect(reply.status).toBe(401);
    expectHeaders(reply, FAILED_AUTH_POLICY, "limit=30, remaining=29, reset=300");
  });
});

describe("Spec, Limits: failed authentication, per network address, 300 per 5 minutes", () => {
  const A = "10.2.2.2";
  const B = "10.2.2.3";
  const bad = (i: number) => `Bearer rsk_bad${String(i).padStart(4, "0")}`;

  async function failDistinct(sim: Simulator, n: number, address: string, from = 0): Promise<Reply[]> {
    const replies: Reply[] = [];
    for (let i = from; i < from + n; i++)
      replies.push(await call(sim, "GET", ME, { auth: bad(i), remoteAddress: address }));
    return replies;
  }

  it("300 failures with distinct tokens answer 401; then every request from the address answers 429, valid key included", async () => {
    const sim = makeSim();
    expect(statuses(await failDistinct(sim, 300, A))).toEqual(Array(300).fill(401));
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
    expectRateLimited(await call(sim, "GET", "/other/v1/me", { key: "full", remoteAddress: A }), 300);
    expectRateLimited(await call(sim, "GET", ME, { auth: bad(9999), remoteAddress: A }), 300);
    expectRateLimited(await call(sim, "GET", ME, { auth: null, remoteAddress: A }), 300);
  });

  it("299 failures leave the address open: a valid key answers 200, and the 300th failure still answers 401", async () => {
    const sim = makeSim();
    expect(statuses(await failDistinct(sim, 299, A))).toEqual(Array(299).fill(401));
    expect((await call(sim, "GET", ME, { key: "full", remoteAddress: A })).status).toBe(200);
    expect((await call(sim, "GET", ME, { auth: bad(299), remoteAddress: A })).status).toBe(401);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
  });

  it("another address is unaffected: valid keys answer 200 and a bad token answers 401", async () => {
    const sim = makeSim();
    await failDistinct(sim, 300, A);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
    const ok = await call(sim, "GET", ME, { key: "full", remoteAddress: B });
    expect(ok.status).toBe(200);
    expect((await call(sim, "GET", ME, { auth: bad(0), remoteAddress: B })).status).toBe(401);
  });

  it("failures of several kinds (401, 402, 403) add up to the per-address limit", async () => {
    const sim = makeSim();
    const r401 = await failDistinct(sim, 280, A);
    const r403 = await repeat(sim, 10, "GET", "/demo/v1/inventory/adjustment-reasons", {
      key: "none",
      remoteAddress: A,
    });
    const r402 = await repeat(sim, 10, "GET", "/lite/v1/me", { key: "full", remoteAddress: A });
    expect([...statuses(r401), ...statuses(r403), ...statuses(r402)]).toEqual([
      ...Array(280).fill(401),
      ...Array(10).fill(403),
      ...Array(10).fill(402),
    ]);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
  });

  it("Retry-After is the time left in the address window; moving the clock 5 minutes lifts the block", async () => {
    const sim = makeSim();
    await failDistinct(sim, 1, A);
    sim.clock.advance(60);
    await failDistinct(sim, 299, A, 1);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 240);
    sim.clock.advance(239);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 1);
    sim.clock.advance(1);
    expect((await call(sim, "GET", ME, { key: "full", remoteAddress: A })).status).toBe(200);
    expect((await call(sim, "GET", ME, { auth: bad(5000), remoteAddress: A })).status).toBe(401);
  });

  it("moving the clock 5 minutes after the block lifts it for a valid key", async () => {
    const sim = makeSim();
    await failDistinct(sim, 300, A);
    expectRateLimited(await call(sim, "GET", ME, { key: "full", remoteAddress: A }), 300);
    sim.clock.advance(300);
    const reply = await call(sim, "GET", ME, { key: "full", remoteAddress: A });
    expect(reply.status).toBe(200);
  });
});

describe("Spec, Limits (120 per minute per credential): rate limiting is on by default and off only through an explicit option", () => {
  it("with rateLimits: false, 200 requests in a minute all answer 200; by default the 121st is 429", async () => {
    const off = makeSim({ rateLimits: false });
    const statuses = new Set<number>();
    for (let i = 0; i < 200; i++) statuses.add((await call(off, "GET", "/demo/v1/me")).status);
    expect([...statuses]).toEqual([200]);
    const on = makeSim();
    for (let i = 0; i < 120; i++) await call(on, "GET", "/demo/v1/me");
    expect((await call(on, "GET", "/demo/v1/me")).status).toBe(429);
  });
});
