import { Mismatch, Skip, type Reply, type RuleContext, type RunState } from "../../context.js";

// Shared helpers of the catalog rules: creating (and tracking) our own products and taxonomy rows,
// checking the Product document, holding a cursor on the product feed, and "nothing was saved".
// Everything a rule writes is named with ctx.name(...) and tracked for the cleanup at the end.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID.test(v);
export const sameId = (a: unknown, b: unknown): boolean =>
  typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
export const isUtc = (v: unknown): v is string => typeof v === "string" && UTC.test(v) && !Number.isNaN(Date.parse(v));
export const show = (v: unknown, max = 300): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > max ? `${text.slice(0, max)}…` : text;
};

/** A random version-4 UUID that no store has (for unknown references). */
export const unknownUuid = (): string => crypto.randomUUID();

// Versions: "an opaque string that increases with every change". Decimal strings compare as numbers
// (spec-choices: "rises when both are decimal"); any other string must at least differ.
export function newer(next: unknown, previous: string): boolean {
  if (typeof next !== "string" || next === previous) return false;
  if (/^\d+$/.test(next) && /^\d+$/.test(previous)) return BigInt(next) > BigInt(previous);
  return true;
}

/** Checks `next` is a new version: newer than the last one and none seen before. */
export function expectNewVersion(ctx: RuleContext, next: unknown, seen: readonly string[], what: string): string {
  const last = seen[seen.length - 1] as string;
  ctx.check(
    newer(next, last) && !seen.includes(next as string),
    `${what}: a new version after ${show(seen)}`,
    `version ${show(next)}`,
  );
  return next as string;
}

// Creates

export const ok2xx = (reply: Reply): boolean => reply.status === 200 || reply.status === 201;

/** Any create that answered 2xx is tracked, even one the rule expected to be refused, so nothing is left behind. */
export function trackCreated(ctx: RuleContext, base: string, reply: Reply): void {
  const data = reply.json?.data;
  if (ok2xx(reply) && typeof data === "object" && data !== null && typeof data.id === "string")
    ctx.track(`${base}/${data.id}`);
}

/** A create call of the spec: 200 or 201 (success status not shown) with the resource under data. */
export function created(ctx: RuleContext, base: string, reply: Reply, what: string): any {
  trackCreated(ctx, base, reply);
  ctx.check(ok2xx(reply), `${what}: status 200 or 201`, `status ${reply.status} ${reply.text.slice(0, 300)}`);
  const data = reply.json?.data;
  ctx.check(
    typeof data === "object" && data !== null && isUuid(data.id),
    `${what}: {data: {id: uuid, ...}}`,
    reply.text.slice(0, 300),
  );
  return data;
}

export interface ProductBody {
  [key: string]: unknown;
}

/** A product body of our own: run-tagged name and SKU unless given. */
export const productBody = (ctx: RuleContext, extra: ProductBody = {}): ProductBody => ({
  name: ctx.name("product"),
  sku: ctx.name("sku"),
  retail_price: 1250,
  ...extra,
});

export async function createProduct(ctx: RuleContext, extra: ProductBody = {}): Promise<any> {
  const body = productBody(ctx, extra);
  const product = created(
    ctx,
    "/products",
    await ctx.call("POST", "/products", { body }),
    `POST /products ${show(body, 200)}`,
  );
  // A product that refers to others (components, variant children) is deleted before them.
  if (Array.isArray(body.components) && body.components.length > 0) ctx.track(`/products/${product.id}`);
  return product;
}

export async function readProduct(ctx: RuleContext, id: string): Promise<any> {
  const reply = await ctx.call("GET", `/products/${id}`);
  ctx.status(reply, 200);
  ctx.check(
    typeof reply.json?.data === "object" && reply.json.data !== null,
    `GET /products/${id}: {data: product}`,
    reply.text.slice(0, 300),
  );
  return reply.json.data;
}

