// Fuzzing support (issue "Robustness and security"): fast-check arbitraries for odd and malformed
// requests derived from the operations table, the spec's error envelope as a check, a digest of the
// world's state (for "a refused write changes nothing"), a scan for prototype pollution, and a raw
// socket client for byte-level cases over real HTTP.
//
// Spec references (retail-api-v1.md): Errors (the envelope and the code catalog), Endpoints (list
// parameters, bodies), Pagination and polling rules, Limits (Idempotency-Key, rate limits).
import net from "node:net";
import fc from "fast-check";
import { ERROR_STATUS, isErrorCode } from "../contract/errors.js";
import type { Operation } from "../contract/operation.js";
import { OPERATIONS } from "../contract/operations/index.js";
import { encodeCursor } from "../engine/cursor.js";
import { Feed, FeedIndex, SlotList } from "../engine/feed.js";
import type { StoreState } from "../engine/store.js";
import { MAX_BODY_BYTES, type SimRequest, type SimResponse } from "../http/types.js";
import { isUuid } from "../kernel/random.js";
import type { Simulator } from "../simulator.js";

// ---------------------------------------------------------------------------------------------
// Run configuration: bounded in the normal suite, FUZZ_RUNS / FUZZ_SEED for long or replayed runs.

function envInteger(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, not "${text}"`);
  return value;
}

/** Runs of one property: `normal` in the normal suite; FUZZ_RUNS (times `share`, for costly properties) when set. */
export function fuzzRuns(normal: number, share = 1): number {
  const runs = envInteger("FUZZ_RUNS");
  return runs === undefined ? normal : Math.max(1, Math.round(runs * share));
}

/** The property's fixed seed, or FUZZ_SEED when set (to replay a failure printed by another run). */
export function fuzzSeed(fixed: number): number {
  return envInteger("FUZZ_SEED") ?? fixed;
}

/** fast-check parameters: fixed seed, bounded runs; a failure prints the seed, the path and the shrunk counterexample. */
export function fuzzParameters<T>(normalRuns: number, seed: number, share = 1): fc.Parameters<T> {
  return { numRuns: fuzzRuns(normalRuns, share), seed: fuzzSeed(seed), verbose: fc.VerbosityLevel.None };
}

/** A vitest timeout that grows with the number of runs (FUZZ_RUNS=2000 takes longer than the normal suite). */
export function fuzzTimeout(normalRuns: number, msPerRun: number, share = 1): number {
  return 30_000 + fuzzRuns(normalRuns, share) * msPerRun;
}

// ---------------------------------------------------------------------------------------------
// What the fuzzer knows of the demo fixture: tokens, ids, SKUs and real cursors. Every simulator made
// with the same seed and fixture has the same ones, so a context read from one serves them all.

export type IdKind =
  | "products"
  | "brands"
  | "categories"
  | "tags"
  | "suppliers"
  | "sales"
  | "customers"
  | "customer-groups"
  | "outlets"
  | "adjustment-reasons"
  | "taxes"
  | "payment-types";

export interface FuzzContext {
  readonly tokens: {
    readonly full: string;
    /** Keys of the demo store with fewer scopes (read, single scopes, none). */
    readonly scoped: readonly string[];
    /** The full key of another store (a credential under the wrong prefix). */
    readonly other: string;
    /** The full key of the store on a plan without API access. */
    readonly lite: string;
  };
  /** Ids of the demo store by kind (deleted ones included, if any). */
  readonly ids: Readonly<Record<IdKind, readonly string[]>>;
  /** Ids of the other store: foreign to the demo store. */
  readonly foreignIds: readonly string[];
  readonly skus: readonly string[];
  /** A real cursor per demo list path (`/products`), as the service encodes it. */
  readonly cursors: Readonly<Record<string, string>>;
  /** Cursors the demo store never issued: other store's lists. */
  readonly foreignCursors: readonly string[];
}

function rowIds<T>(feed: Feed<T>): string[] {
  return [...feed.all()].map((row) => row.id);
}

export function fuzzContext(sim: Simulator): FuzzContext {
  const demo = sim.world.stores.get("demo");
  const other = sim.world.stores.get("other");
  if (!demo || !other) throw new Error("fuzzing needs the demo fixture (stores demo and other)");
  const c = demo.catalog;
  const ids: Record<IdKind, string[]> = {
    products: rowIds(c.products),
    brands: rowIds(c.brands),
    categories: rowIds(c.categories),
    tags: rowIds(c.tags),
    suppliers: rowIds(c.suppliers),
    sales: rowIds(demo.sales.sales),
    customers: rowIds(demo.customers.customers),
    "customer-groups": rowIds(demo.customers.groups),
    outlets: rowIds(demo.outlets),
    "adjustment-reasons": rowIds(demo.reasons),
    taxes: rowIds(demo.taxes),
    "payment-types": rowIds(demo.paymentTypes),
  };
  for (const [kind, list] of Object.entries(ids)) if (list.length === 0) throw new Error(`the demo store has no ${kind}`);
  const foreignIds = feedsOf(other).flatMap((feed) => rowIds(feed));
  const cursors: Record<string, string> = {};
  for (const feed of feedsOf(demo)) {
    const first = feed.all().next();
    if (!first.done) cursors[`/${feed.name.slice("demo/".length)}`] = encodeCursor(feed.name, first.value.seq);
  }
  const foreignCursors = feedsOf(other).map((feed) => encodeCursor(feed.name, 1));
  const keys = sim.world.credentials.forStore("demo");
  return {
    tokens: {
      full: sim.token("demo", "full"),
      scoped: keys.filter((k) => k.name !== "full").map((k) => sim.token("demo", k.name)),
      other: sim.token("other", "full"),
      lite: sim.token("lite", "full"),
    },
    ids,
    foreignIds,
    skus: [...c.products.all()].map((row) => row.value.sku),
    cursors,
    foreignCursors,
  };
}

// ---------------------------------------------------------------------------------------------
// Requests: the SimRequest fields, generated; printed compactly in counterexamples.

export interface FuzzRequest {
  readonly method: string;
  /** Percent-encoded as sent (it may be anything: the fuzzer does not promise a well-formed path). */
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array | null;
  readonly bodyTooLarge: boolean;
  /** The operation the request was derived from and how it was bent, for messages. */
  readonly note: string;
}

export const REMOTE_ADDRESS = "203.0.113.7";
export const FUZZ_ORIGIN = "http://sim.test";

export function toSimRequest(r: FuzzRequest): SimRequest {
  return { method: r.method, path: r.path, query: r.query, headers: r.headers, body: r.body, bodyTooLarge: r.bodyTooLarge, remoteAddress: REMOTE_ADDRESS, origin: FUZZ_ORIGIN };
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`);

