// Fuzzing support: Methods, paths, query strings and headers, odd and malformed.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { OPERATIONS } from "../../contract/operations/index.js";
import { isUuid } from "../../kernel/random.js";
import { type FuzzBody, type Schema, bodyArb, nested, valueArb } from "./bodies.js";
import {
  type FuzzContext,
  type FuzzRequest,
  type IdKind,
  clip,
  described,
  jsonText,
  setOwn,
  utf8,
} from "./requests.js";

// Methods, paths, query strings and headers.

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const ODD_METHODS = [
  "get",
  "post",
  "Patch",
  "delete",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "CONNECT",
  "BREW",
  "PROPFIND",
  "MKCOL",
  "PURGE",
  "",
  " GET",
  "GET ",
  "G\u0000ET",
  "ÖPTIONS",
  "__proto__",
] as const;

const PREFIXES_ODD = [
  "/other/v1",
  "/lite/v1",
  "/nope/v1",
  "/demo/v2",
  "/DEMO/v1",
  "/%64emo/v1",
  "/demo%2Fv1",
  "/demo/V1",
  "",
  "/demo",
  "//demo/v1",
  "/demo//v1",
  "/demo/v1/",
  "/%zz/v1",
  "/%/v1",
  "/demo/v1/..",
  "/./demo/v1",
  "/__proto__/v1",
  "/constructor/v1",
  "/dëmo/v1",
] as const;

/** The store-relative first segment of an operation's path names the kind of its `{id}`. */
function kindOf(op: Operation, param: string): IdKind {
  if (param === "outlet_id") return "outlets";
  return op.path.split("/")[1] as IdKind;
}

/** Path parameter values that are no UUID, even once percent-decoded; none holds a raw `/`. */
export function nonUuidSegmentArb(ctx: FuzzContext): fc.Arbitrary<string> {
  const some = ctx.ids.products[0] as string;
  return fc
    .oneof(
      fc.constantFrom(
        "not-a-uuid",
        "..",
        ".",
        "%zz",
        "%",
        "%2F",
        "%00",
        "null",
        "undefined",
        "__proto__",
        "constructor",
        "0",
        "-1",
        "{id}",
        "%7Bid%7D",
        "'%20OR%201=1",
        "%3Cscript%3E",
      ),
      fc.constantFrom(
        `${some}x`,
        some.slice(0, -1),
        `${some}%00`,
        `{${some}}`,
        `%20${some}`,
        some.replace(/-/g, ""),
        `${some.slice(0, -1)}g`,
        `${some}%2F`,
        `${some}.json`,
      ),
      fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }).map(encodeURIComponent),
      fc.constantFrom(300, 5_000, 70_000).map((n) => "a".repeat(n)),
    )
    .filter((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        /* undecodable: no UUID */
      }
      return !isUuid(decoded) && !segment.includes("/");
    });
}

function paramArb(ctx: FuzzContext, op: Operation, param: string, mode: "any" | "valid"): fc.Arbitrary<string> {
  const own = ctx.ids[kindOf(op, param)];
  const valid = fc.constantFrom(...own);
  if (mode === "valid") return valid;
  const anyId = fc.constantFrom(...Object.values(ctx.ids).flat());
  return fc.oneof(
    { weight: 8, arbitrary: valid },
    { weight: 1, arbitrary: anyId },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.foreignIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: valid.map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: valid.map((id) => [...id].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join("")) },
    { weight: 3, arbitrary: nonUuidSegmentArb(ctx) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 10 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("a/b", `${ctx.ids.products[0]}/inventory`, "..%2F..%2F_sim", "../../_sim/reset"),
    },
  );
}

/** An operation's path with its parameters filled in (`/products/{id}` under `/demo/v1`). */
export function opPath(op: Operation, values: readonly string[]): string {
  let i = 0;
  return op.path.replace(/\{[a-z_]+\}/g, () => values[i++] as string);
}

export function paramsArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string[]> {
  const names = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return names.length === 0 ? fc.constant([]) : fc.tuple(...names.map((n) => paramArb(ctx, op, n, mode)));
}

const PATH_MUTATIONS = [
  "none",
  "trailing-slash",
  "double-slash",
  "dot-dot",
  "dot",
  "encoded-static",
  "upper-static",
  "long-tail",
  "bad-escape",
  "lone-percent",
  "unicode",
  "random",
] as const;

function mutatePath(path: string, mutation: (typeof PATH_MUTATIONS)[number], extra: string): string {
  const parts = path.split("/");
  const last = parts.length - 1;
  switch (mutation) {
    case "none":
      return path;
    case "trailing-slash":
      return `${path}/`;
    case "double-slash":
      return path.replace(/\/(?=[^/]*$)/, "//");
    case "dot-dot":
      return `${path}/..`;
    case "dot":
      return path.replace(/\/(?=[^/]*$)/, "/./");
    case "encoded-static":
      parts[last] = [...(parts[last] ?? "")].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
      return parts.join("/");
    case "upper-static":
      return path.toUpperCase();
    case "long-tail":
      return `${path}/${"x".repeat(70_000)}`;
    case "bad-escape":
      return `${path}%zz`;
    case "lone-percent":
      return `${path}/%`;
    case "unicode":
      return `${path}/${extra}`;
    case "random":
      return extra.startsWith("/") ? extra : `/${extra}`;
  }
}

