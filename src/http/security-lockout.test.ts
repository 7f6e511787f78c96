// The security matrix, failed-authentication limits (spec: Limits, failed authentication 30 per 5 minutes per
// address and credential; answers 401, 402 and 403 count, nothing else does).
// Generated from the operations table (src/contract/operations): every operation of the table is a named case
// of every check, so a new operation is covered without touching this file. Written from the spec
// (retail-api-v1.md); the simulator is the thing under test. Time only moves through the manual clock.
import { beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../contract/operation.js";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";
import { connect, fixture } from "../test-support/oauth.js";
import { control, requestFor, unique } from "../test-support/security.js";
import { expectError } from "../test-support/errors.js";
import {
  OPS,
  DAY,
  ALL_SCOPES,
  opCases,
  outcome,
  send,
  NOWHERE,
  createKey,
  advance,
} from "../test-support/security-matrix.js";

// 8: failed-authentication limits (what src/engine/limits.test.ts does not cover yet)

const BAD = "Bearer rsk_securityMatrixUnknownToken00000000000000";

describe("Spec, Limits (failed authentication per address and credential, 30 per 5 minutes): failures on different operations add up, and the block covers every operation", () => {
  const A = "10.20.0.1";
  const B = "10.20.0.2";
  let sim: Simulator;
  let first: { op: string; status: number }[];

  beforeAll(async () => {
    sim = makeSim();
    first = [];
    for (let i = 0; i < 30; i++) {
      const op = OPS[i % OPS.length] as Operation;
      first.push({
        op: op.id,
        status: (await send(sim, requestFor(op, "demo", NOWHERE, unique()), { auth: BAD, remoteAddress: A })).status,
      });
    }
  });

  it("30 failures, one per operation of the table (cycling when it has fewer), each answer 401", () => {
    expect(first.map((f) => f.status)).toEqual(Array(30).fill(401));
    expect(new Set(first.map((f) => f.op)).size).toBe(Math.min(30, OPS.length));
  });

  it.each(opCases(OPS))("%s: the blocked pair answers 429 RATE_LIMITED with Retry-After 300", async (_name, { op }) => {
    const reply = await send(sim, requestFor(op, "demo", NOWHERE, unique()), { auth: BAD, remoteAddress: A });
    expectError(reply, 429, "RATE_LIMITED");
    expect(reply.headers.get("retry-after")).toBe("300");
  });

  it("the same credential from another address is not blocked (401, a fresh window), nor is another credential at the same address (200)", async () => {
    const elsewhere = await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: B });
    expectError(elsewhere, 401, "UNAUTHORIZED");
    expect(elsewhere.headers.get("ratelimit")).toBe("limit=30, remaining=29, reset=300");
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
  });
});

interface FailureKind {
  name: string;
  /** Prepares the simulator and answers the Authorization header (null: none) and the store prefix of the requests. */
  prepare(sim: Simulator): Promise<{ auth: string | null; prefix: string }>;
}

const FAILURE_KINDS: FailureKind[] = [
  { name: "no Authorization header", prepare: async () => ({ auth: null, prefix: "demo" }) },
  { name: "a malformed header (`Basic abc`)", prepare: async () => ({ auth: "Basic abc", prefix: "demo" }) },
  { name: "a malformed header (`Bearer` alone)", prepare: async () => ({ auth: "Bearer", prefix: "demo" }) },
  {
    name: "a revoked key",
    prepare: async (sim) => {
      const key = await createKey(sim, "revoked");
      expect((await control(sim, "POST", `/keys/${key.id}/revoke`)).status).toBe(200);
      return { auth: `Bearer ${key.token}`, prefix: "demo" };
    },
  },
  {
    name: "a key idle for over 90 days",
    prepare: async (sim) => {
      const key = await createKey(sim, "idle");
      await advance(sim, 90 * DAY + 1);
      return { auth: `Bearer ${key.token}`, prefix: "demo" };
    },
  },
  {
    name: "an access token past its 3600 seconds",
    prepare: async (sim) => {
      const issued = await connect(sim, await fixture(sim), ALL_SCOPES);
      await advance(sim, 3601);
      return { auth: `Bearer ${issued.access_token}`, prefix: "demo" };
    },
  },
  {
    name: "demo's `full` key under another store's prefix",
    prepare: async (sim) => ({ auth: `Bearer ${sim.token("demo", "full")}`, prefix: "other" }),
  },
];