/** Bytes shown as text, with anything outside printable ASCII escaped. */
export function previewBytes(bytes: Uint8Array | null, max = 160): string {
  if (bytes === null) return "null";
  const head = Buffer.from(bytes.subarray(0, max)).toString("latin1");
  const shown = JSON.stringify(head).replace(/[\u007f-\u00ff]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return bytes.length > max ? `${shown}…(${bytes.length} bytes)` : shown;
}

export function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 120)}`);
  const body = r.bodyTooLarge ? "(body over MAX_BODY_BYTES, not read)" : previewBytes(r.body);
  return `[${r.note}] ${clip(JSON.stringify(r.method), 40)} ${clip(JSON.stringify(r.path), 200)} query=${clip(JSON.stringify(r.query), 200)} {${headers.join("; ")}} body=${body}`;
}

/** Makes fast-check print the request compactly (a body can be a megabyte). */
function described(r: FuzzRequest): FuzzRequest {
  Object.defineProperty(r, fc.toStringMethod, { value: () => describeRequest(r), enumerable: false });
  return r;
}

export function describeResponse(res: SimResponse): string {
  const body = res.body === null ? "null" : typeof res.body === "string" ? clip(res.body, 400) : previewBytes(res.body);
  return `${res.status} content-type=${res.headers["content-type"] ?? "none"} body=${body}`;
}

// ---------------------------------------------------------------------------------------------
// JSON text with what JSON.stringify cannot write: raw number literals (1e400, -0, 2^53 + 1), own
// `__proto__` keys, deep nesting.

/** A piece of JSON text written as is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Sets an own enumerable property, even one named `__proto__` (plain assignment would set the prototype). */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

/** A deep copy (own keys, `__proto__` included) with `value` at `path`. */
function withAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(root)) {
    const copy = root.slice();
    copy[head as number] = withAt(copy[head as number], rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(root as object)) setOwn(copy, k, (root as Record<string, unknown>)[k]);
  setOwn(copy, String(head), withAt(copy[String(head)], rest, value));
  return copy;
}

// ---------------------------------------------------------------------------------------------
// Bodies from the operation's schema (TypeBox, i.e. JSON Schema).

/** The JSON Schema keywords the operation table's body schemas use (TypeBox output). */
export interface Schema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly anyOf?: readonly Schema[];
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly decimals?: number;
}

/** Strings that have tripped servers: prototype names, markup, quotes, control and astral characters. */
export const NASTY_STRINGS = [
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "polluted",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "Ω≈ç√∫˜µ≤≥÷",
  "𝕿𝖍𝖊 🐈‍⬛",
  "\u202eevil",
  "a\u0000b",
  "\ud800",
  "${7*7}",
  "%s%n",
  "..",
  "null",
] as const;

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 40);
  const base = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, max) }) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: Math.max(min, Math.min(max, 12)) }) },
  );
  // The schema's pattern as ajv reads it (unicode mode: `.` matches no line terminator such as U+2028).
  const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern, "u");
  return base.map((text) => {
    if (s.pattern === "^[0-9]+$") return String(text.length);
    const chars = [...text];
    let out = s.maxLength !== undefined && chars.length > s.maxLength ? chars.slice(0, s.maxLength).join("") : text;
    if (pattern !== undefined) {
      out = out.replace(/^\s+|\s+$/g, "");
      if (!pattern.test(out)) out = "";
    }
    return [...out].length >= min ? out : "X".repeat(Math.max(1, min));
  });
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const scale = integer ? 1 : 10 ** (s.decimals ?? 3);
  // Bounds in units of the smallest step (1, or 10^-decimals); exclusive bounds one step inside.
  const lo = Math.max(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 / scale : -1_000_000), -1_000_000);
  const hi = Math.min(s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 / scale : 1_000_000), 1_000_000);
  const bounds = [s.minimum, s.maximum].filter((n): n is number => n !== undefined);
  if (integer) return bounds.length === 0 ? fc.integer({ min: lo, max: hi }) : fc.oneof({ weight: 4, arbitrary: fc.integer({ min: lo, max: hi }) }, { weight: 1, arbitrary: fc.constantFrom(...bounds) });
  return fc.integer({ min: Math.round(lo * scale), max: Math.round(hi * scale) }).map((n) => n / scale);
}

/** The kind of id a property names (`reason_id`, or the `id` of an item of `tags`). */
const ID_HINTS: Readonly<Record<string, IdKind>> = {
  reason_id: "adjustment-reasons",
  outlet_id: "outlets",
  product_id: "products",
  variant_parent_id: "products",
  brand_id: "brands",
  category_id: "categories",
  parent_id: "categories",
  supplier_id: "suppliers",
  suppliers: "suppliers",
  tags: "tags",
  customer_group_id: "customer-groups",
};

/**
 * A value of `schema`, mostly valid in shape. Ids are usually of the kind the property names, sometimes
 * of another kind, another store or none, so references are often right and sometimes wrong. `hint` is
 * the name of the property the value is for.
 */
export function valueArb(schema: Schema, ctx: FuzzContext, depth = 0, hint = "", full = false): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => valueArb(s, ctx, depth, hint, full)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "string":
      if (schema.format === "uuid") return uuidArb(ctx, ID_HINTS[hint]);
      if (hint === "sku" && schema.minLength !== undefined) return fc.oneof(fc.constantFrom(...ctx.skus), fc.constantFrom(...ctx.skus).map((s) => s.toLowerCase()), stringArb(schema));
      if (schema.format === "date-time") return fc.constantFrom("2026-01-01T00:00:00Z", "2025-12-31T23:59:59.999Z");
      if (schema.format === "date") return fc.constantFrom("1990-02-03", "2000-02-29");
      if (schema.format === "email") return fc.constantFrom("fuzz@example.com", "a.b+c@example.org");
      return stringArb(schema);
    case "integer":
      return numberArb(schema, true);
    case "number":
      return numberArb(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 3, Math.max(min, depth > 1 ? 1 : 3));
      // `full`: every property present and every array holding an item, so that every field path is reached.
      return schema.items ? fc.array(valueArb(schema.items, ctx, depth + 1, hint, full), { minLength: full ? Math.max(1, min) : min, maxLength: Math.max(max, full ? 1 : 0) }) : fc.constant([]);
    }
    case "object": {
      const props = schema.properties ?? {};
      const required = schema.required ?? [];
      const optional = Object.keys(props).filter((k) => !required.includes(k));
      return (full ? fc.constant(optional) : fc.subarray(optional, { maxLength: Math.min(3, optional.length) })).chain((chosen) => {
        const keys = [...required, ...chosen];
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const k of keys) model[k] = valueArb(props[k] as Schema, ctx, depth + 1, k === "id" ? hint : k, full);
        return fc.record(model);
      });
    }
    default:
      return fc.constant(null);
  }
}

function uuidArb(ctx: FuzzContext, kind: IdKind | undefined): fc.Arbitrary<string> {
  const all = fc.constantFrom(...Object.values(ctx.ids).flat());
  const others = [{ weight: 3, arbitrary: all }, { weight: 1, arbitrary: fc.constantFrom(...ctx.foreignIds) }, { weight: 1, arbitrary: fc.uuid() }];
  return kind ? fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ctx.ids[kind]) }, ...others) : fc.oneof(...others);
}

/** The JSON types `schema` accepts ("integer" counts as a number that is whole). */
function acceptedTypes(schema: Schema): Set<string> {
  if (schema.anyOf) return new Set(schema.anyOf.flatMap((s) => [...acceptedTypes(s)]));
  if (schema.enum) return new Set(schema.enum.map((v) => (v === null ? "null" : typeof v)));
  return new Set(schema.type ? [schema.type === "integer" ? "number" : schema.type] : ["string", "number", "boolean", "null", "array", "object"]);
}

/** Values of every JSON type, each with the type a validator sees (1e400 parses to Infinity, a number). */
const WRONG_TYPED: readonly { readonly type: string; readonly value: unknown }[] = [
  { type: "string", value: "1" },
  { type: "string", value: "" },
  { type: "string", value: "true" },
  { type: "number", value: 1.5 },
  { type: "number", value: new RawJson("-0") },
  { type: "number", value: new RawJson("1e400") },
  { type: "number", value: new RawJson("9007199254740993") },
  { type: "boolean", value: true },
  { type: "boolean", value: false },
  { type: "null", value: null },
  { type: "array", value: [] },
  { type: "array", value: ["1"] },
  { type: "object", value: {} },
  { type: "object", value: { value: 1 } },
];

/** Every (path, schema) of a value generated from `schema`: present properties and array items, and absent top-level properties. */
function fieldPaths(schema: Schema, value: unknown, path: (string | number)[] = []): { path: (string | number)[]; schema: Schema }[] {
  const out: { path: (string | number)[]; schema: Schema }[] = [];
  if (schema.type === "object" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, sub] of Object.entries(schema.properties ?? {})) {
      const present = Object.hasOwn(value, k);
      if (present || path.length === 0) out.push({ path: [...path, k], schema: sub });
      if (present) out.push(...fieldPaths(sub, (value as Record<string, unknown>)[k], [...path, k]));
    }
  } else if (schema.type === "array" && Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      out.push({ path: [...path, i], schema: schema.items as Schema });
      out.push(...fieldPaths(schema.items as Schema, item, [...path, i]));
    });
  }
  return out;
}

export interface WrongTypeBody {
  readonly text: string;
  /** The field the spec's `fields` must name: dots between path parts. */
  readonly field: string;
}

/** A valid-shaped body with one field replaced by a value of a type its schema does not accept. */
export function wrongTypeBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<WrongTypeBody> {
  const schema = op.body as Schema;
  return valueArb(schema, ctx).chain((value) => {
    const paths = fieldPaths(schema, value);
    const targets = paths.map(({ path, schema: sub }) => ({ path, wrong: WRONG_TYPED.filter((w) => !acceptedTypes(sub).has(w.type)) })).filter((t) => t.wrong.length > 0);
    return fc.constantFrom(...targets).chain(({ path, wrong }) => fc.constantFrom(...wrong).map((w) => ({ text: jsonText(withAt(value, path, w.value)), field: path.join(".") })));
  });
}

/** Own keys that must never reach a stored record or the prototype chain. */
export const PROTO_KEYS = ["__proto__", "constructor", "prototype"] as const;

const POISON = (): Record<string, unknown> => {
  const o: Record<string, unknown> = {};
  setOwn(o, "polluted", true);
  setOwn(o, "isAdmin", true);
  const proto: Record<string, unknown> = {};
  setOwn(proto, "polluted", true);
  setOwn(o, "prototype", proto);
  return o;
};

export interface ProtoKeyBody {
  readonly text: string;
  /** Where the key was put (dots between path parts), key included. */
  readonly field: string;
}

/** A valid-shaped body with `__proto__`, `constructor` or `prototype` as an own key of the body or of a nested object. */
export function protoKeyBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<ProtoKeyBody> {
  const schema = op.body as Schema;
  return valueArb(schema, ctx).chain((value) => {
    const objects = [{ path: [] as (string | number)[] }, ...fieldPaths(schema, value).filter(({ path }) => {
      let v: unknown = value;
      for (const p of path) v = (v as Record<string | number, unknown>)?.[p];
      return v !== null && typeof v === "object" && !Array.isArray(v);
    })];
    return fc.tuple(fc.constantFrom(...objects), fc.constantFrom(...PROTO_KEYS)).map(([{ path }, key]) => {
      let target: unknown = value;
      for (const p of path) target = (target as Record<string | number, unknown>)[p];
      const poisoned: Record<string, unknown> = {};
      for (const k of Object.keys(target as object)) setOwn(poisoned, k, (target as Record<string, unknown>)[k]);
      setOwn(poisoned, key, POISON());
      return { text: jsonText(withAt(value, path, poisoned)), field: [...path, key].join(".") };
    });
  });
}

export type BodyKind =
  | "valid"
  | "wrong-type"
  | "extra-property"
  | "proto-key"
  | "deep-nesting"
  | "number-literal"
  | "invalid-utf8"
  | "truncated"
  | "empty"
  | "absent"
  | "not-json"
  | "at-size-cap"
  | "over-size-cap";

export interface FuzzBody {
  readonly kind: BodyKind;
  readonly bytes: Uint8Array | null;
  readonly tooLarge: boolean;
  /** For body-level refusals: the field the 400 names. */
  readonly field?: string;
}

const INVALID_UTF8: readonly number[][] = [[0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xfe, 0xfe, 0xff, 0xff]];

/** Bytes of a valid JSON body with a malformed UTF-8 sequence inside its first string. */
function withInvalidUtf8(text: string, bad: readonly number[]): Uint8Array {
  const bytes = Buffer.from(text, "utf8");
  const at = bytes.indexOf(0x22) + 1;
  return new Uint8Array(Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]));
}

export const NOT_JSON = ["hello", "<product><name>x</name></product>", "name=x&retail_price=1", "NaN", "undefined", "{'name':'x'}", '{"name":"x"}{"name":"y"}', "[", "{", '{"name":"x",}', "\u0000", "{\"name\":\"x\"}\u0000"] as const;

/** Depths of nesting: the issue's 10,000 levels, and deeper (JSON.parse may overflow its stack on those). */
export const NESTING_DEPTHS = [10_000, 100_000] as const;

function nested(depth: number, open: string, close: string, inner = ""): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** Huge, tiny and precise number literals put where the body has a number (or anywhere). */
export const NUMBER_LITERALS = ["1e400", "-1e400", "-0", "9007199254740993", "1e-400", "123456789012345678901234567890", "0.1e1", "1E2", "-9007199254740993.5", "4.9e-324"] as const;

/** Pads a JSON text with spaces to exactly `size` bytes. */
function padded(text: string, size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(Buffer.from(text, "utf8"), 0);
  return bytes;
}

/** A body of any kind for `op` (any operation: a GET may be sent a body too). */
export function bodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzBody> {
  const schema = (op.body ?? { type: "object", properties: { name: { type: "string" } } }) as Schema;
  const valid = valueArb(schema, ctx).map((v) => jsonText(v));
  const json = (kind: BodyKind) => (text: string): FuzzBody => ({ kind, bytes: utf8(text), tooLarge: false });
  const wrong = op.body ? wrongTypeBodyArb(op, ctx).map((w) => ({ ...json("wrong-type")(w.text), field: w.field })) : valid.map(json("wrong-type"));
  const proto = op.body ? protoKeyBodyArb(op, ctx).map((p) => ({ ...json("proto-key")(p.text), field: p.field })) : fc.constant(json("proto-key")('{"__proto__":{"polluted":true}}'));
  const numberLiteral = fc.tuple(valueArb(schema, ctx), fc.constantFrom(...NUMBER_LITERALS)).map(([value, literal]) => {
    const paths = fieldPaths(schema, value).filter(({ schema: s }) => acceptedTypes(s).has("number"));
    const target = paths[0]?.path ?? ["number"];
    return json("number-literal")(jsonText(withAt(value, target, new RawJson(literal))));
  });
  const deep = fc.tuple(fc.constantFrom(...NESTING_DEPTHS), fc.constantFrom("root", "field", "extra"), fc.constantFrom(["[", "]"], ['{"a":', "}"])).map(([depth, where, [open, close]]) => {
    const deepValue = nested(depth, open as string, close as string, open === "[" ? "" : "1");
    const text = where === "root" ? deepValue : where === "field" ? `{"${Object.keys(schema.properties ?? { name: 0 })[0]}":${deepValue}}` : `{"nested":${deepValue}}`;
    return json("deep-nesting")(text);
  });
  return fc.oneof(
    { weight: 8, arbitrary: valid.map(json("valid")) },
    { weight: 4, arbitrary: wrong },
    { weight: 1, arbitrary: fc.tuple(valueArb(schema, ctx), fc.constantFrom("extra", "id ", "NAME", "", "lines.0", ...NASTY_STRINGS)).map(([v, k]) => json("extra-property")(jsonText(withAt(v, [k], 1)))) },
    { weight: 3, arbitrary: proto },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: numberLiteral },
    { weight: 2, arbitrary: fc.tuple(valid, fc.constantFrom(...INVALID_UTF8)).map(([text, bad]) => ({ kind: "invalid-utf8" as const, bytes: withInvalidUtf8(text, bad), tooLarge: false, field: "body" })) },
    { weight: 2, arbitrary: valid.chain((text) => fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((n) => ({ ...json("truncated")(text.slice(0, n)), field: "body" }))) },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: "empty", bytes: new Uint8Array(0), tooLarge: false, field: "body" }) },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: "absent", bytes: null, tooLarge: false, field: "body" }) },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON).map((t) => ({ ...json("not-json")(t), field: "body" })) },
    { weight: 1, arbitrary: valid.map((text) => ({ kind: "at-size-cap" as const, bytes: padded(text, MAX_BODY_BYTES), tooLarge: false })) },
    // What both adapters hand over for a body past the cap: not read, flagged.
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: "over-size-cap", bytes: null, tooLarge: true, field: "body" }) },
  );
}

/** Kinds of body that are invalid whatever the operation: the 400 names `field`. */
export function invalidBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzBody & { field: string }> {
  return bodyArb(op, ctx).filter((b): b is FuzzBody & { field: string } => b.field !== undefined);
}

// ---------------------------------------------------------------------------------------------
// Methods, paths, query strings and headers.

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const ODD_METHODS = ["get", "post", "Patch", "delete", "HEAD", "OPTIONS", "TRACE", "CONNECT", "BREW", "PROPFIND", "MKCOL", "PURGE", "", " GET", "GET ", "G\u0000ET", "ÖPTIONS", "__proto__"] as const;

const PREFIXES_ODD = ["/other/v1", "/lite/v1", "/nope/v1", "/demo/v2", "/DEMO/v1", "/%64emo/v1", "/demo%2Fv1", "/demo/V1", "", "/demo", "//demo/v1", "/demo//v1", "/demo/v1/", "/%zz/v1", "/%/v1", "/demo/v1/..", "/./demo/v1", "/__proto__/v1", "/constructor/v1", "/dëmo/v1"] as const;

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
      fc.constantFrom("not-a-uuid", "..", ".", "%zz", "%", "%2F", "%00", "null", "undefined", "__proto__", "constructor", "0", "-1", "{id}", "%7Bid%7D", "'%20OR%201=1", "%3Cscript%3E"),
      fc.constantFrom(`${some}x`, some.slice(0, -1), `${some}%00`, `{${some}}`, `%20${some}`, some.replace(/-/g, ""), `${some.slice(0, -1)}g`, `${some}%2F`, `${some}.json`),
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
    { weight: 1, arbitrary: fc.constantFrom("a/b", `${ctx.ids.products[0]}/inventory`, "..%2F..%2F_sim", "../../_sim/reset") },
  );
}

/** An operation's path with its parameters filled in (`/products/{id}` under `/demo/v1`). */
function opPath(op: Operation, values: readonly string[]): string {
  let i = 0;
  return op.path.replace(/\{[a-z_]+\}/g, () => values[i++] as string);
}

function paramsArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string[]> {
  const names = [...op.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);
  return names.length === 0 ? fc.constant([]) : fc.tuple(...names.map((n) => paramArb(ctx, op, n, mode)));
}

const PATH_MUTATIONS = ["none", "trailing-slash", "double-slash", "dot-dot", "dot", "encoded-static", "upper-static", "long-tail", "bad-escape", "lone-percent", "unicode", "random"] as const;

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
  const prefix = mode === "valid" ? fc.constant("/demo/v1") : fc.oneof({ weight: 12, arbitrary: fc.constant("/demo/v1") }, { weight: 4, arbitrary: fc.constantFrom(...PREFIXES_ODD) });
  const mutation = mode === "valid" ? fc.constant("none" as const) : fc.oneof({ weight: 14, arbitrary: fc.constant("none" as const) }, { weight: 4, arbitrary: fc.constantFrom(...PATH_MUTATIONS) });
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
    fc.constantFrom("garbage", "", "%zz", "a".repeat(5_000), `${real}x`, real.slice(0, -1), real.toUpperCase(), `${real}=`, "null", "0", "-1"),
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
    fc.constantFrom("1", "50", "200", "0", "201", "-1", "1e309", "1e3", "1.5", "abc", "", "9007199254740993", "99999999999999999999", "0x10", " 1", "+1", "1 ", "０").map((v) => enc("limit", v)),
    cursorValues.map((v) => enc("cursor", v)),
    fc.constantFrom("asc", "desc", "ASC", "", "sideways", "asc,desc").map((v) => enc("order", v)),
    fc.constantFrom("true", "false", "maybe", "1", "0", "", "TRUE", "yes").map((v) => enc("include_deleted", v)),
    fc.oneof(fc.constantFrom(...ctx.skus), fc.constantFrom("", "%", "__proto__"), fc.string({ maxLength: 20 })).map((v) => enc("sku", v)),
    fc.constantFrom("2026-01-01T00:00:00Z", "2026-01-01T00:00:00+02:00", "2026-13-45T99:99:99Z", "yesterday", "", "1e309").chain((v) => fc.constantFrom("completed_from", "completed_to").map((n) => enc(n, v))),
    fc.constantFrom("completed", "partially_refunded", "refunded", "voided", "open", "", "COMPLETED").map((v) => enc("status", v)),
    fc.oneof(fc.constantFrom(...Object.values(ctx.ids).flat()), fc.constantFrom("x", "", "__proto__")).chain((v) => fc.constantFrom("outlet_id", "customer_id", "parent_sale_id").map((n) => enc(n, v))),
  );
  const unknown = fc.oneof(
    fc.constantFrom("foo=bar", "__proto__=1", "__proto__[polluted]=1", "constructor=x", "constructor.prototype.polluted=1", "hasOwnProperty=1", "toString=", "limit", "=", "&", "a=%zz", "%=%", "a[]=1", "a[b]=c", "=x", "%E0%A4%A=1"),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).map(([n, v]) => enc(n, v)),
    fc.string({ maxLength: 20 }),
  );
  return isList(op) ? fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: unknown }) : fc.oneof(known, unknown);
}

function queryArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  if (mode === "valid") {
    if (!isList(op)) return fc.constant("");
    return fc.oneof(fc.constant(""), fc.integer({ min: 1, max: 200 }).map((n) => `limit=${n}`), fc.constant(`cursor=${ctx.cursors[op.path] ?? ""}`), fc.constant("order=desc"));
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.array(queryEntryArb(ctx, op), { minLength: 1, maxLength: 4 }).chain((entries) => fc.boolean().map((repeat) => (repeat ? [...entries, entries[0] as string] : entries).join("&"))) },
  );
}

const ODD_CONTENT_TYPES = ["application/json; charset=utf-8", "APPLICATION/JSON", "application/vnd.api+json", "application/json;", "application/json ; charset=latin1", "text/plain", "application/jsonx", "", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/problem+json", "*/*", "json", "application/json\u0000"] as const;

export const ODD_IDEMPOTENCY_KEYS = ["", " ", "a b", "x".repeat(256), "x".repeat(300), "ключ", "k\u0000", "\t", "é", "key\r\n", "\u00a0"] as const;

/** Authorization values that are no credential: missing scheme, wrong scheme, wrong token, junk around it. */
export function badAuthorizationArb(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  const t = ctx.tokens.full;
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom("", "Bearer", "Bearer ", "Bearer  ", `Basic ${Buffer.from(`x:${t}`).toString("base64")}`, `Bearer ${t} extra`, `Bearer ${t},Bearer ${t}`, t, `Bearer\t${t}`, `Bearer ${"x".repeat(600)}`, `Bearer é${t}`, "Bearer __proto__", "Bearer constructor", `Bearer ${t.toUpperCase()}`, `Bearer ${t.slice(0, -1)}`, `Token ${t}`, `Bearer ${t}\u0000`, `Bearer "${t}"`),
    fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`).filter((v) => v !== `Bearer ${t}`),
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
  const contentType = mode === "valid" ? fc.constant<string | undefined>("application/json") : fc.oneof({ weight: 10, arbitrary: fc.constant<string | undefined>("application/json") }, { weight: 2, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) });
  const validKey = fc.stringMatching(/^[\x21-\x7E]{1,40}$/);
  const key =
    mode === "valid"
      ? op.idempotency === "required"
        ? validKey.map((k): string | undefined => k)
        : fc.constant(undefined)
      : fc.oneof(
          { weight: 6, arbitrary: op.idempotency === "required" ? validKey.map((k): string | undefined => k) : fc.constant(undefined) },
          { weight: 3, arbitrary: validKey },
          { weight: 1, arbitrary: fc.constantFrom("x".repeat(255), "__proto__", "constructor", "toString") },
          { weight: 2, arbitrary: fc.constantFrom(...ODD_IDEMPOTENCY_KEYS) },
        );
  const extras = mode === "valid" ? fc.constant<[string, string][]>([]) : fc.array(fc.tuple(fc.constantFrom("x-fuzz", "__proto__", "constructor", "accept", "content-length", "transfer-encoding", "x-forwarded-for", "host"), fc.string({ maxLength: 30 })), { maxLength: 2 });
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
  return fc.oneof({ weight: 16, arbitrary: fc.constant<string>(op.method) }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) }, { weight: 2, arbitrary: fc.constantFrom(...ODD_METHODS) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
}

