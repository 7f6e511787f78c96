// The fuzz tests' harness (src/http/fuzz*.test.ts): one exchange in process with the world digested before and
// after, the checks every exchange must pass, and the shared context of tokens, ids and cursors.
import fc from "fast-check";
import { expect } from "vitest";
import { checkResponse } from "../contract/response-check.js";
import type { Simulator } from "../simulator.js";
import {
  bodyText,
  describeRequest,
  describeResponse,
  digestDiff,
  envelopeProblems,
  fuzzContext,
  fuzzParameters,
  fuzzRequestArb,
  pollution,
  prototypeSnapshot,
  toSimRequest,
  worldDigest,
  type FuzzContext,
  type FuzzRequest,
  type WorldDigest,
} from "./fuzz.js";
import { makeSim } from "./sim.js";
import type { SimResponse } from "../http/types.js";

/** The built-in prototypes' own names before any request. */
export const protoBefore = prototypeSnapshot();

// Normal-suite runs per property (FUZZ_RUNS replaces them) and fixed seeds (FUZZ_SEED replaces them).
export const RUNS = 150;
export const TARGETED_RUNS = 100;

export interface Harness {
  readonly sim: Simulator;
  /** Internal errors the simulator reported (a caught exception answers 500 and is logged). */
  readonly logs: string[];
  /** The digest after the last exchange: the next one's "before" (nothing else changes the world in between). */
  last?: WorldDigest;
}

export function harness(rateLimits = false): Harness {
  const logs: string[] = [];
  return { sim: makeSim({ rateLimits, log: (line) => logs.push(line) }), logs };
}

export interface Exchange {
  readonly req: FuzzRequest;
  readonly res: SimResponse;
  readonly before: WorldDigest;
  readonly after: WorldDigest;
}

export const where = (req: FuzzRequest, res?: SimResponse) =>
  `\n  request:  ${describeRequest(req)}${res ? `\n  response: ${describeResponse(res)}` : ""}`;

/** Sends one request in process; a throw out of sim.handle fails the property with the request. */
export async function exchange(h: Harness, req: FuzzRequest): Promise<Exchange> {
  const before = h.last ?? worldDigest(h.sim);
  let res: SimResponse;
  try {
    res = await h.sim.handle(toSimRequest(req));
  } catch (error) {
    throw new Error(`sim.handle threw ${(error as Error).stack ?? String(error)}${where(req)}`);
  }
  // The response check hook (makeSim) judges every response against the served OpenAPI document but reports
  // after the test; judged here too, a mismatch fails the property with its counterexample.
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
export function expectNoServerFault(h: Harness, { req, res }: Exchange): void {
  expect(h.logs, `internal errors were logged${where(req, res)}`).toEqual([]);
  expect(res.status >= 200 && res.status < 500, `status ${res.status}${where(req, res)}`).toBe(true);
}

/** Spec, Errors: a non-2xx answer is exactly the envelope, with a catalog code and the catalog's status. */
export function expectEnvelope({ req, res }: Exchange): void {
  if (res.status >= 200 && res.status < 300) return;
  expect(
    envelopeProblems(res.status, res.headers["content-type"], bodyText(res)),
    `not the spec's error envelope${where(req, res)}`,
  ).toEqual([]);
}

export const errorCode = (res: SimResponse): string | undefined => {
  try {
    return (JSON.parse(bodyText(res) ?? "") as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

/** Spec, Product write rules 4, Inventory rules 3 and 5, Limits: a refused request (4xx) writes nothing. */
export function expectNothingWritten({ req, res, before, after }: Exchange): void {
  if (res.status < 400 || res.status >= 500) return;
  // Spec, Product write rules 7: IMAGE_FETCH_FAILED (422) is the one refusal that saves (the product).
  if (errorCode(res) === "IMAGE_FETCH_FAILED") return;
  expect(digestDiff(before, after), `a refused request changed the world${where(req, res)}`).toEqual([]);
}

/** The answer's error, for exact comparisons. */
export function errorOf(res: SimResponse): {
  code: string;
  message: string;
  fields?: { field: string; message: string }[];
} {
  return (
    JSON.parse(bodyText(res) ?? "null") as {
      error: { code: string; message: string; fields?: { field: string; message: string }[] };
    }
  ).error;
}

export function expectRefusal(h: Harness, x: Exchange, status: number, code: string, fields?: readonly string[]): void {
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
export class Seen {
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
export const requestsArb = (ctx: FuzzContext) =>
  fc
    .array(fuzzRequestArb(ctx), { minLength: 1, maxLength: 4 })
    .chain((reqs) =>
      fc
        .array(fc.nat(reqs.length - 1), { maxLength: 2 })
        .map((again) => [...reqs, ...again.map((i) => reqs[i] as FuzzRequest)]),
    );

/**
 * The context every property draws from (the demo store's tokens, ids and cursors), checked: every simulator with
 * the same seed and fixture has the same one, and the world digest covers every feed, stock, settings and indexes.
 * Each fuzz test file computes it once, in a beforeAll.
 */
export function sharedFuzzContext(): FuzzContext {
  const a = makeSim({ rateLimits: false });
  const ctx = fuzzContext(a);
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
  return ctx;
}

/** After every run of a file (an afterAll): the built-in prototypes are as they were before any request. */
export function expectNoPollution(): void {
  expect(prototypeSnapshot()).toBe(protoBefore);
  expect(pollution()).toEqual([]);
}

/**
 * Generated request sequences, each on a fresh simulator (rate limits off): every exchange must not be
 * a server fault and must pass `check`. Resolves with what was seen, for the coverage assertions.
 */
export async function everyExchange(ctx: FuzzContext, seed: number, check: (x: Exchange) => void): Promise<Seen> {
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