/** PATCH that must succeed; answers the product of the response. */
export async function patchProduct(ctx: RuleContext, id: string, body: ProductBody): Promise<any> {
  const reply = await ctx.call("PATCH", `/products/${id}`, { body });
  ctx.check(
    reply.status === 200,
    `PATCH /products/${id} ${show(body, 200)}: status 200`,
    `status ${reply.status} ${reply.text.slice(0, 300)}`,
  );
  if (Array.isArray(body.components) && body.components.length > 0) ctx.track(`/products/${id}`);
  return reply.json?.data;
}

/** The live products with this SKU (the spec's exact lookup). */
export async function bySku(ctx: RuleContext, sku: string): Promise<any[]> {
  const reply = await ctx.call("GET", `/products?sku=${encodeURIComponent(sku)}`);
  ctx.status(reply, 200);
  ctx.check(Array.isArray(reply.json?.data), "GET /products?sku=: {data: [...]}", reply.text.slice(0, 300));
  return (reply.json.data as any[]).filter((p) => p?.sku === sku);
}

/** A SKU of the run that no live product has yet (checked): the start of every write scenario. */
export async function freshSku(ctx: RuleContext): Promise<string> {
  const sku = ctx.name("sku");
  const found = await bySku(ctx, sku);
  ctx.check(found.length === 0, `no product with the run's new SKU ${sku}`, show(found.map((p) => p.id)));
  return sku;
}

/** A create that had to be refused saved nothing: no live product has its SKU. */
export async function expectNoProduct(ctx: RuleContext, sku: string, why: string): Promise<void> {
  const found = await bySku(ctx, sku);
  for (const p of found) if (isUuid(p.id)) ctx.track(`/products/${p.id}`);
  ctx.check(
    found.length === 0,
    `${why}: nothing saved (no product with SKU ${sku})`,
    `found ${show(found.map((p) => p.id))}`,
  );
}

/** An update that had to be refused saved nothing: the product reads exactly as before. */
export async function expectUnchanged(ctx: RuleContext, before: any, why: string): Promise<void> {
  const after = await readProduct(ctx, before.id);
  ctx.check(
    canonical(after) === canonical(before),
    `${why}: nothing saved (the product reads as before, version ${before.version})`,
    `version ${show(after.version)}, ${diff(before, after)}`,
  );
}

/** Key-sorted JSON, so two reads compare whatever order the server writes keys in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, value[k]]),
        )
      : value,
  );
}

function diff(a: any, b: any): string {
  const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].filter(
    (k) => canonical(a?.[k]) !== canonical(b?.[k]),
  );
  return keys.length === 0
    ? "no difference"
    : `changed ${keys.map((k) => `${k}: ${show(a?.[k], 80)} -> ${show(b?.[k], 80)}`).join("; ")}`;
}

// Errors

/**
 * The error envelope with this status and code; with `fields`, each pattern must match a field of
 * `error.fields` (body problems are field-specific, so the spec's `fields` names them).
 */
export function expectError(
  ctx: RuleContext,
  reply: Reply,
  status: number,
  code: string | readonly string[],
  fields?: readonly RegExp[],
  what = "",
): void {
  const codes = typeof code === "string" ? [code] : code;
  const prefix = what ? `${what}: ` : "";
  const got = reply.json?.error;
  ctx.check(
    reply.status === status && codes.includes(got?.code),
    `${prefix}${status} ${codes.join(" or ")}`,
    `status ${reply.status} ${reply.text.slice(0, 300)}`,
  );
  ctx.envelope(reply);
  if (!fields) return;
  const names = Array.isArray(got.fields) ? (got.fields as { field: string }[]).map((f) => f.field) : [];
  for (const pattern of fields)
    ctx.check(
      names.some((n) => pattern.test(n)),
      `${prefix}error.fields naming ${pattern.source}`,
      `fields ${show(names)}`,
    );
}

// The Product document (spec, Resources: Product and its sub-records)

const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"];
const str = (v: unknown) => typeof v === "string";
const strOrNull = (v: unknown) => v === null || typeof v === "string";
const bool = (v: unknown) => typeof v === "boolean";
const int = (v: unknown) => Number.isInteger(v);
const intOrNull = (v: unknown) => v === null || Number.isInteger(v);
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const numOrNull = (v: unknown) => v === null || num(v);
const uuidOrNull = (v: unknown) => v === null || isUuid(v);