/** The operations of the table, optionally only some. */
export function operationArb(filter: (op: Operation) => boolean = () => true): fc.Arbitrary<Operation> {
  return fc.constantFrom(...OPERATIONS.filter(filter));
}

function assemble(op: Operation, method: string, path: string, query: string, headers: Record<string, string>, body: FuzzBody | undefined, note: string): FuzzRequest {
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
export function wildRequestArb(ctx: FuzzContext, operations: fc.Arbitrary<Operation> = operationArb()): fc.Arbitrary<FuzzRequest> {
  return operations.chain((op) => {
    // Operations with a body usually get one (of any kind); the others now and then.
    const [withBody, without] = op.body ? [12, 1] : [1, 6];
    const body = fc.oneof({ weight: withBody, arbitrary: bodyArb(op, ctx).map((b): FuzzBody | undefined => b) }, { weight: without, arbitrary: fc.constant(undefined) });
    return fc
      .tuple(methodArb(op, "any"), pathArb(ctx, op, "any"), queryArb(ctx, op, "any"), headersArb(ctx, op, "any"), body)
      .map(([method, path, query, headers, b]) => assemble(op, method, path, query, headers, b, "wild"));
  });
}

/** A header set to `value` (removed when undefined) in a copy of `headers`. */
function withHeader(headers: Readonly<Record<string, string>>, name: string, value: string | undefined): Record<string, string> {
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
    authArb(ctx, "any").map((a) => (r: FuzzRequest) => withPart(r, { headers: withHeader(r.headers, "authorization", a) }, `authorization ${show(a)}`)),
    fc.constantFrom<string | undefined>(...ODD_CONTENT_TYPES, undefined).map((t) => (r: FuzzRequest) => withPart(r, { headers: withHeader(r.headers, "content-type", t) }, `content-type ${show(t)}`)),
    fc
      .oneof(fc.stringMatching(/^[\x21-\x7E]{1,40}$/), fc.constantFrom<string | undefined>("x".repeat(255), "__proto__", "constructor", "toString", undefined, ...ODD_IDEMPOTENCY_KEYS))
      .map((k) => (r: FuzzRequest) => withPart(r, { headers: withHeader(r.headers, "idempotency-key", k) }, `idempotency-key ${show(k)}`)),
    fc
      .tuple(fc.constantFrom("x-fuzz", "__proto__", "constructor", "prototype", "accept", "content-length", "transfer-encoding", "x-forwarded-for", "host"), fc.string({ maxLength: 30 }))
      .map(([n, v]) => (r: FuzzRequest) => withPart(r, { headers: withHeader(r.headers, n, v) }, `header ${show(n)}: ${show(v)}`)),
    bodyArb(op, ctx).map((b) => (r: FuzzRequest) => withPart(r, { body: b.bytes, bodyTooLarge: b.tooLarge }, `body ${b.kind}`)),
  ];
  return fc.tuple(validRequestArb(ctx, op), fc.oneof(...bend)).map(([r, f]) => f(r));
}

