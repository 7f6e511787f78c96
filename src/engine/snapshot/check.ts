import { createRequire } from "node:module";
import { Kind, type TLiteral, type TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/value";
import type { FieldError } from "../../contract/errors.js";
import { LAST_INSTANT, PAST_LAST_INSTANT } from "../../kernel/clock.js";
import { Snapshot } from "../../contract/schemas/snapshot.js";
import type { SnapshotStore } from "../../contract/schemas/snapshot-stores.js";

// What a snapshot must hold beyond its schema for the world restored from it to work: rows in change
// order under the store's sequence, ids that appear once, and the references the engine follows
// without looking (the system rows of each store, the stores of keys and users, the connections of
// tokens and codes). A problem is named by its path in the document, like a schema error.

type SavedRows = readonly { seq: number; value: { id: string } }[];

/** Problems named in one answer at most; a document broken everywhere is not walked to its end. */
const MAX_PROBLEMS = 100;

let compiled: TypeCheck<typeof Snapshot> | undefined;

/**
 * TypeBox's checker and value modules (~150 KB) are read through Node's `require` when a snapshot is
 * first checked, not when the simulator loads: a start that restores nothing never evaluates them, and
 * the command line's bundle leaves them in node_modules (as `contract/validate.ts` does with ajv).
 * TypeBox marks its schemas with `Symbol.for` keys, so its CommonJS checker reads the schemas built here.
 * docs/performance.md, Cold start.
 */
const nodeRequire = createRequire(import.meta.url);
let typebox:
  | {
      compiler: typeof import("@sinclair/typebox/compiler");
      value: typeof import("@sinclair/typebox/value");
    }
  | undefined;
const loadTypebox = () =>
  (typebox ??= {
    compiler: nodeRequire("@sinclair/typebox/compiler") as typeof import("@sinclair/typebox/compiler"),
    value: nodeRequire("@sinclair/typebox/value") as typeof import("@sinclair/typebox/value"),
  });

/**
 * The problems of a document against the snapshot's schema (contract/schemas/snapshot.ts), by TypeBox's
 * compiled checker: a large world's snapshot (300,000 rows) is checked several times faster than by a
 * JSON Schema engine, and the errors are only walked when there are some.
 */
export function snapshotSchemaProblems(doc: unknown): FieldError[] {
  compiled ??= loadTypebox().compiler.TypeCompiler.Compile(Snapshot);
  if (compiled.Check(doc)) return [];
  const problems: FieldError[] = [];
  for (const error of compiled.Errors(doc)) {
    const field = error.path === "" ? "snapshot" : error.path.slice(1).split("/").join(".");
    if (!problems.some((p) => p.field === field)) problems.push({ field, message: describe(error) });
    if (problems.length >= MAX_PROBLEMS) break;
  }
  return problems;
}

/** The problems of a snapshot that passed its schema; empty when it can be restored. */
export function snapshotProblems(doc: Snapshot): FieldError[] {
  const problems: FieldError[] = [];
  const problem = (field: string, message: string): void => {
    problems.push({ field, message });
  };
  if (doc.clock.now > LAST_INSTANT) problem("clock.now", PAST_LAST_INSTANT);
  const prefixes = new Set<string>();
  doc.stores.forEach((store, i) => {
    const at = `stores.${i}`;
    if (prefixes.has(store.settings.prefix)) problem(`${at}.settings.prefix`, "appears twice");
    prefixes.add(store.settings.prefix);
    checkStore(store, at, problem);
  });
  const unique = (field: string, values: readonly string[]) => {
    const seen = new Set<string>();
    values.forEach((value, i) => {
      if (seen.has(value)) problem(`${field}.${i}`, "appears twice");
      seen.add(value);
    });
  };
  const knownStore = (field: string, prefix: string) => {
    if (!prefixes.has(prefix)) problem(field, `no store "${prefix}"`);
  };
  const connections = new Set(doc.oauth.connections.map((c) => c.id));
  const knownConnection = (field: string, id: string | null) => {
    if (id !== null && !connections.has(id)) problem(field, `no connection "${id}"`);
  };
  unique(
    "credentials",
    doc.credentials.map((c) => c.id),
  );
  unique(
    "credentials",
    doc.credentials.map((c) => c.digest),
  );
  doc.credentials.forEach((c, i) => {
    knownStore(`credentials.${i}.store_prefix`, c.store_prefix);
    knownConnection(`credentials.${i}.connection_id`, c.connection_id);
    if ((c.kind === "access_token") !== (c.connection_id !== null))
      problem(`credentials.${i}.connection_id`, "an access token has a connection, an API key none");
  });
  unique(
    "users",
    doc.users.map((u) => u.id),
  );
  for (const [i, u] of doc.users.entries()) knownStore(`users.${i}.store_prefix`, u.store_prefix);
  unique(
    "oauth.clients",
    doc.oauth.clients.map((c) => c.client_id),
  );
  unique(
    "oauth.connections",
    doc.oauth.connections.map((c) => c.id),
  );
  for (const [i, c] of doc.oauth.connections.entries())
    knownStore(`oauth.connections.${i}.store_prefix`, c.store_prefix);
  for (const [i, c] of doc.oauth.codes.entries()) knownConnection(`oauth.codes.${i}.connection_id`, c.connection_id);
  for (const [i, r] of doc.oauth.refresh_tokens.entries())
    knownConnection(`oauth.refresh_tokens.${i}.connection_id`, r.connection_id);
  doc.faults.list.forEach((f, i) => {
    if (f.id >= doc.faults.next_id) problem(`faults.list.${i}.id`, "must be below faults.next_id");
  });
  return problems;
}

/** TypeBox's message, lower case; a union says what it would take ("one of: active, inactive", "null or ..."). */
function describe(error: ValueError): string {
  const variants = (error.schema as { anyOf?: TSchema[] }).anyOf;
  const { Value, ValueErrorType } = loadTypebox().value;
  if (error.type !== ValueErrorType.Union || variants === undefined) return error.message.toLowerCase();
  if (variants.every((v) => v[Kind] === "Literal"))
    return `expected one of: ${variants.map((v) => String((v as TLiteral).const)).join(", ")}`;
  const other = variants.find((v) => v[Kind] !== "Null");
  const why = other === undefined ? undefined : Value.Errors(other, error.value).First();
  return why === undefined
    ? error.message.toLowerCase()
    : `expected null or ${why.message.toLowerCase().replace(/^expected /, "")}`;
}

function checkStore(store: SnapshotStore, at: string, problem: (field: string, message: string) => void): void {
  const last = store.last_seq;
  const rows = (field: string, list: SavedRows): Set<string> => {
    const ids = new Set<string>();
    let previous = 0;
    list.forEach((row, i) => {
      if (ids.has(row.value.id)) problem(`${at}.${field}.${i}.value.id`, "appears twice");
      ids.add(row.value.id);
      if (row.seq <= previous) problem(`${at}.${field}.${i}.seq`, "must rise along the feed (rows in change order)");
      if (row.seq > last) problem(`${at}.${field}.${i}.seq`, `must not be above last_seq (${last})`);
      previous = row.seq;
    });
    return ids;
  };
  const has = (field: string, ids: Set<string>, id: string | null, what: string) => {
    if (id !== null && !ids.has(id)) problem(`${at}.${field}`, `no ${what} "${id}"`);
  };
  if (store.settings_seq > last) problem(`${at}.settings_seq`, `must not be above last_seq (${last})`);
  const outlets = rows("outlets", store.outlets);
  rows("payment_types", store.payment_types);
  rows("taxes", store.taxes);
  const reasons = rows("adjustment_reasons", store.adjustment_reasons);
  const c = store.catalog;
  rows("catalog.products", c.products);
  rows("catalog.brands", c.brands);
  const categories = rows("catalog.categories", c.categories);
  rows("catalog.tags", c.tags);
  rows("catalog.suppliers", c.suppliers);
  const customers = rows("customers.customers", store.customers.customers);
  const groups = rows("customers.groups", store.customers.groups);
  rows("sales.sales", store.sales.sales);
  has("settings.default_outlet_id", outlets, store.settings.default_outlet_id, "outlet");
  has("system_reason_id", reasons, store.system_reason_id, "adjustment reason");
  has("catalog.other_category_id", categories, c.other_category_id, "category");
  has("catalog.gift_card_category_id", categories, c.gift_card_category_id, "category");
  has("customers.walk_in_id", customers, store.customers.walk_in_id, "customer");
  has("customers.default_group_id", groups, store.customers.default_group_id, "customer group");
  store.inventory.levels.forEach((level, i) => {
    if (level.level.seq > last)
      problem(`${at}.inventory.levels.${i}.level.seq`, `must not be above last_seq (${last})`);
  });
}
