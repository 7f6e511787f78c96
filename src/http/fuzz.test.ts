// Fuzzing (issue "Robustness and security"), against the spec (retail-api-v1.md):
// - Errors: "Every failure other than the token endpoint returns {"error": {"code": string, "message":
//   string, "fields"?: [{field, message}]}}", `code` one of the catalog's, with the catalog's status;
//   INTERNAL (500) only for a server fault (none is injected here).
// - Product write rules 4 ("if any entry is invalid, nothing is saved"), Inventory rules 3 and 5 (a batch
//   is all or nothing; refusals write nothing), Limits ("429 RATE_LIMITED with nothing written"): a
//   refused request (4xx) changes no store.
// - Errors catalog rows: NOT_FOUND for a non-UUID id, UNAUTHORIZED for a missing, malformed or unknown
//   credential, VALIDATION_FAILED for an invalid body, query parameter (cursor included) or
//   Idempotency-Key; Limits: the key is 1 to 255 printable characters without spaces.
// Requests are derived from the operations table and driven in process through `sim.handle` (fast),
// plus byte-level cases over a real socket through the node:http adapter. Runs are bounded here;
// `npm run fuzz` runs the same properties with FUZZ_RUNS=2000. FUZZ_SEED replays another seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operation } from "../contract/operation.js";
import { checkResponse } from "../contract/response-check.js";
import { OPERATIONS } from "../contract/operations/index.js";
import type { Simulator } from "../simulator.js";
import {
  NASTY_STRINGS,
  ODD_IDEMPOTENCY_KEYS,
  badAuthorizationArb,
  bodyText,
  describeRaw,
  describeRequest,
  describeResponse,
  digestDiff,
  envelopeProblems,
  fuzzContext,
  fuzzParameters,
  fuzzRequestArb,
  fuzzTimeout,
  invalidBodyArb,
  nonUuidSegmentArb,
  operationArb,
  pollution,
  protoKeyBodyArb,
  prototypeSnapshot,
  rawExchange,
  rawRequestArb,
  storedProtoProblems,
  toSimRequest,
  validRequestArb,
  withPart,
  worldDigest,
  wrongTypeBodyArb,
  wrongTypeCases,
  schemaPaths,
  type FuzzContext,
  type Schema,
  type FuzzRequest,
  type WorldDigest,
} from "../test-support/fuzz.js";
import { makeSim } from "../test-support/sim.js";
import type { SimResponse } from "./types.js";
import { listen, type Listening } from "./node.js";

/** The built-in prototypes' own names before any request. */
const protoBefore = prototypeSnapshot();

// Normal-suite runs per property (FUZZ_RUNS replaces them) and fixed seeds (FUZZ_SEED replaces them).
const RUNS = 150;
const TARGETED_RUNS = 100;

interface Harness {
  readonly sim: Simulator;
  /** Internal errors the simulator reported (a caught exception answers 500 and is logged). */
  readonly logs: string[];
  /** The digest after the last exchange: the next one's "before" (nothing else changes the world in between). */
  last?: WorldDigest;
}

function harness(rateLimits = false): Harness {
  const logs: string[] = [];
  return { sim: makeSim({ rateLimits, log: (line) => logs.push(line) }), logs };
}

interface Exchange {
  readonly req: FuzzRequest;
  readonly res: SimResponse;
  readonly before: WorldDigest;
  readonly after: WorldDigest;
}

const where = (req: FuzzRequest, res?: SimResponse) =>
  `\n  request:  ${describeRequest(req)}${res ? `\n  response: ${describeResponse(res)}` : ""}`;

