import { createRequire } from "node:module";
import { Kind, type TLiteral, type TSchema } from "@sinclair/typebox";
import type { TypeCheck } from "@sinclair/typebox/compiler";
import type { ValueError } from "@sinclair/typebox/value";
import type { FieldError } from "../../contract/errors.js";
import { BEFORE_FIRST_INSTANT, FIRST_INSTANT, LAST_INSTANT, PAST_LAST_INSTANT } from "../../kernel/clock.js";
import { Snapshot } from "../../contract/schemas/snapshot.js";
import type { SnapshotStore } from "../../contract/schemas/snapshot-stores.js";
import { MAX_AUTHORIZE_PARAM } from "../auth/oauth.js";
import type { Caps } from "../caps.js";
import { MAX_IMAGE_OUTCOMES } from "../catalog/images.js";
import { CAPS } from "../catalog/product-collections.js";
import { combinationKey } from "../catalog/variants.js";
import { MAX_FAULTS } from "../faults.js";
import { recordBytes } from "../idempotency.js";
import { MAX_OUTLETS } from "../store.js";

// What a snapshot must hold beyond its schema for the world restored from it to work: rows in change
// order under the store's sequence, ids that appear once, and the references the engine follows
// without looking (the system rows of each store, the stores of keys and users, the connections of
// tokens and codes), and the caps and invariants live operation keeps (docs/spec-choices.md, Restored
// documents): each bound of a store of state, the collection caps and the uniqueness rules of the spec
// (live SKUs, brand and tag names, variant combinations), from the declarations live operation uses. A
// problem is named by its path in the document, like a schema error.

type SavedRows<T = { id: string }> = readonly { seq: number; deleted_at: number | null; value: T }[];

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

type Problem = (field: string, message: string) => void;

/** A list longer than a cap live operation holds it to is a problem named by the list. */
function overCap(problem: Problem, field: string, length: number, cap: number, what: string): void {
  if (length > cap) problem(field, `${length} ${what}: at most ${cap}`);
}