type Check = readonly [string, (v: any) => boolean, string];
const arrayOf = (max: number, item: readonly Check[]) => (v: unknown) =>
  Array.isArray(v) &&
  v.length <= max &&
  v.every((x) => typeof x === "object" && x !== null && item.every(([k, ok]) => k in x && ok(x[k])));

const CODE: Check[] = [
  ["id", isUuid, ""],
  ["type", (v) => CODE_TYPES.includes(v), ""],
  ["code", str, ""],
];
const TAG: Check[] = [
  ["id", isUuid, ""],
  ["name", str, ""],
];
const SUPPLIER: Check[] = [
  ["supplier_id", isUuid, ""],
  ["is_primary", bool, ""],
  ["supplier_code", strOrNull, ""],
  ["supplier_name", str, ""],
];
const OPTION: Check[] = [
  ["attribute_id", isUuid, ""],
  ["value", str, ""],
];
const ATTRIBUTE: Check[] = [
  ["id", isUuid, ""],
  ["name", str, ""],
  ["position", (v) => int(v) && v >= 1 && v <= 3, ""],
];
const COMPONENT: Check[] = [
  ["product_id", isUuid, ""],
  ["quantity", num, ""],
];

export const PRODUCT_FIELDS: readonly Check[] = [
  ["id", isUuid, "a UUID string"],
  ["sku", str, "a string"],
  ["name", str, "a string"],
  ["description", strOrNull, "a string or null"],
  ["active", bool, "a boolean"],
  ["is_gift_card", bool, "a boolean"],
  ["has_inventory", bool, "a boolean"],
  ["has_variants", bool, "a boolean"],
  ["variant_parent_id", uuidOrNull, "a UUID or null"],
  ["is_composite", bool, "a boolean"],
  ["brand_id", uuidOrNull, "a UUID or null"],
  ["category_id", isUuid, "a UUID"],
  ["retail_price", int, "an integer (cents)"],
  ["loyalty_amount", intOrNull, "an integer (cents) or null"],
  ["sales_account_code", strOrNull, "a string or null"],
  ["purchase_account_code", strOrNull, "a string or null"],
  ["weight", numOrNull, "a number or null"],
  ["length", numOrNull, "a number or null"],
  ["width", numOrNull, "a number or null"],
  ["height", numOrNull, "a number or null"],
  ["weight_unit", strOrNull, "a string or null"],
  ["dimension_unit", strOrNull, "a string or null"],
  ["image_url", strOrNull, "a string or null"],
  ["image_thumb_url", strOrNull, "a string or null"],
  ["codes", arrayOf(10, CODE), "at most 10 ProductCode {id: uuid, type: upc|isbn|itf|ean|jan|custom, code: string}"],
  ["tags", arrayOf(20, TAG), "at most 20 ProductTag {id: uuid, name: string}"],
  [
    "suppliers",
    (v) => arrayOf(10, SUPPLIER)(v) && (v as any[]).every((s) => !("supply_price" in s)),
    "at most 10 ProductSupplier {supplier_id, is_primary, supplier_code, supplier_name}, never a supply price",
  ],
  ["variant_options", arrayOf(3, OPTION), "ProductVariantOption {attribute_id: uuid, value: string}"],
  ["variant_attributes", arrayOf(3, ATTRIBUTE), "at most 3 ProductAttribute {id: uuid, name, position 1 to 3}"],
  ["components", arrayOf(50, COMPONENT), "at most 50 ProductComponent {product_id: uuid, quantity: number}"],
  ["created_at", isUtc, "a UTC date-time ending in Z"],
  ["updated_at", isUtc, "a UTC date-time ending in Z"],
  ["version", str, "a string"],
];