/**
 * A request derived from the operations table: wild (every part drawn), bent (valid but for one part),
 * or valid (so that writes succeed and later requests meet a changed world).
 */
export function fuzzRequestArb(ctx: FuzzContext, operations: fc.Arbitrary<Operation> = operationArb()): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: wildRequestArb(ctx, operations) },
    { weight: 3, arbitrary: operations.chain((op) => bentRequestArb(ctx, op)) },
    { weight: 1, arbitrary: operations.chain((op) => validRequestArb(ctx, op)) },
  );
}

/** A fully valid request shape for `op` (ids, query, headers); the body is the given one or a valid one. */
export function validRequestArb(ctx: FuzzContext, op: Operation, body?: fc.Arbitrary<FuzzBody>): fc.Arbitrary<FuzzRequest> {
  const b: fc.Arbitrary<FuzzBody | undefined> = op.body ? (body ?? valueArb(op.body as Schema, ctx).map((v): FuzzBody => ({ kind: "valid", bytes: utf8(jsonText(v)), tooLarge: false }))) : fc.constant(undefined);
  return fc.tuple(pathArb(ctx, op, "valid"), queryArb(ctx, op, "valid"), headersArb(ctx, op, "valid"), b).map(([path, query, headers, bd]) => assemble(op, op.method, path, query, headers, bd, "valid"));
}