/** Sends one request in process; a throw out of sim.handle fails the property with the request. */
async function exchange(h: Harness, req: FuzzRequest): Promise<Exchange> {
  const before = h.last ?? worldDigest(h.sim);
  let res: SimResponse;
  try {
    res = await h.sim.handle(toSimRequest(req));
  } catch (error) {
    throw new Error(`sim.handle threw ${(error as Error).stack ?? String(error)}${where(req)}`);
  }
  // The global hook (response-validation.ts) judges every response against the served OpenAPI document
  // but reports after the test; judged here too, a mismatch fails the property with its counterexample.
  const undescribed = checkResponse({
    method: req.method,
    path: req.path,
    status: res.status,
    contentType: res.headers["content-type"],
    body: typeof res.body === "string" ? res.body : null,
  });
  expect(undescribed, `a response the served OpenAPI document does not describe${where(req, res)}`).toEqual([]);
  // Whatever the request held (`__proto__`, `constructor` or `prototype` keys anywhere), the built-in prototypes are untouched.
  expect(pollution(), `Object.prototype polluted${where(req, res)}`).toEqual([]);
  expect(prototypeSnapshot(), `a built-in prototype changed${where(req, res)}`).toBe(protoBefore);
  h.last = worldDigest(h.sim);
  return { req, res, before, after: h.last };
}

/** Spec, Errors: INTERNAL (500) is a server fault; no fault is injected, so no 5xx and nothing logged. */
function expectNoServerFault(h: Harness, { req, res }: Exchange): void {
  expect(h.logs, `internal errors were logged${where(req, res)}`).toEqual([]);
  expect(res.status >= 200 && res.status < 500, `status ${res.status}${where(req, res)}`).toBe(true);
}

/** Spec, Errors: a non-2xx answer is exactly the envelope, with a catalog code and the catalog's status. */
function expectEnvelope({ req, res }: Exchange): void {
  if (res.status >= 200 && res.status < 300) return;
  expect(
    envelopeProblems(res.status, res.headers["content-type"], bodyText(res)),
    `not the spec's error envelope${where(req, res)}`,
  ).toEqual([]);
}