describe("Spec, Limits (failed authentication): every kind of refused credential counts toward the 30 per address and credential", () => {
  it.each(FAILURE_KINDS.map((k) => [k.name, k] as const))(
    "%s: 30 failures over the table's operations answer 401, the 31st 429; other addresses and credentials are unaffected",
    async (_name, kind) => {
      const sim = makeSim();
      const { auth, prefix } = await kind.prepare(sim);
      const A = "10.21.0.1";
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++)
        statuses.push(
          (
            await send(sim, requestFor(OPS[i % OPS.length] as Operation, prefix, NOWHERE, unique()), {
              auth,
              remoteAddress: A,
            })
          ).status,
        );
      expect(statuses).toEqual(Array(30).fill(401));
      const blocked = await call(sim, "GET", `/${prefix}/v1/me`, { auth, remoteAddress: A });
      expectError(blocked, 429, "RATE_LIMITED");
      expect(blocked.headers.get("retry-after")).toBe("300");
      expectError(
        await call(sim, "GET", `/${prefix}/v1/me`, { auth, remoteAddress: "10.21.0.2" }),
        401,
        "UNAUTHORIZED",
      );
      const another = await createKey(sim, "another-credential");
      expect(
        (await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${another.token}`, remoteAddress: A })).status,
      ).toBe(200);
    },
  );
});

describe("Spec, Limits (failed authentication = answers 401, 402 and 403): only failures count", () => {
  const A = "10.22.0.1";

  it("successful requests between failures do not reset the pair's count: 15 failures, 10 successes, 15 failures, then 429", async () => {
    const sim = makeSim();
    const scopedOp = "/demo/v1/sales";
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++)
      statuses.push((await call(sim, "GET", scopedOp, { key: "none", remoteAddress: A })).status);
    for (let i = 0; i < 10; i++)
      statuses.push((await call(sim, "GET", "/demo/v1/me", { key: "none", remoteAddress: A })).status);
    for (let i = 0; i < 15; i++)
      statuses.push((await call(sim, "GET", scopedOp, { key: "none", remoteAddress: A })).status);
    expect(statuses).toEqual([...Array(15).fill(403), ...Array(10).fill(200), ...Array(15).fill(403)]);
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "none", remoteAddress: A }), 429, "RATE_LIMITED");
  });

  it("a blocked pair's 429 answers are not failures: 300 of them leave the address open and do not extend the pair's window", async () => {
    const sim = makeSim();
    for (let i = 0; i < 30; i++)
      expect((await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: A })).status).toBe(401);
    const blocked: number[] = [];
    for (let i = 0; i < 300; i++) {
      sim.clock.advance(i === 150 ? 100 : 0);
      blocked.push((await call(sim, "GET", "/demo/v1/store", { auth: BAD, remoteAddress: A })).status);
    }
    expect(blocked).toEqual(Array(300).fill(429));
    // The address has 30 failures, not 330: another bad credential still gets its 401, and a valid key its 200.
    expectError(
      await call(sim, "GET", "/demo/v1/me", { auth: "Bearer rsk_anotherUnknownToken", remoteAddress: A }),
      401,
      "UNAUTHORIZED",
    );
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
    // The window opened at the first failure: 300 s after it (200 s after the last 429s) the pair starts afresh.
    sim.clock.advance(200);
    const again = await call(sim, "GET", "/demo/v1/me", { auth: BAD, remoteAddress: A });
    expectError(again, 401, "UNAUTHORIZED");
    expect(again.headers.get("ratelimit")).toBe("limit=30, remaining=29, reset=300");
  });

  it("after the 5-minute window the address has its whole budget of 300 again: 299 failures leave it open, the 300th blocks it", async () => {
    const sim = makeSim();
    const fail = async (from: number, count: number) => {
      const statuses: number[] = [];
      for (let i = from; i < from + count; i++) {
        const op = OPS[i % OPS.length] as Operation;
        statuses.push(
          (
            await send(sim, requestFor(op, "demo", NOWHERE, unique()), {
              auth: `Bearer rsk_distinct${i}`,
              remoteAddress: A,
            })
          ).status,
        );
      }
      return statuses;
    };
    expect(await fail(0, 300)).toEqual(Array(300).fill(401));
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A }), 429, "RATE_LIMITED");
    sim.clock.advance(300);
    expect(await fail(300, 299)).toEqual(Array(299).fill(401));
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A })).status).toBe(200);
    expect(await fail(599, 1)).toEqual([401]);
    expectError(await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: A }), 429, "RATE_LIMITED");
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read", remoteAddress: "10.22.0.2" })).status).toBe(200);
  });

  // The spec counts "per network address and credential". The simulator keys the count by the raw
  // Authorization value (docs/spec-choices.md, Limits), so respelling the scheme or the spaces before
  // one token would give it a fresh 30 attempts each time, up to the address's 300.
  it("the credential is the token, not the header's spelling: `Bearer x`, `bearer x` and `BEARER  x` (all well formed, RFC 6750) share one count of 30", async () => {
    const sim = makeSim();
    const token = "rsk_securityMatrixSpelledThreeWays000000000";
    const spellings = [`Bearer ${token}`, `bearer ${token}`, `BEARER  ${token}`];
    const statuses: number[] = [];
    for (const auth of spellings)
      for (let i = 0; i < 10; i++)
        statuses.push((await call(sim, "GET", "/demo/v1/me", { auth, remoteAddress: A })).status);
    expect(statuses).toEqual(Array(30).fill(401));
    const got: Record<string, unknown> = {};
    for (const auth of spellings)
      got[auth] = outcome(await call(sim, "GET", "/demo/v1/me", { auth, remoteAddress: A }));
    expect(got).toEqual(Object.fromEntries(spellings.map((auth) => [auth, { status: 429, code: "RATE_LIMITED" }])));
  });
});

// ------------------------------------------------------------------------------------------------