/** A valid request for `op` with one part replaced. */
export function withPart(r: FuzzRequest, part: Partial<Omit<FuzzRequest, "note">>, note: string): FuzzRequest {
  return described({ ...r, ...part, note: `${r.note}, ${note}` });
}

// ---------------------------------------------------------------------------------------------
// Spec, Errors: the envelope `{"error": {"code", "message", "fields"?: [{field, message}]}}`.

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** What is wrong with a non-2xx answer under the spec's Errors section; empty when it is the envelope with the catalog's status. */
export function envelopeProblems(status: number, contentType: string | undefined, body: string | null): string[] {
  if (!contentType?.toLowerCase().startsWith("application/json")) return [`content-type is ${JSON.stringify(contentType)}, not application/json`];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? "");
  } catch {
    return [`the body is not JSON: ${clip(JSON.stringify(body), 200)}`];
  }
  if (!isPlainObject(parsed)) return ["the body is not a JSON object"];
  const problems: string[] = [];
  const error = parsed.error;
  const keys = Object.keys(parsed).sort();
  // Spec, Errors: IMAGE_FETCH_FAILED carries the saved product in `data` next to the error; nothing else has a sibling.
  const dataAllowed = isPlainObject(error) && error.code === "IMAGE_FETCH_FAILED";
  const expectedKeys = dataAllowed && keys.includes("data") ? ["data", "error"] : ["error"];
  if (JSON.stringify(keys) !== JSON.stringify(expectedKeys)) problems.push(`top-level keys are ${JSON.stringify(keys)}, not ${JSON.stringify(expectedKeys)}`);
  if (!isPlainObject(error)) return [...problems, "`error` is not an object"];
  for (const k of Object.keys(error)) if (!["code", "message", "fields"].includes(k)) problems.push(`error has an unknown member ${JSON.stringify(k)}`);
  if (typeof error.code !== "string") problems.push("error.code is not a string");
  else if (!isErrorCode(error.code)) problems.push(`error.code ${JSON.stringify(error.code)} is not a catalog code`);
  else if (ERROR_STATUS[error.code] !== status) problems.push(`error.code ${error.code} has status ${ERROR_STATUS[error.code]} in the catalog, answered ${status}`);
  if (typeof error.message !== "string" || error.message.length === 0) problems.push("error.message is not a non-empty string");
  if (Object.hasOwn(error, "fields")) {
    const fields = error.fields;
    if (!Array.isArray(fields) || fields.length === 0) problems.push("error.fields is present but not a non-empty array");
    else
      fields.forEach((f, i) => {
        if (!isPlainObject(f) || JSON.stringify(Object.keys(f).sort()) !== '["field","message"]' || typeof f.field !== "string" || typeof f.message !== "string") {
          problems.push(`error.fields[${i}] is not {field: string, message: string}: ${clip(JSON.stringify(f), 200)}`);
        }
      });
  }
  return problems;
}