/** Paths the fuzzer never sends: the control plane, the OAuth endpoints and stored images (not the API of the spec). */
export function isApiPath(path: string): boolean {
  return !(path === "/_sim" || path.startsWith("/_sim/") || path.startsWith("/oauth/") || path.startsWith("/images/"));
}

function pathArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  const prefix =
    mode === "valid"
      ? fc.constant("/demo/v1")
      : fc.oneof(
          { weight: 12, arbitrary: fc.constant("/demo/v1") },
          { weight: 4, arbitrary: fc.constantFrom(...PREFIXES_ODD) },
        );
  const mutation =
    mode === "valid"
      ? fc.constant("none" as const)
      : fc.oneof(
          { weight: 14, arbitrary: fc.constant("none" as const) },
          { weight: 4, arbitrary: fc.constantFrom(...PATH_MUTATIONS) },
        );
  return fc
    .tuple(prefix, paramsArb(ctx, op, mode), mutation, fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }))
    .map(([p, values, m, extra]) => mutatePath(`${p}${opPath(op, values)}`, m, extra))
    .filter(isApiPath);
}

const isList = (op: Operation) => op.kind === "list";

/** One `name=value` of a query string, encoded or not. */
function queryEntryArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<string> {
  const enc = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const real = ctx.cursors[op.path] ?? Object.values(ctx.cursors)[0] ?? "x";
  const cursorValues = fc.oneof(
    fc.constant(real),
    fc.constantFrom(...Object.values(ctx.cursors), ...ctx.foreignCursors),
    fc.constantFrom(
      "garbage",
      "",
      "%zz",
      "a".repeat(5_000),
      `${real}x`,
      real.slice(0, -1),
      real.toUpperCase(),
      `${real}=`,
      "null",
      "0",
      "-1",
    ),
    fc.constantFrom(
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: -1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 1.5 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 1e300 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 999_999 })).toString("base64url"),
      Buffer.from('{"__proto__":{"polluted":true},"l":"demo/products","s":1}').toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: "1" })).toString("base64url"),
      Buffer.from(nested(5_000, "[", "]")).toString("base64url"),
    ),
    fc.string({ maxLength: 40 }),
  );
  const known = fc.oneof(
    fc
      .constantFrom(
        "1",
        "50",
        "200",
        "0",
        "201",
        "-1",
        "1e309",
        "1e3",
        "1.5",
        "abc",
        "",
        "9007199254740993",
        "99999999999999999999",
        "0x10",
        " 1",
        "+1",
        "1 ",
        "０",
      )
      .map((v) => enc("limit", v)),
    cursorValues.map((v) => enc("cursor", v)),
    fc.constantFrom("asc", "desc", "ASC", "", "sideways", "asc,desc").map((v) => enc("order", v)),
    fc.constantFrom("true", "false", "maybe", "1", "0", "", "TRUE", "yes").map((v) => enc("include_deleted", v)),
    fc
      .oneof(fc.constantFrom(...ctx.skus), fc.constantFrom("", "%", "__proto__"), fc.string({ maxLength: 20 }))
      .map((v) => enc("sku", v)),
    fc
      .constantFrom(
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00+02:00",
        "2026-13-45T99:99:99Z",
        "yesterday",
        "",
        "1e309",
      )
      .chain((v) => fc.constantFrom("completed_from", "completed_to").map((n) => enc(n, v))),
    fc
      .constantFrom("completed", "partially_refunded", "refunded", "voided", "open", "", "COMPLETED")
      .map((v) => enc("status", v)),
    fc
      .oneof(fc.constantFrom(...Object.values(ctx.ids).flat()), fc.constantFrom("x", "", "__proto__"))
      .chain((v) => fc.constantFrom("outlet_id", "customer_id", "parent_sale_id").map((n) => enc(n, v))),
  );
  const unknown = fc.oneof(
    fc.constantFrom(
      "foo=bar",
      "__proto__=1",
      "__proto__[polluted]=1",
      "constructor=x",
      "constructor.prototype.polluted=1",
      "hasOwnProperty=1",
      "toString=",
      "limit",
      "=",
      "&",
      "a=%zz",
      "%=%",
      "a[]=1",
      "a[b]=c",
      "=x",
      "%E0%A4%A=1",
    ),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).map(([n, v]) => enc(n, v)),
    fc.string({ maxLength: 20 }),
  );
  return isList(op)
    ? fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: unknown })
    : fc.oneof(known, unknown);
}

function queryArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  if (mode === "valid") {
    if (!isList(op)) return fc.constant("");
    return fc.oneof(
      fc.constant(""),
      fc.integer({ min: 1, max: 200 }).map((n) => `limit=${n}`),
      fc.constant(`cursor=${ctx.cursors[op.path] ?? ""}`),
      fc.constant("order=desc"),
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    {
      weight: 4,
      arbitrary: fc
        .array(queryEntryArb(ctx, op), { minLength: 1, maxLength: 4 })
        .chain((entries) =>
          fc.boolean().map((repeat) => (repeat ? [...entries, entries[0] as string] : entries).join("&")),
        ),
    },
  );
}

const ODD_CONTENT_TYPES = [
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json;",
  "application/json ; charset=latin1",
  "text/plain",
  "application/jsonx",
  "",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "application/problem+json",
  "*/*",
  "json",
  "application/json\u0000",
] as const;

export const ODD_IDEMPOTENCY_KEYS = [
  "",
  " ",
  "a b",
  "x".repeat(256),
  "x".repeat(300),
  "ключ",
  "k\u0000",
  "\t",
  "é",
  "key\r\n",
  "\u00a0",
] as const;

/** Authorization values that are no credential: missing scheme, wrong scheme, wrong token, junk around it. */
export function badAuthorizationArb(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  const t = ctx.tokens.full;
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      "",
      "Bearer",
      "Bearer ",
      "Bearer  ",
      `Basic ${Buffer.from(`x:${t}`).toString("base64")}`,
      `Bearer ${t} extra`,
      `Bearer ${t},Bearer ${t}`,
      t,
      `Bearer\t${t}`,
      `Bearer ${"x".repeat(600)}`,
      `Bearer é${t}`,
      "Bearer __proto__",
      "Bearer constructor",
      `Bearer ${t.toUpperCase()}`,
      `Bearer ${t.slice(0, -1)}`,
      `Token ${t}`,
      `Bearer ${t}\u0000`,
      `Bearer "${t}"`,
    ),
    fc
      .string({ maxLength: 60 })
      .map((s) => `Bearer ${s}`)
      .filter((v) => v !== `Bearer ${t}`),
  );
}

function authArb(ctx: FuzzContext, mode: "any" | "valid"): fc.Arbitrary<string | undefined> {
  const full = fc.constant(`Bearer ${ctx.tokens.full}`);
  if (mode === "valid") return full;
  return fc.oneof(
    { weight: 14, arbitrary: full },
    { weight: 1, arbitrary: fc.constantFrom(`bearer ${ctx.tokens.full}`, `BEARER   ${ctx.tokens.full}`) },
    { weight: 2, arbitrary: fc.constantFrom(...ctx.tokens.scoped).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constantFrom(ctx.tokens.other, ctx.tokens.lite).map((k) => `Bearer ${k}`) },
    { weight: 3, arbitrary: badAuthorizationArb(ctx) },
  );
}

function headersArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<Record<string, string>> {
  const contentType =
    mode === "valid"
      ? fc.constant<string | undefined>("application/json")
      : fc.oneof(
          { weight: 10, arbitrary: fc.constant<string | undefined>("application/json") },
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) },
        );
  const validKey = fc.stringMatching(/^[\x21-\x7E]{1,40}$/);
  const key =
    mode === "valid"
      ? op.idempotency === "required"
        ? validKey.map((k): string | undefined => k)
        : fc.constant(undefined)
      : fc.oneof(
          {
            weight: 6,
            arbitrary:
              op.idempotency === "required" ? validKey.map((k): string | undefined => k) : fc.constant(undefined),
          },
          { weight: 3, arbitrary: validKey },
          { weight: 1, arbitrary: fc.constantFrom("x".repeat(255), "__proto__", "constructor", "toString") },
          { weight: 2, arbitrary: fc.constantFrom(...ODD_IDEMPOTENCY_KEYS) },
        );
  const extras =
    mode === "valid"
      ? fc.constant<[string, string][]>([])
      : fc.array(
          fc.tuple(
            fc.constantFrom(
              "x-fuzz",
              "__proto__",
              "constructor",
              "accept",
              "content-length",
              "transfer-encoding",
              "x-forwarded-for",
              "host",
            ),
            fc.string({ maxLength: 30 }),
          ),
          { maxLength: 2 },
        );
  return fc.tuple(authArb(ctx, mode), contentType, key, extras).map(([auth, type, idem, more]) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of more) setOwn(headers, name, value);
    if (auth !== undefined) headers.authorization = auth;
    if (type !== undefined) headers["content-type"] = type;
    if (idem !== undefined) headers["idempotency-key"] = idem;
    return headers;
  });
}

function methodArb(op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  if (mode === "valid") return fc.constant(op.method);
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant<string>(op.method) },
    { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD_METHODS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
}

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
