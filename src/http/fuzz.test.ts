// Fuzzing against the spec (retail-api-v1.md):
// - Errors: "Every failure other than the token endpoint returns {"error": {"code": string, "message":
//   string, "fields"?: [{field, message}]}}", `code` one of the catalog's, with the catalog's status;
//   INTERNAL (500) only for a server fault (none is injected here).
// - Product write rules 4 ("if any entry is invalid, nothing is saved"), Inventory rules 3 and 5 (a batch
//   is all or nothing; refusals write nothing), Limits ("429 RATE_LIMITED with nothing written"): a
//   refused request (4xx) changes no store.
// Exact refusals per kind of bad input: fuzz-refusals.test.ts; raw bytes over a socket: fuzz-http.test.ts.
// Requests are derived from the operations table and driven in process through `sim.handle` (fast); runs are
// bounded here; `npm run fuzz` runs the same properties with FUZZ_RUNS=2000. FUZZ_SEED replays another seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../contract/operation.js";
import { OPERATIONS } from "../contract/operations/index.js";
import {
  NASTY_STRINGS,
  bodyText,
  fuzzParameters,
  fuzzRequestArb,
  fuzzTimeout,
  operationArb,
  protoKeyBodyArb,
  storedProtoProblems,
  validRequestArb,
  withPart,
  wrongTypeCases,
  schemaPaths,
  type FuzzContext,
  type Schema,
  type FuzzRequest,
} from "../test-support/fuzz.js";
import {
  RUNS,
  harness,
  where,
  exchange,
  expectNoServerFault,
  expectEnvelope,
  expectNothingWritten,
  errorOf,
  expectRefusal,
  everyExchange,
  expectNoPollution,
  sharedFuzzContext,
} from "../test-support/fuzz-harness.js";

let ctx: FuzzContext;
beforeAll(() => {
  ctx = sharedFuzzContext();
});
afterAll(expectNoPollution);

