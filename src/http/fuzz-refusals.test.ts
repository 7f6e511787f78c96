// Fuzzing against the spec (retail-api-v1.md), Errors catalog rows: each kind of bad input gets exactly the
// catalog's refusal: NOT_FOUND for a non-UUID id, UNAUTHORIZED for a missing, malformed or unknown credential,
// VALIDATION_FAILED for an invalid body, query parameter (cursor included) or Idempotency-Key (Limits: the key
// is 1 to 255 printable characters without spaces); and a refused request writes nothing.
// Requests are derived from the operations table and driven in process through `sim.handle` (fast); runs are
// bounded here; `npm run fuzz` runs the same properties with FUZZ_RUNS=2000. FUZZ_SEED replays another seed.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Operation } from "../contract/operation.js";
import {
  ODD_IDEMPOTENCY_KEYS,
  badAuthorizationArb,
  fuzzParameters,
  fuzzTimeout,
  invalidBodyArb,
  nonUuidSegmentArb,
  operationArb,
  validRequestArb,
  withPart,
  wrongTypeBodyArb,
  type FuzzContext,
} from "../test-support/fuzz.js";
import {
  TARGETED_RUNS,
  harness,
  exchange,
  expectRefusal,
  expectNoPollution,
  sharedFuzzContext,
} from "../test-support/fuzz-harness.js";

let ctx: FuzzContext;
beforeAll(() => {
  ctx = sharedFuzzContext();
});
afterAll(expectNoPollution);

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