/** Every field of the Product table present with its type. */
export function expectProductShape(ctx: RuleContext, p: any, where: string): void {
  ctx.check(typeof p === "object" && p !== null && !Array.isArray(p), `${where}: a product document`, show(p));
  for (const [key, ok, type] of PRODUCT_FIELDS) {
    ctx.check(key in p, `${where}: field ${key} present`, `keys ${show(Object.keys(p))}`);
    ctx.check(ok(p[key]), `${where}: ${key} ${type}`, `${key} = ${show(p[key])}`);
  }
}

/** Spec, Resources: Tombstone {id, deleted_at, version}. */
export function expectTombstone(ctx: RuleContext, row: any, id: string, where: string): void {
  ctx.check(
    typeof row === "object" &&
      row !== null &&
      sameId(row.id, id) &&
      isUtc(row.deleted_at) &&
      typeof row.version === "string",
    `${where}: a tombstone {id: ${id}, deleted_at: UTC date-time, version: string}`,
    show(row),
  );
}

// Barcodes: valid check digits, so a server that validates them accepts ours. Values are unique per run.

function checkDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

function digits(text: string, n: number): string {
  let h = 0xcbf29ce484222325n;
  for (const ch of text) h = BigInt.asUintN(64, (h ^ BigInt(ch.charCodeAt(0))) * 0x100000001b3n);
  return (h % 10n ** BigInt(n)).toString().padStart(n, "0");
}

export type CodeType = "upc" | "isbn" | "itf" | "ean" | "jan" | "custom";
export const CODE_TYPE_LIST: readonly CodeType[] = ["upc", "isbn", "itf", "ean", "jan", "custom"];

/** A valid code of this type that no other product of the run has. */
export function codeValue(ctx: RuleContext, type: CodeType): string {
  const d = digits(ctx.name("code"), 12);
  switch (type) {
    case "upc": {
      const body = `2${d.slice(0, 10)}`; // 11 digits, number system 2 (in-store)
      return body + checkDigit(body);
    }
    case "ean": {
      const body = `20${d.slice(0, 10)}`; // 12 digits, in-store prefix 20
      return body + checkDigit(body);
    }
    case "jan": {
      const body = `45${d.slice(0, 10)}`;
      return body + checkDigit(body);
    }
    case "isbn": {
      const body = `979${d.slice(0, 9)}`;
      return body + checkDigit(body);
    }
    case "itf": {
      const body = `1${d}`; // indicator + 12 digits = 13
      return body + checkDigit(body);
    }
    case "custom":
      return `RSC-${d}`;
  }
}

// Taxonomy: brands, categories, tags, suppliers (create payloads not shown by the spec; the natural {name}).

export type Kind = "brands" | "categories" | "tags" | "suppliers";

export async function createTaxon(
  ctx: RuleContext,
  kind: Kind,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; name: string; [k: string]: unknown }> {
  const name = ctx.name(kind.slice(0, -1).replace("categorie", "category"));
  const reply = await ctx.call("POST", `/${kind}`, { body: { name, ...extra } });
  if (reply.status === 404 || reply.status === 405)
    throw new Skip(`the target answers ${reply.status} for POST /${kind} (create path not shown by the spec)`);
  if (reply.status === 400 || reply.status === 422) {
    throw new Skip(
      `the target refuses ${show({ name, ...extra })} as a create body of /${kind} (payload not shown by the spec): ${reply.text.slice(0, 200)}`,
    );
  }
  const data = created(ctx, `/${kind}`, reply, `POST /${kind}`);
  ctx.check(data.name === name, `POST /${kind}: the created row named ${name}`, show(data));
  return data;
}

/** Lazily created rows the rules share read-only (a run creates them once): tags, suppliers, plain products. */
interface Pool {
  tags: { id: string; name: string }[];
  suppliers: { id: string; name: string }[];
  products: { id: string }[];
}
const pools = new WeakMap<RunState, Pool>();

function poolOf(ctx: RuleContext): Pool {
  let pool = pools.get(ctx.run);
  if (!pool) pools.set(ctx.run, (pool = { tags: [], suppliers: [], products: [] }));
  return pool;
}

export async function poolTags(ctx: RuleContext, n: number): Promise<{ id: string; name: string }[]> {
  const pool = poolOf(ctx);
  while (pool.tags.length < n) pool.tags.push(await createTaxon(ctx, "tags"));
  return pool.tags.slice(0, n);
}

