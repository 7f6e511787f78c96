// Fuzzing support: What the fuzzer knows of the demo fixture, generated SimRequests, and JSON text JSON.stringify cannot write.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import { encodeCursor } from "../../kernel/cursor.js";
import { Feed } from "../../engine/feed.js";
import type { SimRequest, SimResponse } from "../../http/types.js";
import type { StoreState } from "../../engine/store.js";
import type { Simulator } from "../../simulator.js";

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
  for (const [kind, list] of Object.entries(ids))
    if (list.length === 0) throw new Error(`the demo store has no ${kind}`);
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
  return {
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: r.body,
    bodyTooLarge: r.bodyTooLarge,
    remoteAddress: REMOTE_ADDRESS,
    origin: FUZZ_ORIGIN,
  };
}

export const clip = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;

/** Bytes shown as text, with anything outside printable ASCII escaped. */
export function previewBytes(bytes: Uint8Array | null, max = 160): string {
  if (bytes === null) return "null";
  const head = Buffer.from(bytes.subarray(0, max)).toString("latin1");
  const shown = JSON.stringify(head).replace(
    /[\u007f-\u00ff]/g,
    (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return bytes.length > max ? `${shown}…(${bytes.length} bytes)` : shown;
}

export function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers).map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 120)}`);
  const body = r.bodyTooLarge ? "(body over MAX_BODY_BYTES, not read)" : previewBytes(r.body);
  return `[${r.note}] ${clip(JSON.stringify(r.method), 40)} ${clip(JSON.stringify(r.path), 200)} query=${clip(JSON.stringify(r.query), 200)} {${headers.join("; ")}} body=${body}`;
}

/** Makes fast-check print the request compactly (a body can be a megabyte). */
export function described(r: FuzzRequest): FuzzRequest {
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

export const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

/** A deep copy (own keys, `__proto__` included) with `value` at `path`. */
export function withAt(root: unknown, path: readonly (string | number)[], value: unknown): unknown {
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

export function isPlainObjectOrInstance(v: unknown): v is object {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof Set);
}

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

export const latin1 = (text: string) => Buffer.from(text, "latin1");

/** Own keys that must never reach a stored record or the prototype chain. */
export const PROTO_KEYS = ["__proto__", "constructor", "prototype"] as const;