const errorCode = (res: SimResponse): string | undefined => {
  try {
    return (JSON.parse(bodyText(res) ?? "") as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

/** Spec, Product write rules 4, Inventory rules 3 and 5, Limits: a refused request (4xx) writes nothing. */
function expectNothingWritten({ req, res, before, after }: Exchange): void {
  if (res.status < 400 || res.status >= 500) return;
  // Spec, Product write rules 7: IMAGE_FETCH_FAILED (422) is the one refusal that saves (the product).
  if (errorCode(res) === "IMAGE_FETCH_FAILED") return;
  expect(digestDiff(before, after), `a refused request changed the world${where(req, res)}`).toEqual([]);
}

/** The answer's error, for exact comparisons. */
function errorOf(res: SimResponse): { code: string; message: string; fields?: { field: string; message: string }[] } {
  return (
    JSON.parse(bodyText(res) ?? "null") as {
      error: { code: string; message: string; fields?: { field: string; message: string }[] };
    }
  ).error;
}

function expectRefusal(h: Harness, x: Exchange, status: number, code: string, fields?: readonly string[]): void {
  expectNoServerFault(h, x);
  expectEnvelope(x);
  expect(x.res.status, `status${where(x.req, x.res)}`).toBe(status);
  const error = errorOf(x.res);
  expect(error.code, `code${where(x.req, x.res)}`).toBe(code);
  if (fields === undefined) expect(error.fields, `fields${where(x.req, x.res)}`).toBeUndefined();
  else
    expect(
      error.fields?.map((f) => f.field),
      `fields${where(x.req, x.res)}`,
    ).toEqual(fields);
  expectNothingWritten(x);
}

/** Counts of what the runs saw: a property that never saw a refusal proved nothing. */
class Seen {
  readonly statuses = new Map<number, number>();
  refusedWrites = 0;
  note(x: Exchange): void {
    this.statuses.set(x.res.status, (this.statuses.get(x.res.status) ?? 0) + 1);
    if (x.req.method !== "GET" && x.res.status >= 400 && x.res.status < 500) this.refusedWrites++;
  }
  count(test: (status: number) => boolean): number {
    return [...this.statuses].filter(([s]) => test(s)).reduce((n, [, c]) => n + c, 0);
  }
}

/** A few requests against one fresh simulator; some sent again (a retry: same key and body replays, another body under the key is refused). */
const requestsArb = (ctx: FuzzContext) =>
  fc
    .array(fuzzRequestArb(ctx), { minLength: 1, maxLength: 4 })
    .chain((reqs) =>
      fc
        .array(fc.nat(reqs.length - 1), { maxLength: 2 })
        .map((again) => [...reqs, ...again.map((i) => reqs[i] as FuzzRequest)]),
    );

let ctx: FuzzContext;

beforeAll(() => {
  const a = makeSim({ rateLimits: false });
  ctx = fuzzContext(a);
  // Every simulator with the same seed and fixture has the same tokens and ids, so the context serves all.
  expect(fuzzContext(makeSim({ rateLimits: false }))).toEqual(ctx);
  // The digest covers every feed of every store (found by walking the store), stock, settings and indexes.
  const sections = Object.keys(worldDigest(a));
  for (const name of [
    "demo/products",
    "demo/brands",
    "demo/categories",
    "demo/tags",
    "demo/suppliers",
    "demo/customers",
    "demo/customer-groups",
    "demo/sales",
    "demo/outlets",
    "demo/taxes",
    "demo/payment-types",
    "demo/adjustment-reasons",
  ]) {
    expect(sections).toContain(`demo feed ${name}`);
  }
  expect(sections).toEqual(
    expect.arrayContaining([
      "demo settings",
      "demo stock levels",
      "demo stock adjustments",
      "demo indexes",
      "demo credentials",
      "world stored images",
    ]),
  );
});

afterAll(() => {
  expect(prototypeSnapshot()).toBe(protoBefore);
  expect(pollution()).toEqual([]);
});

/**
 * Generated request sequences, each on a fresh simulator (rate limits off): every exchange must not be
 * a server fault and must pass `check`. Resolves with what was seen, for the coverage assertions.
 */
async function everyExchange(seed: number, check: (x: Exchange) => void): Promise<Seen> {
  const seen = new Seen();
  await fc.assert(
    fc.asyncProperty(requestsArb(ctx), async (reqs) => {
      const h = harness();
      for (const req of reqs) {
        const x = await exchange(h, req);
        seen.note(x);
        expectNoServerFault(h, x);
        check(x);
      }
    }),
    fuzzParameters(RUNS, seed),
  );
  return seen;
}

describe("Fuzzing in process through sim.handle (rate limits off)", () => {
  it(
    "Spec, Errors (INTERNAL 500 only for a server fault): no generated request answers 5xx or makes sim.handle throw",
    async () => {
      const seen = await everyExchange(0x5eed_0001, () => {});
      expect(seen.count((s) => s >= 200 && s < 300)).toBeGreaterThan(0);
      expect(seen.count((s) => s >= 400 && s < 500)).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );

  it(
    "Spec, Errors: every failure is the error envelope {error: {code, message, fields?}} with a catalog code and the catalog's HTTP status",
    async () => {
      const seen = await everyExchange(0x5eed_0002, expectEnvelope);
      for (const status of [400, 401, 404])
        expect(seen.statuses.get(status) ?? 0, `runs that answered ${status}`).toBeGreaterThan(0);
    },
    fuzzTimeout(RUNS, 40),
  );

  it(
    "Spec, Product write rules 4, Inventory rules 3 and 5, Limits (nothing written on refusal): a request answered 4xx leaves every store's feeds, stock, settings and change sequence unchanged",
    async () => {
      const seen = await everyExchange(0x5eed_0003, expectNothingWritten);
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

describe("Fuzzing in process: each refusal is exactly the catalog's (rate limits off)", () => {
  const withParams = (op: Operation) => op.path.includes("{");

  it(
    "Spec, Errors (NOT_FOUND: non-UUID id): a path parameter that is no UUID answers 404 NOT_FOUND",
    async () => {
      const arb = operationArb(withParams).chain((op) =>
        fc.tuple(validRequestArb(ctx, op), nonUuidSegmentArb(ctx), fc.nat()).map(([req, segment, n]) => {
          const params = [...op.path.matchAll(/\{[a-z_]+\}/g)].length;
          const which = n % params;
          const parts = req.path.slice("/demo/v1".length).split("/");
          const positions = op.path.split("/").flatMap((s, i) => (s.startsWith("{") ? [i] : []));
          parts[positions[which] as number] = segment;
          return withPart(req, { path: `/demo/v1${parts.join("/")}` }, `param ${which} is ${segment.slice(0, 40)}`);
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 404, "NOT_FOUND");
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0011),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 40),
  );

  it(
    "Spec, Authentication 1 and Errors (UNAUTHORIZED: credential missing, malformed or unknown): answers 401 UNAUTHORIZED",
    async () => {
      const arb = operationArb().chain((op) =>
        fc.tuple(validRequestArb(ctx, op), badAuthorizationArb(ctx)).map(([req, auth]) => {
          const headers: Record<string, string> = { ...req.headers };
          delete headers.authorization;
          if (auth !== undefined) headers.authorization = auth;
          return withPart(
            req,
            { headers },
            `Authorization ${auth === undefined ? "missing" : JSON.stringify(auth).slice(0, 60)}`,
          );
        }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 401, "UNAUTHORIZED");
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0012),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 40),
  );

  it(
    "Spec, Endpoints (list limit 1 to 200, order, include_deleted), Pagination rules 1 and 4, Sales list rules 1 to 3: an invalid list parameter answers 400 VALIDATION_FAILED naming it",
    async () => {
      const enc = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
      const badQuery = (op: Operation): fc.Arbitrary<{ query: string; field: string }> => {
        const own = ctx.cursors[op.path];
        const otherLists = Object.entries(ctx.cursors)
          .filter(([path]) => path !== op.path)
          .map(([, c]) => c);
        const cases: fc.Arbitrary<{ query: string; field: string }>[] = [
          fc
            .constantFrom(
              "0",
              "201",
              "-1",
              "1e309",
              "1.5",
              "abc",
              "",
              "9007199254740993",
              "99999999999999999999",
              "0x10",
              " 1",
              "+1",
              "1e3",
              "1 ",
              "２",
            )
            .map((v) => ({ query: enc("limit", v), field: "limit" })),
          fc
            .oneof(
              fc.constantFrom(
                "",
                "garbage",
                "%zz",
                "a".repeat(5_000),
                "null",
                "-1",
                ...otherLists,
                ...ctx.foreignCursors,
              ),
              fc.constantFrom(
                ...[{ s: -1 }, { s: 1.5 }, { s: "1" }, { s: 1e300 }, { s: null }].map((o) =>
                  Buffer.from(JSON.stringify({ l: `demo${op.path}`, ...o })).toString("base64url"),
                ),
                Buffer.from(`{"__proto__":{"polluted":true},"l":"demo${op.path}","s":1}`).toString("base64url"),
              ),
              own === undefined
                ? fc.constant("x!")
                : fc.constantFrom(
                    `${own}x`,
                    own.slice(0, -1),
                    `${own}=`,
                    `${own}==`,
                    own.toUpperCase() === own ? `${own}Q` : own.toUpperCase(),
                  ),
            )
            .map((v) => ({ query: enc("cursor", v), field: "cursor" })),
          fc
            .constantFrom("ASC", "", "sideways", "asc,desc", "descending")
            .map((v) => ({ query: enc("order", v), field: "order" })),
          fc
            .constantFrom("maybe", "1", "0", "", "TRUE", "yes")
            .map((v) => ({ query: enc("include_deleted", v), field: "include_deleted" })),
          fc
            .constantFrom(
              "foo",
              "__proto__",
              "__proto__[polluted]",
              "constructor",
              "constructor.prototype.polluted",
              "hasOwnProperty",
              "toString",
              "a[]",
              "LIMIT",
              "limit ",
              "page",
            )
            .map((n) => ({ query: enc(n, "1"), field: n })),
          fc
            .constantFrom("limit=1&limit=1", "order=asc&order=asc", "include_deleted=false&include_deleted=false")
            .map((q) => ({ query: q, field: q.split("=")[0] as string })),
        ];
        if (op.path === "/sales") {
          cases.push(
            fc.constantFrom("true", "false").map((v) => ({ query: `include_deleted=${v}`, field: "include_deleted" })),
            fc.constantFrom("open", "", "COMPLETED", "paid").map((v) => ({ query: enc("status", v), field: "status" })),
            fc
              .constantFrom(
                "2026-01-01T00:00:00+02:00",
                "2026-01-01T00:00:00",
                "2026-01-01",
                "yesterday",
                "",
                "2026-13-01T00:00:00Z",
              )
              .chain((v) =>
                fc.constantFrom("completed_from", "completed_to").map((n) => ({ query: enc(n, v), field: n })),
              ),
          );
        } else {
          cases.push(fc.constant({ query: "include_deleted=true&order=desc", field: "include_deleted" }));
        }
        return fc.oneof(...cases);
      };
      const arb = operationArb((op) => op.kind === "list").chain((op) =>
        fc.tuple(validRequestArb(ctx, op), badQuery(op)).map(([req, q]) => ({
          req: withPart(req, { query: q.query }, `query ${q.query.slice(0, 60)}`),
          field: q.field,
        })),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ req, field }) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 400, "VALIDATION_FAILED", [field]);
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0013),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 40),
  );

  it(
    "Spec, Limits (Idempotency-Key: 1 to 255 printable characters without spaces) and Errors: an invalid key, or none where one is required, answers 400 VALIDATION_FAILED naming Idempotency-Key",
    async () => {
      const arb = operationArb((op) => op.idempotency !== "none").chain((op) =>
        fc
          .tuple(
            validRequestArb(ctx, op),
            op.idempotency === "required"
              ? fc.oneof(fc.constantFrom(...ODD_IDEMPOTENCY_KEYS), fc.constant(undefined))
              : fc.constantFrom(...ODD_IDEMPOTENCY_KEYS),
          )
          .map(([req, key]) => {
            const headers: Record<string, string> = { ...req.headers };
            delete headers["idempotency-key"];
            if (key !== undefined) headers["idempotency-key"] = key;
            return withPart(
              req,
              { headers },
              `Idempotency-Key ${key === undefined ? "missing" : JSON.stringify(key).slice(0, 40)}`,
            );
          }),
      );
      await fc.assert(
        fc.asyncProperty(arb, async (req) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 400, "VALIDATION_FAILED", ["Idempotency-Key"]);
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0014),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 40),
  );

  it(
    "Spec, Errors (VALIDATION_FAILED: body invalid): a body that is not JSON in UTF-8, cut short, empty, over the size cap, or sent as another content type answers 400 naming body or Content-Type",
    async () => {
      const notJsonTypes = [
        "text/plain",
        "application/jsonx",
        "",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded",
        "*/*",
        "json",
        "application/json\u0000",
        "application/json-patch",
      ];
      const arb = operationArb((op) => op.body !== undefined).chain((op) =>
        fc.oneof(
          invalidBodyArb(op, ctx).chain((body) =>
            validRequestArb(ctx, op, fc.constant(body)).map((req) => ({ req, field: body.field })),
          ),
          fc.tuple(validRequestArb(ctx, op), fc.constantFrom(...notJsonTypes, undefined)).map(([req, type]) => {
            const headers: Record<string, string> = { ...req.headers };
            delete headers["content-type"];
            if (type !== undefined) headers["content-type"] = type;
            return { req: withPart(req, { headers }, `Content-Type ${JSON.stringify(type)}`), field: "Content-Type" };
          }),
        ),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ req, field }) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 400, "VALIDATION_FAILED", [field]);
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0015),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 60),
  );

  it(
    "Spec, Errors (VALIDATION_FAILED; nested fields named with dots): a body field of the wrong type answers 400 naming exactly that field",
    async () => {
      const arb = operationArb((op) => op.body !== undefined).chain((op) =>
        wrongTypeBodyArb(op, ctx).chain((w) =>
          validRequestArb(
            ctx,
            op,
            fc.constant({ kind: "wrong-type" as const, bytes: new Uint8Array(Buffer.from(w.text)), tooLarge: false }),
          ).map((req) => ({ req: withPart(req, {}, `wrong type at ${w.field}`), field: w.field })),
        ),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ req, field }) => {
          const h = harness();
          expectRefusal(h, await exchange(h, req), 400, "VALIDATION_FAILED", [field]);
        }),
        fuzzParameters(TARGETED_RUNS, 0x5eed_0016),
      );
    },
    fuzzTimeout(TARGETED_RUNS, 40),
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

describe("Fuzzing over HTTP: raw bytes through the node:http adapter", () => {
  const HTTP_RUNS = 25;
  const h = harness();
  let server: Listening;

  beforeAll(async () => {
    server = await listen((req) => h.sim.handle(req), 0, "127.0.0.1");
  });

  afterAll(async () => {
    await server.close();
  });

  const me = () =>
    new Uint8Array(
      Buffer.from(
        `GET /demo/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nConnection: close\r\n\r\n`,
        "latin1",
      ),
    );

  it(
    "Spec, Errors over HTTP: malformed UTF-8, bodies cut short or over the size cap, header blocks over the limit and broken framing get an HTTP 4xx answer (the envelope, except a header block over the limit), change nothing, and the server serves the next request",
    async () => {
      const kinds = new Set<string>();
      await fc.assert(
        fc.asyncProperty(rawRequestArb(ctx), async (raw) => {
          const before = worldDigest(h.sim);
          const reply = await rawExchange(server.port, raw.bytes, { halfClose: raw.halfClose, timeoutMs: 10_000 });
          const after = worldDigest(h.sim);
          const at = `\n  request: ${describeRaw(raw)}\n  response: ${reply.status} ${JSON.stringify(reply.headers)} ${reply.body.slice(0, 300)}`;
          kinds.add(raw.kind);
          expect(h.logs, `internal errors were logged${at}`).toEqual([]);
          expect(reply.status < 500, `status ${reply.status}${at}`).toBe(true);
          if (raw.refused)
            expect(reply.status >= 400 && reply.status < 500, `status ${reply.status}, not a refusal${at}`).toBe(true);
          // A header block over the server's limit may be answered by Node itself (431, no envelope); anything else is the envelope.
          const exempt = raw.kind === "huge-headers" && reply.status === 431;
          if ((reply.status < 200 || reply.status >= 300) && !exempt) {
            expect(
              envelopeProblems(reply.status, reply.headers["content-type"], reply.body),
              `not the spec's error envelope${at}`,
            ).toEqual([]);
          }
          if (reply.status >= 400)
            expect(digestDiff(before, after), `a refused request changed the world${at}`).toEqual([]);
          const next = await rawExchange(server.port, me());
          expect(next.status, `the next request after ${raw.kind}: ${next.body.slice(0, 200)}`).toBe(200);
        }),
        fuzzParameters(HTTP_RUNS, 0x5eed_0031, 0.05),
      );
      expect(kinds.size).toBeGreaterThan(3);
    },
    fuzzTimeout(HTTP_RUNS, 400, 0.05),
  );

  it("Spec, Errors over HTTP: a JSON body with __proto__ keys is refused with the envelope and Object.prototype stays clean", async () => {
    const body = Buffer.from(
      '{"name":"x","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const head = `POST /demo/v1/brands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const before = worldDigest(h.sim);
    const reply = await rawExchange(server.port, Buffer.concat([Buffer.from(head, "latin1"), body]));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: {
        code: "VALIDATION_FAILED",
        message: expect.any(String),
        fields: [
          { field: "__proto__", message: "is not a known property" },
          { field: "constructor", message: "is not a known property" },
        ],
      },
    });
    expect(digestDiff(before, worldDigest(h.sim))).toEqual([]);
    expect(pollution()).toEqual([]);
    expect(prototypeSnapshot()).toBe(protoBefore);
  });
});
