// Fuzzing support: Requests assembled from the operations table: wild, bent in one part, or valid.
// Their parts come from route-paths.ts, route-queries.ts, route-headers.ts and bodies.ts.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { OPERATIONS } from "../../contract/operations/index.js";
import { type FuzzBody, bodyArb } from "./bodies.js";
import { type Schema, valueArb } from "./body-values.js";
import { ODD_CONTENT_TYPES, ODD_IDEMPOTENCY_KEYS, authArb, headersArb } from "./route-headers.js";
import { methodArb, pathArb } from "./route-paths.js";
import { queryArb } from "./route-queries.js";
import { type FuzzRequest, type FuzzContext, clip, described, jsonText, setOwn, utf8 } from "./requests.js";

/** The operations of the table, optionally only some. */
export function operationArb(filter: (op: Operation) => boolean = () => true): fc.Arbitrary<Operation> {
  return fc.constantFrom(...OPERATIONS.filter(filter));
}

function assemble(
  op: Operation,
  method: string,
  path: string,
  query: string,
  headers: Record<string, string>,
  body: FuzzBody | undefined,
  note: string,
): FuzzRequest {
  const sendBody = body !== undefined;
  return described({
    method,
    path,
    query,
    headers,
    body: sendBody ? body.bytes : null,
    bodyTooLarge: sendBody ? body.tooLarge : false,
    note: `${op.id}${note ? `, ${note}` : ""}${sendBody ? `, body ${body.kind}` : ""}`,
  });
}

/**
 * A request derived from the operations table: each part (method, path, query, headers, body) is
 * usually what the operation expects and sometimes bent, so a request is often nearly valid.
 */
/** Every part of the request (method, path, query, headers, body) drawn at once, each usually what the operation expects and sometimes bent. */
export function wildRequestArb(
  ctx: FuzzContext,
  operations: fc.Arbitrary<Operation> = operationArb(),
): fc.Arbitrary<FuzzRequest> {
  return operations.chain((op) => {
    // Operations with a body usually get one (of any kind); the others now and then.
    const [withBody, without] = op.body ? [12, 1] : [1, 6];
    const body = fc.oneof(
      { weight: withBody, arbitrary: bodyArb(op, ctx).map((b): FuzzBody | undefined => b) },
      { weight: without, arbitrary: fc.constant(undefined) },
    );
    return fc
      .tuple(methodArb(op, "any"), pathArb(ctx, op, "any"), queryArb(ctx, op, "any"), headersArb(ctx, op, "any"), body)
      .map(([method, path, query, headers, b]) => assemble(op, method, path, query, headers, b, "wild"));
  });
}

/** A header set to `value` (removed when undefined) in a copy of `headers`. */
function withHeader(
  headers: Readonly<Record<string, string>>,
  name: string,
  value: string | undefined,
): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const k of Object.keys(headers)) if (k !== name) setOwn(copy, k, headers[k]);
  if (value !== undefined) setOwn(copy, name, value);
  return copy;
}

/** A valid request for `op` with exactly one part bent: it gets past every other check, so the bent part is what is judged. */
export function bentRequestArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  const show = (v: unknown) => clip(JSON.stringify(v) ?? "undefined", 50);
  const bend: fc.Arbitrary<(r: FuzzRequest) => FuzzRequest>[] = [
    methodArb(op, "any").map((m) => (r: FuzzRequest) => withPart(r, { method: m }, `method ${show(m)}`)),
    pathArb(ctx, op, "any").map((p) => (r: FuzzRequest) => withPart(r, { path: p }, `path ${show(p)}`)),
    queryArb(ctx, op, "any").map((q) => (r: FuzzRequest) => withPart(r, { query: q }, `query ${show(q)}`)),
    authArb(ctx, "any").map(
      (a) => (r: FuzzRequest) =>
        withPart(r, { headers: withHeader(r.headers, "authorization", a) }, `authorization ${show(a)}`),
    ),
    fc
      .constantFrom<string | undefined>(...ODD_CONTENT_TYPES, undefined)
      .map(
        (t) => (r: FuzzRequest) =>
          withPart(r, { headers: withHeader(r.headers, "content-type", t) }, `content-type ${show(t)}`),
      ),
    fc
      .oneof(
        fc.stringMatching(/^[\x21-\x7E]{1,40}$/),
        fc.constantFrom<string | undefined>(
          "x".repeat(255),
          "__proto__",
          "constructor",
          "toString",
          undefined,
          ...ODD_IDEMPOTENCY_KEYS,
        ),
      )
      .map(
        (k) => (r: FuzzRequest) =>
          withPart(r, { headers: withHeader(r.headers, "idempotency-key", k) }, `idempotency-key ${show(k)}`),
      ),
    fc
      .tuple(
        fc.constantFrom(
          "x-fuzz",
          "__proto__",
          "constructor",
          "prototype",
          "accept",
          "content-length",
          "transfer-encoding",
          "x-forwarded-for",
          "host",
        ),
        fc.string({ maxLength: 30 }),
      )
      .map(
        ([n, v]) =>
          (r: FuzzRequest) =>
            withPart(r, { headers: withHeader(r.headers, n, v) }, `header ${show(n)}: ${show(v)}`),
      ),
    bodyArb(op, ctx).map(
      (b) => (r: FuzzRequest) => withPart(r, { body: b.bytes, bodyTooLarge: b.tooLarge }, `body ${b.kind}`),
    ),
  ];
  return fc.tuple(validRequestArb(ctx, op), fc.oneof(...bend)).map(([r, f]) => f(r));
}

/**
 * A request derived from the operations table: wild (every part drawn), bent (valid but for one part),
 * or valid (so that writes succeed and later requests meet a changed world).
 */
export function fuzzRequestArb(
  ctx: FuzzContext,
  operations: fc.Arbitrary<Operation> = operationArb(),
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: wildRequestArb(ctx, operations) },
    { weight: 3, arbitrary: operations.chain((op) => bentRequestArb(ctx, op)) },
    { weight: 1, arbitrary: operations.chain((op) => validRequestArb(ctx, op)) },
  );
}

/** A fully valid request shape for `op` (ids, query, headers); the body is the given one or a valid one. */
export function validRequestArb(
  ctx: FuzzContext,
  op: Operation,
  body?: fc.Arbitrary<FuzzBody>,
): fc.Arbitrary<FuzzRequest> {
  const b: fc.Arbitrary<FuzzBody | undefined> = op.body
    ? (body ??
      valueArb(op.body as Schema, ctx).map(
        (v): FuzzBody => ({ kind: "valid", bytes: utf8(jsonText(v)), tooLarge: false }),
      ))
    : fc.constant(undefined);
  return fc
    .tuple(pathArb(ctx, op, "valid"), queryArb(ctx, op, "valid"), headersArb(ctx, op, "valid"), b)
    .map(([path, query, headers, bd]) => assemble(op, op.method, path, query, headers, bd, "valid"));
}

/** A valid request for `op` with one part replaced. */
export function withPart(r: FuzzRequest, part: Partial<Omit<FuzzRequest, "note">>, note: string): FuzzRequest {
  return described({ ...r, ...part, note: `${r.note}, ${note}` });
}