export function bodyText(res: SimResponse): string | null {
  if (res.body === null) return null;
  return typeof res.body === "string" ? res.body : Buffer.from(res.body).toString("utf8");
}

// ---------------------------------------------------------------------------------------------
// The world's state, for "a refused write changes nothing". Covers every store's feeds (ids, versions,
// deletion marks, the JSON of values), stock levels and adjustments, settings, the change sequence, the
// indexes kept beside the feeds, credentials (not when they were last used), users and stored images.
// Not covered, on purpose: rate-limit windows and idempotency records (they change with any request),
// and the id generator's position.

/** Feeds of a store, found by walking it (and its catalog, customers and sales), so new feeds are covered. */
export function feedsOf(store: StoreState): Feed<unknown>[] {
  const found: Feed<unknown>[] = [];
  const visit = (o: object, depth: number) => {
    for (const v of Object.values(o)) {
      if (v instanceof Feed) found.push(v as Feed<unknown>);
      else if (depth === 0 && isPlainObjectOrInstance(v)) visit(v, 1);
    }
  };
  visit(store, 0);
  return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function isPlainObjectOrInstance(v: unknown): v is object {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set);
}

/** Deterministic text of a value: keys sorted, Maps and Sets as sorted entries, cycles marked. */
export function canonical(value: unknown, skip: (v: object) => boolean = () => false, omit: ReadonlySet<string> = new Set(), stack: object[] = []): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "function") return "function";
  if (typeof value === "symbol") return value.toString();
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (stack.includes(value)) return '"<cycle>"';
  if (skip(value)) return '"<skipped>"';
  stack.push(value);
  const inner = (v: unknown) => canonical(v, skip, omit, stack);
  let out: string;
  if (Array.isArray(value)) out = `[${value.map(inner).join(",")}]`;
  else if (value instanceof Map) out = `Map{${[...value].map(([k, v]) => `${inner(k)}=>${inner(v)}`).sort().join(",")}}`;
  else if (value instanceof Set) out = `Set{${[...value].map(inner).sort().join(",")}}`;
  else {
    const keys = Object.keys(value).filter((k) => !omit.has(k)).sort();
    out = `{${keys.map((k) => `${JSON.stringify(k)}:${inner((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  stack.pop();
  return out;
}

/** JSON of a stored value (records are plain data; Maps and Sets, should one appear, as entries). */
function valueJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Map ? { $map: [...v] } : v instanceof Set ? { $set: [...v] } : v === undefined ? "$undefined" : typeof v === "bigint" ? `${v}n` : v)) ?? "undefined";
}

export type WorldDigest = Readonly<Record<string, string>>;

const FEED_INTERNALS = (v: object) => v instanceof Feed || v instanceof FeedIndex || v instanceof SlotList;

export function worldDigest(sim: Simulator): WorldDigest {
  const world = sim.world;
  const out: Record<string, string> = {};
  for (const store of [...world.stores.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : 1))) {
    const p = store.prefix;
    out[`${p} settings`] = canonical({ settings: store.settings, settingsSeq: store.settingsSeq, lastSeq: store.lastSeq, systemReasonId: store.systemReasonId });
    for (const feed of feedsOf(store)) {
      out[`${p} feed ${feed.name}`] = [...feed.all()].map((row) => `${row.id} seq=${row.seq} deletedAt=${row.deletedAt} ${valueJson(row.value)}`).join("\n");
    }
    const levels = [...store.catalog.products.all()].map((row) => `${row.id} ${valueJson(store.inventory.levelsOf(row.id))}`);
    out[`${p} stock levels`] = levels.join("\n");
    out[`${p} stock adjustments`] = valueJson(store.inventory.adjustments);
    // The indexes beside the feeds (SKUs, names, reverse indexes, counts, customer codes, refunds).
    out[`${p} indexes`] = canonical({ catalog: store.catalog, customers: store.customers, sales: store.sales }, FEED_INTERNALS);
    out[`${p} credentials`] = canonical(world.credentials.forStore(p), () => false, new Set(["lastUsedAt"]));
  }
  out["world users"] = canonical(world.users);
  out["world stored images"] = canonical([...world.images.stored].sort());
  return out;
}