describe("Fuzzing in process through sim.handle (rate limits off)", () => {
  it(
    "Spec, Errors (INTERNAL 500 only for a server fault): no generated request answers 5xx or makes sim.handle throw",
    async () => {
      const seen = await everyExchange(ctx, 0x5eed_0001, () => {});
      expect(seen.count((s) => s >= 200 && s < 300)).toBeGreaterThan(0);
      expect(seen.count((s) => s >= 400 && s < 500)).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );

  it(
    "Spec, Errors: every failure is the error envelope {error: {code, message, fields?}} with a catalog code and the catalog's HTTP status",
    async () => {
      const seen = await everyExchange(ctx, 0x5eed_0002, expectEnvelope);
      for (const status of [400, 401, 404])
        expect(seen.statuses.get(status) ?? 0, `runs that answered ${status}`).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );

  it(
    "Spec, Product write rules 4, Inventory rules 3 and 5, Limits (nothing written on refusal): a request answered 4xx leaves every store's feeds, stock, settings and change sequence unchanged",
    async () => {
      const seen = await everyExchange(ctx, 0x5eed_0003, expectNothingWritten);
      expect(seen.refusedWrites).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );

  it(
    "Spec, Errors (VALIDATION_FAILED for an invalid body): __proto__, constructor and prototype keys never pollute Object.prototype and are never stored; a body holding one is refused 400 naming it, or saved without it",
    async () => {
      const writes = OPERATIONS.filter((op) => op.body !== undefined);
      // A valid request whose body carries a prototype key somewhere, or whose strings are prototype names.
      const poisoned = operationArb((op) => op.body !== undefined).chain((op) =>
        fc.oneof(
          protoKeyBodyArb(op, ctx).chain((p) =>
            validRequestArb(
              ctx,
              op,
              fc.constant({ kind: "proto-key" as const, bytes: new Uint8Array(Buffer.from(p.text)), tooLarge: false }),
            ).map((req) => ({ req: withPart(req, {}, `key at ${p.field}`), field: p.field as string | undefined })),
          ),
          validRequestArb(ctx, op).map((req) => ({ req, field: undefined as string | undefined })),
        ),
      );
      const step = fc.oneof(
        { weight: 3, arbitrary: poisoned },
        { weight: 1, arbitrary: fuzzRequestArb(ctx).map((req) => ({ req, field: undefined as string | undefined })) },
      );
      let keysRefused = 0;
      let namesSaved = 0;
      const protoName = new RegExp(`:"(${NASTY_STRINGS.slice(0, 7).join("|")})"`);
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
          const h = harness();
          for (const { req, field } of steps) {
            const x = await exchange(h, req);
            expectNoServerFault(h, x);
            expect(storedProtoProblems(h.sim), `a prototype key was stored${where(req, x.res)}`).toEqual([]);
            const ok = x.res.status >= 200 && x.res.status < 300;
            if (field === undefined) {
              // A value that is a prototype name ({"name": "__proto__"}) is data like any other.
              if (ok && req.body && protoName.test(Buffer.from(req.body).toString("utf8"))) namesSaved++;
              continue;
            }
            if (ok) {
              expect(bodyText(x.res) ?? "", `the answer echoes the key${where(req, x.res)}`).not.toMatch(
                /"(__proto__|constructor|prototype|polluted)"\s*:/,
              );
            } else {
              keysRefused++;
              expectRefusal(h, x, 400, "VALIDATION_FAILED", [field]);
            }
          }
        }),
        fuzzParameters(RUNS, 0x5eed_0004),
      );
      expect(writes.length).toBeGreaterThan(0);
      expect(keysRefused).toBeGreaterThan(0);
      expect(namesSaved).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );
});

describe("Every field of every body schema (rate limits off)", () => {
  it("Spec, Errors (VALIDATION_FAILED; nested fields named with dots): each field of each operation's body, given each JSON type its schema refuses, answers 400 naming exactly that field", async () => {
    const writes = OPERATIONS.filter((op) => op.body !== undefined);
    let sent = 0;
    for (const op of writes) {
      // One simulator per operation: every case is refused, so the world stays as it was (checked).
      const h = harness();
      const [base] = fc.sample(validRequestArb(ctx, op), { numRuns: 1, seed: 1 });
      // FUZZ_RUNS (npm run fuzz) sends every wrong value of every type; the normal suite one per type.
      const cases = wrongTypeCases(op, ctx, 120, process.env.FUZZ_RUNS !== undefined);
      const reached = new Set(cases.map((c) => c.field.replace(/\.\d+(?=\.|$)/g, ".0")));
      expect(
        schemaPaths(op.body as Schema).filter((p) => !reached.has(p)),
        `fields of ${op.id} no case reached`,
      ).toEqual([]);
      for (const [i, c] of cases.entries()) {
        // A fresh Idempotency-Key for each case: a key already used with another body answers IDEMPOTENCY_KEY_REUSED.
        const headers =
          op.idempotency === "required"
            ? { ...(base as FuzzRequest).headers, "idempotency-key": `wrong-type-${i}` }
            : (base as FuzzRequest).headers;
        const req = withPart(
          base as FuzzRequest,
          { headers, body: new Uint8Array(Buffer.from(c.text)) },
          `${c.field} = ${c.wrong.slice(0, 30)}`,
        );
        expectRefusal(h, await exchange(h, req), 400, "VALIDATION_FAILED", [c.field]);
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(1000);
  }, 60_000);
});

describe("Fuzzing in process with rate limits on", () => {
  const RATE_RUNS = 25;

  it(
    "Spec, Limits and Errors: with rate limits on every failure is still the envelope with the catalog's status, a 429 is RATE_LIMITED with Retry-After, every response carries RateLimit-Policy and RateLimit, and a refused request writes nothing",
    async () => {
      // Customer endpoints (30 per minute) and failed authentication (30 per 5 minutes) run out within a run;
      // a burst repeats one request; the clock moves now and then (never past the 90-day idle limit).
      const customerOps = operationArb((op) => op.path.startsWith("/customer"));
      const badAuth = operationArb().chain((op) =>
        validRequestArb(ctx, op).map((req) => {
          const headers: Record<string, string> = { ...req.headers, authorization: "Bearer not-a-known-token" };
          return withPart(req, { headers }, "unknown credential");
        }),
      );
      type Step = { kind: "request"; req: FuzzRequest; times: number } | { kind: "advance"; seconds: number };
      const step: fc.Arbitrary<Step> = fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .tuple(fuzzRequestArb(ctx, fc.oneof(customerOps, operationArb())), fc.integer({ min: 1, max: 40 }))
            .map(([req, times]): Step => ({ kind: "request", req, times })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(badAuth, fc.integer({ min: 1, max: 35 }))
            .map(([req, times]): Step => ({ kind: "request", req, times })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              validRequestArb(ctx, OPERATIONS.find((op) => op.id === "getMe") as Operation),
              fc.integer({ min: 100, max: 130 }),
            )
            .map(([req, times]): Step => ({ kind: "request", req, times })),
        },
        {
          weight: 1,
          arbitrary: fc.integer({ min: 0, max: 400 }).map((seconds): Step => ({ kind: "advance", seconds })),
        },
      );
      let limited = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const h = harness(true);
          for (const s of steps) {
            if (s.kind === "advance") {
              h.sim.clock.advance(s.seconds);
              h.last = undefined;
              continue;
            }
            for (let i = 0; i < s.times; i++) {
              const x = await exchange(h, s.req);
              expectNoServerFault(h, x);
              expectEnvelope(x);
              expectNothingWritten(x);
              const { res, req } = x;
              expect(typeof res.headers["ratelimit-policy"], `RateLimit-Policy${where(req, res)}`).toBe("string");
              expect(typeof res.headers["ratelimit"], `RateLimit${where(req, res)}`).toBe("string");
              if (res.status === 429) {
                limited++;
                expect(errorOf(res).code, `code of a 429${where(req, res)}`).toBe("RATE_LIMITED");
                expect(res.headers["retry-after"], `Retry-After${where(req, res)}`).toMatch(/^[1-9]\d*$/);
              }
            }
          }
        }),
        fuzzParameters(RATE_RUNS, 0x5eed_0021, 0.05),
      );
      expect(limited).toBeGreaterThan(0);
    },
    fuzzTimeout(RATE_RUNS, 400, 0.05),
  );
});