export async function poolSuppliers(ctx: RuleContext, n: number): Promise<{ id: string; name: string }[]> {
  const pool = poolOf(ctx);
  while (pool.suppliers.length < n) pool.suppliers.push(await createTaxon(ctx, "suppliers"));
  return pool.suppliers.slice(0, n);
}

/** Plain products to use as components. Create them before any product that uses them (cleanup runs newest first). */
export async function poolProducts(ctx: RuleContext, n: number): Promise<{ id: string }[]> {
  const pool = poolOf(ctx);
  while (pool.products.length < n) pool.products.push({ id: (await createProduct(ctx, { retail_price: 100 })).id });
  return pool.products.slice(0, n);
}

/** The id of the system category Other Products, once a product has been moved there. */
export const otherProducts = new WeakMap<RunState, string>();

// The product feed, polled from a held cursor

/**
 * A polling client of `GET /products`: it holds its cursor between polls, keeps it on an empty page
 * (rule 2), and, where the last page of a poll came without a cursor (accepted by spec-choices), sees
 * that page's rows once more on the next poll and drops them as already seen.
 */
export class Poller {
  cursor: string | null = null;
  private again = new Set<string>();

  constructor(readonly includeDeleted: boolean) {}

  async poll(ctx: RuleContext, limit = 200): Promise<any[]> {
    const skip = this.again;
    this.again = new Set();
    const rows: any[] = [];
    const list = `/products?limit=${limit}${this.includeDeleted ? "&include_deleted=true" : ""}`;
    for (let pages = 0; ; pages++) {
      if (pages > 2000) throw new Mismatch(`${list}: the feed to end`, "more than 2000 pages");
      const reply = await ctx.call("GET", `${list}${this.cursor ? `&cursor=${encodeURIComponent(this.cursor)}` : ""}`);
      ctx.status(reply, 200);
      const { data, next_cursor, has_more } = reply.json ?? {};
      ctx.check(
        Array.isArray(data) &&
          typeof has_more === "boolean" &&
          (next_cursor === null || typeof next_cursor === "string"),
        `${list}: {data: [...], next_cursor, has_more}`,
        reply.text.slice(0, 300),
      );
      if (has_more)
        ctx.check(
          typeof next_cursor === "string" && data.length > 0,
          `${list}: a cursor on a page with has_more true`,
          show({ next_cursor, rows: data.length }),
        );
      const keys = (data as any[]).map((r) => `${String(r?.id).toLowerCase()}@${r?.version}`);
      (data as any[]).forEach((row, i) => {
        if (skip.has(keys[i] as string)) skip.delete(keys[i] as string);
        else rows.push(row);
      });
      if (typeof next_cursor === "string") this.cursor = next_cursor;
      else for (const k of keys) this.again.add(k);
      if (!has_more) return rows;
    }
  }

  /** Remembers where this client got to, for the next rule that needs the end of the feed. */
  save(ctx: RuleContext): void {
    tails.set(ctx.run, {
      ...tails.get(ctx.run),
      [String(this.includeDeleted)]: { cursor: this.cursor, again: [...this.again] },
    });
  }

  /** A poller at the end of the feed (the polls in between are thrown away). */
  static async atEnd(ctx: RuleContext, includeDeleted: boolean): Promise<Poller> {
    const poller = new Poller(includeDeleted);
    const saved = tails.get(ctx.run)?.[String(includeDeleted)];
    if (saved) {
      poller.cursor = saved.cursor;
      poller.again = new Set(saved.again);
    }
    await poller.poll(ctx);
    poller.save(ctx);
    return poller;
  }
}

const tails = new WeakMap<RunState, Record<string, { cursor: string | null; again: string[] }>>();

/** Our rows of a poll (by id), in feed order. */
export const ours = (rows: readonly any[], ids: ReadonlySet<string>): any[] =>
  rows.filter((r) => typeof r?.id === "string" && ids.has(r.id.toLowerCase()));
