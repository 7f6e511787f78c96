// Fuzzing support: What every answer must be: the spec's envelope; the world's state for "a refused write changes nothing"; prototype pollution.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import { ERROR_STATUS, isErrorCode } from "../../contract/errors.js";
import { Feed, FeedIndex, SlotList } from "../../engine/feed.js";
import { MultiIndex } from "../../engine/catalog/state.js";
import type { SimResponse } from "../../http/types.js";
import type { Simulator } from "../../simulator.js";
import { clip, feedsOf, PROTO_KEYS } from "./requests.js";

// Spec, Errors: the envelope `{"error": {"code", "message", "fields"?: [{field, message}]}}`.

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** What is wrong with a non-2xx answer under the spec's Errors section; empty when it is the envelope with the catalog's status. */
export function envelopeProblems(status: number, contentType: string | undefined, body: string | null): string[] {
  if (!contentType?.toLowerCase().startsWith("application/json"))
    return [`content-type is ${JSON.stringify(contentType)}, not application/json`];
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
  if (JSON.stringify(keys) !== JSON.stringify(expectedKeys))
    problems.push(`top-level keys are ${JSON.stringify(keys)}, not ${JSON.stringify(expectedKeys)}`);
  if (!isPlainObject(error)) return [...problems, "`error` is not an object"];
  for (const k of Object.keys(error))
    if (!["code", "message", "fields"].includes(k)) problems.push(`error has an unknown member ${JSON.stringify(k)}`);
  if (typeof error.code !== "string") problems.push("error.code is not a string");
  else if (!isErrorCode(error.code)) problems.push(`error.code ${JSON.stringify(error.code)} is not a catalog code`);
  else if (ERROR_STATUS[error.code] !== status)
    problems.push(`error.code ${error.code} has status ${ERROR_STATUS[error.code]} in the catalog, answered ${status}`);
  if (typeof error.message !== "string" || error.message.length === 0)
    problems.push("error.message is not a non-empty string");
  if (Object.hasOwn(error, "fields")) {
    const fields = error.fields;
    if (!Array.isArray(fields) || fields.length === 0)
      problems.push("error.fields is present but not a non-empty array");
    else
      fields.forEach((f, i) => {
        if (
          !isPlainObject(f) ||
          JSON.stringify(Object.keys(f).sort()) !== '["field","message"]' ||
          typeof f.field !== "string" ||
          typeof f.message !== "string"
        ) {
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

/** Deterministic text of a value: keys sorted, Maps and Sets as sorted entries, cycles marked. */
export function canonical(
  value: unknown,
  skip: (v: object) => boolean = () => false,
  omit: ReadonlySet<string> = new Set(),
  stack: object[] = [],
): string {
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
  else if (value instanceof Map)
    out = `Map{${[...value]
      .map(([k, v]) => `${inner(k)}=>${inner(v)}`)
      .sort()
      .join(",")}}`;
  else if (value instanceof Set) out = `Set{${[...value].map(inner).sort().join(",")}}`;
  // A reverse index by what it holds: it keeps a key's ids as an array until first read, then as a Set.
  else if (value instanceof MultiIndex)
    out = `MultiIndex{${value
      .entries()
      .map(([k, ids]) => `${inner(k)}=>${inner(new Set(ids))}`)
      .sort()
      .join(",")}}`;
  else {
    const keys = Object.keys(value)
      .filter((k) => !omit.has(k))
      .sort();
    out = `{${keys.map((k) => `${JSON.stringify(k)}:${inner((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  stack.pop();
  return out;
}

/** JSON of a stored value (records are plain data; Maps and Sets, should one appear, as entries). */
function valueJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) =>
      v instanceof Map
        ? { $map: [...v] }
        : v instanceof Set
          ? { $set: [...v] }
          : v === undefined
            ? "$undefined"
            : typeof v === "bigint"
              ? `${v}n`
              : v,
    ) ?? "undefined"
  );
}

export type WorldDigest = Readonly<Record<string, string>>;

const FEED_INTERNALS = (v: object) => v instanceof Feed || v instanceof FeedIndex || v instanceof SlotList;

export function worldDigest(sim: Simulator): WorldDigest {
  const world = sim.world;
  const out: Record<string, string> = {};
  for (const store of [...world.stores.values()].sort((a, b) => (a.prefix < b.prefix ? -1 : 1))) {
    const p = store.prefix;
    out[`${p} settings`] = canonical({
      settings: store.settings,
      settingsSeq: store.settingsSeq,
      lastSeq: store.lastSeq,
      systemReasonId: store.systemReasonId,
    });
    for (const feed of feedsOf(store)) {
      out[`${p} feed ${feed.name}`] = [...feed.all()]
        .map((row) => `${row.id} seq=${row.seq} deletedAt=${row.deletedAt} ${valueJson(row.value)}`)
        .join("\n");
    }
    const levels = [...store.catalog.products.all()].map(
      (row) => `${row.id} ${valueJson(store.inventory.levelsOf(row.id))}`,
    );
    out[`${p} stock levels`] = levels.join("\n");
    out[`${p} stock adjustments`] = valueJson(store.inventory.adjustments);
    // The indexes beside the feeds (SKUs, names, reverse indexes, counts, customer codes, refunds).
    out[`${p} indexes`] = canonical(
      { catalog: store.catalog, customers: store.customers, sales: store.sales },
      FEED_INTERNALS,
    );
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
    out.push(
      `${name}: line ${at + 1} was ${clip(JSON.stringify(la[at] ?? "<none>"), 300)}, now ${clip(JSON.stringify(lb[at] ?? "<none>"), 300)}`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Prototype pollution.

const ALLOWED_PROTOTYPES = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  null,
  Map.prototype,
  Set.prototype,
  Date.prototype,
]);

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
  for (const name of ["polluted", "isAdmin"])
    if (probe[name] !== undefined) out.push(`({}).${name} is ${String(probe[name])}`);
  if (typeof probe.constructor !== "function" || probe.constructor !== Object)
    out.push("({}).constructor is not Object");
  return out;
}

/** Stored records (every feed's values) holding a prototype key or an object with an unexpected prototype. */
export function storedProtoProblems(sim: Simulator): string[] {
  const out: string[] = [];
  const walk = (v: unknown, path: string) => {
    if (v === null || typeof v !== "object") return;
    if (!ALLOWED_PROTOTYPES.has(Object.getPrototypeOf(v))) out.push(`${path} has a foreign prototype`);
    for (const k of Object.keys(v)) {
      if ((PROTO_KEYS as readonly string[]).includes(k) || k === "polluted" || k === "isAdmin")
        out.push(`${path}.${k} is stored`);
      walk((v as Record<string, unknown>)[k], `${path}.${k}`);
    }
  };
  for (const store of sim.world.stores.values())
    for (const feed of feedsOf(store)) for (const row of feed.all()) walk(row.value, `${feed.name}/${row.id}`);
  return out;
}