/** The problems of a snapshot that passed its schema under the process's caps; empty when it can be restored. */
export function snapshotProblems(doc: Snapshot, caps: Caps): FieldError[] {
  const problems: FieldError[] = [];
  const problem = (field: string, message: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push({ field, message });
  };
  if (doc.clock.now > LAST_INSTANT) problem("clock.now", PAST_LAST_INSTANT);
  if (doc.clock.now < FIRST_INSTANT) problem("clock.now", BEFORE_FIRST_INSTANT);
  const prefixes = new Set<string>();
  doc.stores.forEach((store, i) => {
    const at = `stores.${i}`;
    if (prefixes.has(store.settings.prefix)) problem(`${at}.settings.prefix`, "appears twice");
    prefixes.add(store.settings.prefix);
    checkStore(store, at, problem, caps);
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
  overCap(problem, "faults.list", doc.faults.list.length, MAX_FAULTS, "faults");
  overCap(problem, "images.outcomes", doc.images.outcomes.length, MAX_IMAGE_OUTCOMES, "image outcomes");
  overCap(problem, "oauth.codes", doc.oauth.codes.length, caps.oauthPending, "authorization codes");
  overCap(problem, "oauth.sign_ins", doc.oauth.sign_ins.length, caps.oauthPending, "sign-ins");
  doc.oauth.sign_ins.forEach((t, i) => {
    for (const [name, value = ""] of Object.entries(t.params))
      overCap(problem, `oauth.sign_ins.${i}.params.${name}`, value.length, MAX_AUTHORIZE_PARAM, "characters");
  });
  overCap(problem, "rate_limits", doc.rate_limits.length, caps.rateLimitKeys, "rate-limit windows");
  // A snapshot is one sandbox: its records within the sandbox's caps as well as the process's.
  const records = Math.min(caps.idempotencyRecords, caps.idempotencyRecordsPerSandbox);
  overCap(problem, "idempotency", doc.idempotency.length, records, "idempotency records");
  // Counted as the idempotency store counts them (recordBytes), in all and per credential.
  const perCredential = new Map<string, { records: number; bytes: number }>();
  let bytes = 0;
  for (const r of doc.idempotency) {
    const size = recordBytes(r.key, r.credential, r);
    const held = perCredential.get(r.credential) ?? { records: 0, bytes: 0 };
    perCredential.set(r.credential, { records: held.records + 1, bytes: held.bytes + size });
    bytes += size;
  }
  const sandboxBytes = Math.min(caps.idempotencyBytes, caps.idempotencyBytesPerSandbox);
  overCap(problem, "idempotency", bytes, sandboxBytes, "bytes of idempotency records");
  for (const [id, held] of perCredential) {
    overCap(problem, "idempotency", held.records, caps.idempotencyRecordsPerCredential, `records of credential ${id}`);
    overCap(
      problem,
      "idempotency",
      held.bytes,
      caps.idempotencyBytesPerCredential,
      `bytes of credential ${id}'s records`,
    );
  }
  doc.oauth.connections.forEach((c, i) => {
    const at = `oauth.connections.${i}.access_tokens`;
    overCap(problem, at, c.access_tokens.length, caps.accessTokensPerConnection, "access tokens");
  });
  const perAppUser = countBy(doc.oauth.connections, (c) => `${c.client_id} and user ${c.user_id}`);
  for (const [who, n] of perAppUser)
    overCap(problem, "oauth.connections", n, caps.connectionsPerAppUser, `connections of app ${who}`);
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

function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** Live rows (deleted_at null) whose key an earlier live row has: "appears twice" (spec, Errors: CONFLICT). */
function uniqueLive<T>(problem: Problem, at: string, list: SavedRows<T>, name: string, key: (value: T) => unknown) {
  const seen = new Set<unknown>();
  list.forEach((row, i) => {
    const k = row.deleted_at === null ? key(row.value) : undefined;
    if (k === undefined) return;
    if (seen.has(k)) problem(`${at}.${i}.value.${name}`, "another live row has it (it must be unique)");
    seen.add(k);
  });
}

function checkStore(store: SnapshotStore, at: string, problem: Problem, caps: Caps): void {
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
  const products = rows("catalog.products", c.products);
  store.inventory.levels.forEach((level, i) => {
    if (level.level.seq > last)
      problem(`${at}.inventory.levels.${i}.level.seq`, `must not be above last_seq (${last})`);
    has(`inventory.levels.${i}.product_id`, products, level.product_id, "product");
    has(`inventory.levels.${i}.level.outlet_id`, outlets, level.level.outlet_id, "outlet");
  });
  const live = (list: SavedRows) => new Set(list.filter((r) => r.deleted_at === null).map((r) => r.value.id));
  overCap(problem, `${at}.outlets`, live(store.outlets).size, MAX_OUTLETS, "live outlets");
  overCap(problem, `${at}.inventory.movements`, store.inventory.movements.length, caps.movementHistory, "movements");
  // Spec, Errors: CONFLICT (SKU in use, duplicate brand or tag name, variant combination exists); SKUs
  // match without regard to case (Inventory rules 2), as do names and customer codes here.
  uniqueLive(problem, `${at}.catalog.products`, c.products, "sku", (p) => p.sku.toLowerCase());
  uniqueLive(problem, `${at}.catalog.products`, c.products, "variant_options", (p) =>
    p.variant_parent_id === null ? undefined : `${p.variant_parent_id} ${combinationKey(p.variant_options)}`,
  );
  uniqueLive(problem, `${at}.catalog.brands`, c.brands, "name", (b) => b.name.toLowerCase());
  uniqueLive(problem, `${at}.catalog.tags`, c.tags, "name", (t) => t.name.toLowerCase());
  const people = store.customers.customers;
  uniqueLive(problem, `${at}.customers.customers`, people, "customer_code", (k) => k.customer_code.toLowerCase());
  const [brands, tags, suppliers] = [live(c.brands), live(c.tags), live(c.suppliers)];
  const liveCategories = live(c.categories);
  c.products.forEach(({ deleted_at, value: p }, i) => {
    if (deleted_at !== null) return;
    const here = `catalog.products.${i}.value`;
    // Spec, Product write rules 3 and the Product table: the collections' caps.
    const lists = { codes: p.codes, tags: p.tag_ids, suppliers: p.suppliers, components: p.components };
    for (const name of Object.keys(CAPS) as (keyof typeof CAPS)[])
      overCap(problem, `${at}.${here}.${name}`, lists[name].length, CAPS[name], "items");
    // Live operation keeps a live product's references live (Delete rules), its components and parent known.
    has(`${here}.brand_id`, brands, p.brand_id, "live brand");
    has(`${here}.category_id`, liveCategories, p.category_id, "live category");
    for (const id of p.tag_ids) has(`${here}.tag_ids`, tags, id, "live tag");
    for (const s of p.suppliers) has(`${here}.suppliers`, suppliers, s.supplier_id, "live supplier");
    for (const k of p.components) has(`${here}.components`, products, k.product_id, "product");
    has(`${here}.variant_parent_id`, products, p.variant_parent_id, "product");
  });
}