/** Sections of two digests that differ, with the first differing line of each. */
export function digestDiff(before: WorldDigest, after: WorldDigest): string[] {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const out: string[] = [];
  for (const name of names) {
    const a = before[name];
    const b = after[name];
    if (a === b) continue;
    const la = (a ?? "").split("\n");
    const lb = (b ?? "").split("\n");
    const i = la.findIndex((line, k) => line !== lb[k]);
    const at = i === -1 ? la.length : i;
    out.push(`${name}: line ${at + 1} was ${clip(JSON.stringify(la[at] ?? "<none>"), 300)}, now ${clip(JSON.stringify(lb[at] ?? "<none>"), 300)}`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Prototype pollution.

const ALLOWED_PROTOTYPES = new Set<unknown>([Object.prototype, Array.prototype, null, Map.prototype, Set.prototype, Date.prototype]);

/** Own names of the built-in prototypes, taken before any request. */
export function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype]
    .map((proto) => Reflect.ownKeys(proto).map(String).sort().join(","))
    .join("|");
}

/** Signs of a polluted Object.prototype. */
export function pollution(): string[] {
  const probe = {} as Record<string, unknown>;
  const out: string[] = [];
  for (const name of ["polluted", "isAdmin"]) if (probe[name] !== undefined) out.push(`({}).${name} is ${String(probe[name])}`);
  if (typeof probe.constructor !== "function" || probe.constructor !== Object) out.push("({}).constructor is not Object");
  return out;
}

/** Stored records (every feed's values) holding a prototype key or an object with an unexpected prototype. */
export function storedProtoProblems(sim: Simulator): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (v === null || typeof v !== "object") return;
    if (!ALLOWED_PROTOTYPES.has(Object.getPrototypeOf(v))) out.push(`${path} has a foreign prototype`);
    for (const k of Object.keys(v)) {
      if ((PROTO_KEYS as readonly string[]).includes(k) || k === "polluted" || k === "isAdmin") out.push(`${path}.${k} is stored`);
      walk((v as Record<string, unknown>)[k], `${path}.${k}`);
    }
  };
  for (const store of sim.world.stores.values()) for (const feed of feedsOf(store)) for (const row of feed.all()) walk(row.value, `${feed.name}/${row.id}`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP over a socket: the bytes on the wire are exactly the ones given.

export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Parses one HTTP/1.1 response out of `data`, or undefined when it is not complete yet (`ended`: the server closed). */
function parseReply(data: Buffer, ended: boolean): RawReply | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const head = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "");
  if (!status) throw new Error(`not an HTTP response: ${clip(JSON.stringify(head[0]), 200)}`);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  const length = headers["content-length"];
  if (length !== undefined) {
    if (rest.length < Number(length)) return undefined;
    return { status: Number(status[1]), headers, body: rest.subarray(0, Number(length)).toString("utf8") };
  }
  if (headers["transfer-encoding"] !== undefined) throw new Error("chunked responses are not expected from the simulator");
  return ended ? { status: Number(status[1]), headers, body: rest.toString("utf8") } : undefined;
}

/**
 * Sends `bytes` on a fresh connection and reads one response. `halfClose` ends the client's side after
 * sending (a body cut short then reaches the server as a closed connection, not a stall).
 */
export function rawExchange(port: number, bytes: Uint8Array, options: { halfClose?: boolean; timeoutMs?: number } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error: Error | undefined, reply?: RawReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (reply) resolve(reply);
      else reject(error ?? new Error("no response"));
    };
    const timer = setTimeout(() => finish(new Error(`no complete response within ${options.timeoutMs ?? 5000} ms; got ${clip(JSON.stringify(Buffer.concat(chunks).toString("latin1")), 300)}`)), options.timeoutMs ?? 5000);
    const attempt = (ended: boolean) => {
      try {
        const reply = parseReply(Buffer.concat(chunks), ended);
        if (reply) finish(undefined, reply);
        else if (ended) finish(new Error(`the connection closed without a complete response; got ${clip(JSON.stringify(Buffer.concat(chunks).toString("latin1")), 300)}`));
      } catch (error) {
        finish(error as Error);
      }
    };
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      attempt(false);
    });
    socket.on("end", () => attempt(true));
    socket.on("close", () => attempt(true));
    // A server that answers before reading everything (a header block over its limit) may reset the
    // connection under our writes: what it already sent is still the answer.
    socket.on("error", () => attempt(true));
    socket.write(bytes, () => {
      if (options.halfClose) socket.end();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Byte-level requests for the node:http adapter.

export type RawKind =
  | "invalid-utf8"
  | "truncated-json"
  | "short-body"
  | "over-cap"
  | "over-cap-chunked"
  | "huge-headers"
  | "bad-request-line"
  | "bad-chunked"
  | "smuggling"
  | "odd-header-bytes";

export interface RawRequest {
  readonly kind: RawKind;
  readonly bytes: Uint8Array;
  /** End the client's side after sending (the body is shorter than announced). */
  readonly halfClose: boolean;
  /** The server must refuse it (4xx); otherwise any answer but a 5xx will do. */
  readonly refused: boolean;
  readonly note: string;
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

export function describeRaw(r: RawRequest): string {
  return `[${r.kind}${r.halfClose ? ", half-closed" : ""}] ${r.note} ${previewBytes(r.bytes, 400)}`;
}

function rawDescribed(r: RawRequest): RawRequest {
  Object.defineProperty(r, fc.toStringMethod, { value: () => describeRaw(r), enumerable: false });
  return r;
}

/** Requests only the bytes can express: malformed UTF-8, bodies cut short or over the cap, header blocks over the limit, broken framing. */
export function rawRequestArb(ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const writes = operationArb((op) => op.body !== undefined);
  const target = writes.chain((op) =>
    fc.tuple(fc.constant(op), paramsArb(ctx, op, "valid"), valueArb(op.body as Schema, ctx), fc.stringMatching(/^[\x21-\x7E]{1,40}$/)),
  );
  return fc
    .tuple(
      target,
      fc.constantFrom<RawKind>("invalid-utf8", "truncated-json", "short-body", "over-cap", "over-cap-chunked", "huge-headers", "bad-request-line", "bad-chunked", "smuggling", "odd-header-bytes"),
      fc.nat(),
      fc.constantFrom(...INVALID_UTF8),
    )
    .map(([[op, params, value, key], kind, n, bad]) => {
      const path = `/demo/v1${opPath(op, params)}`;
      const text = jsonText(value);
      const head = (method: string, extra: string) =>
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nIdempotency-Key: ${key}\r\nConnection: close\r\n${extra}`;
      const withLength = (body: Uint8Array, extra = "") => Buffer.concat([latin1(head(op.method, `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n`)), body]);
      let bytes: Uint8Array;
      let halfClose = false;
      let refused = true;
      let note = `${op.method} ${op.path}`;
      switch (kind) {
        case "invalid-utf8":
          bytes = withLength(withInvalidUtf8(text, bad));
          break;
        case "truncated-json": {
          const cut = Buffer.from(text, "utf8").subarray(0, 1 + (n % Math.max(1, Buffer.byteLength(text) - 1)));
          bytes = withLength(cut);
          break;
        }
        case "short-body": {
          const body = Buffer.from(text, "utf8");
          const announced = body.length + 1 + (n % 1000);
          bytes = Buffer.concat([latin1(head(op.method, `Content-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n`)), body]);
          halfClose = true;
          note += `, announced ${announced} bytes, sent ${body.length}`;
          break;
        }
        case "over-cap": {
          const size = MAX_BODY_BYTES + 1 + (n % 65_536);
          bytes = withLength(padded(text, size));
          note += `, ${size} bytes`;
          break;
        }
        case "over-cap-chunked": {
          const size = MAX_BODY_BYTES + 1 + (n % 65_536);
          const body = padded(text, size);
          const chunk = 256 * 1024;
          const parts: Buffer[] = [latin1(head(op.method, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"))];
          for (let at = 0; at < body.length; at += chunk) {
            const piece = body.subarray(at, at + chunk);
            parts.push(latin1(`${piece.length.toString(16)}\r\n`), Buffer.from(piece), latin1("\r\n"));
          }
          parts.push(latin1("0\r\n\r\n"));
          bytes = Buffer.concat(parts);
          note += `, ${size} bytes chunked`;
          break;
        }
        case "huge-headers": {
          // Well over the 16 KiB cap however it is counted (Node counts names and values, not the separators).
          const size = 20_000 + (n % 48_000);
          const many = n % 2 === 0;
          const extra = many ? Array.from({ length: Math.ceil(size / 100) }, (_, i) => `X-Fuzz-${i}: ${"v".repeat(88)}\r\n`).join("") : `X-Fuzz: ${"v".repeat(size)}\r\n`;
          bytes = withLength(Buffer.from(text, "utf8"), extra);
          note += `, ${many ? "many headers" : "one header"} of ${size} bytes`;
          break;
        }
        case "bad-request-line": {
          // [line, must be refused]. Node's parser reads a line without a version, or with two spaces after
          // the method, leniently (as GET): those need only an answer that is not a 5xx.
          const lines: [string, boolean][] = [
            [`BREW ${path} HTTP/1.1`, true],
            [`get ${path} HTTP/1.1`, true],
            [`G@T ${path} HTTP/1.1`, true],
            [`GET ${path} HTTP/9.9`, true],
            [`GET /demo/v1/products/\xe2\x82\xac HTTP/1.1`, true],
            [`GET ${path}\x00 HTTP/1.1`, true],
            [`${"A".repeat(20_000)} / HTTP/1.1`, true],
            [`GET ${path} http/1.1`, true],
            [`GET ${path}`, false],
            [`GET  ${path} HTTP/1.1`, false],
          ];
          const [line, mustRefuse] = lines[n % lines.length] as [string, boolean];
          refused = mustRefuse;
          bytes = latin1(`${line}\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nConnection: close\r\n\r\n`);
          note = `request line ${clip(JSON.stringify(line), 80)}`;
          break;
        }
        case "bad-chunked": {
          const bodies = ["zz\r\nabc\r\n0\r\n\r\n", "5\r\nab\r\n0\r\n\r\n", "-1\r\nx\r\n0\r\n\r\n", `ffffffffffffffffff\r\n${text}\r\n0\r\n\r\n`, `${Buffer.byteLength(text).toString(16)}\r\n${text}0\r\n\r\n`];
          // The body text goes out as UTF-8 (the chunk sizes count its UTF-8 bytes).
          bytes = Buffer.concat([latin1(head(op.method, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")), Buffer.from(bodies[n % bodies.length] as string, "utf8")]);
          break;
        }
        case "smuggling": {
          const variants = [
            `Content-Length: ${Buffer.byteLength(text)}\r\nTransfer-Encoding: chunked\r\n`,
            `Content-Length: ${Buffer.byteLength(text)}\r\nContent-Length: ${Buffer.byteLength(text) + 1}\r\n`,
            `Content-Length: -1\r\n`,
            `Content-Length: 1e3\r\n`,
            `Transfer-Encoding: gzip, chunked, identity\r\n`,
          ];
          bytes = Buffer.concat([latin1(head(op.method, `Content-Type: application/json\r\n${variants[n % variants.length]}\r\n`)), Buffer.from(text, "utf8")]);
          break;
        }
        case "odd-header-bytes": {
          // Bytes above 0x7F in header values, header names a JS object would treat specially: any answer but a 5xx.
          const extras = ["X-Name: caf\xe9\xff\r\n", "Idempotency-Key: \xd0\xba\xd0\xbb\xd1\x8e\xd1\x87\r\n", "__proto__: {\"polluted\":true}\r\n", "constructor: x\r\nprototype: y\r\n", "Content-Type: application/json; charset=\xff\r\n"];
          bytes = withLength(Buffer.from(text, "utf8"), extras[n % extras.length]);
          refused = false;
          break;
        }
      }
      return rawDescribed({ kind, bytes, halfClose, refused, note });
    });
}

// ---------------------------------------------------------------------------------------------
// Every field of every body schema, for the exhaustive wrong-type check.

/** A field path with every array position written as `0`, so paths of different samples compare. */
const normalPath = (path: readonly (string | number)[]) => path.map((p) => (typeof p === "number" ? 0 : p)).join(".");

/**
 * For each operation with a body: valid-shaped bodies (some with every property present, some drawn
 * at random, from a fixed seed) and, for every field path they reach (top-level properties, present
 * or not, nested properties and array items), a value of each JSON type the field's schema does not
 * accept (`every`: each of the fuzzer's wrong values, several per type).
 */
export function wrongTypeCases(op: Operation, ctx: FuzzContext, samples = 40, every = false): { text: string; field: string; wrong: string }[] {
  const schema = op.body as Schema;
  const out = new Map<string, { text: string; field: string; wrong: string }>();
  const values = [...fc.sample(valueArb(schema, ctx, 0, "", true), { numRuns: 4, seed: 7 }), ...fc.sample(valueArb(schema, ctx), { numRuns: samples, seed: 7 })];
  for (const value of values) {
    for (const { path, schema: sub } of fieldPaths(schema, value)) {
      const accepted = acceptedTypes(sub);
      for (const w of WRONG_TYPED) {
        if (accepted.has(w.type)) continue;
        const id = `${normalPath(path)} ${every ? jsonText(w.value) : w.type}`;
        if (!out.has(id)) out.set(id, { text: jsonText(withAt(value, path, w.value)), field: path.join("."), wrong: jsonText(w.value) });
      }
    }
  }
  return [...out.values()];
}

/** Every property path of a schema (array items as `0`): what `wrongTypeCases` should reach. */
export function schemaPaths(schema: Schema, path: string[] = []): string[] {
  if (schema.anyOf) return [...new Set(schema.anyOf.flatMap((s) => schemaPaths(s, path)))];
  if (schema.type === "object") return Object.entries(schema.properties ?? {}).flatMap(([k, sub]) => [[...path, k].join("."), ...schemaPaths(sub, [...path, k])]);
  if (schema.type === "array" && schema.items) return [[...path, "0"].join("."), ...schemaPaths(schema.items, [...path, "0"])];
  return [];
}
