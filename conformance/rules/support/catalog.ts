import type { Reply, RuleContext, RunState } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  dataOf,
  errorCode,
  errorFields,
  expectData,
  expectPage,
  expectRows,
  type Named,
  type Product,
} from "../../shapes.js";

// Shared helpers of the catalog rules: creating (and tracking) our own products and taxonomy rows,
// the error check, and "nothing was saved". The Product document is checked in product-shape.ts and
// the product feed polled in feed-poller.ts.
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
  const data = dataOf<{ id?: unknown }>(reply);
  if (ok2xx(reply) && typeof data?.id === "string") ctx.track(`${base}/${data.id}`);
}

/** A create call of the spec: 200 or 201 (success status not shown) with the resource under data. */
export function created<T extends { id: string }>(ctx: RuleContext, base: string, reply: Reply, what: string): T {
  trackCreated(ctx, base, reply);
  ctx.check(ok2xx(reply), `${what}: status 200 or 201`, `status ${reply.status} ${reply.text.slice(0, 300)}`);
  const data = dataOf<T>(reply);
  if (!isUuid(data?.id)) throw new Mismatch(`${what}: {data: {id: uuid, ...}}`, reply.text.slice(0, 300));
  return data as T;
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

export async function createProduct(ctx: RuleContext, extra: ProductBody = {}): Promise<Product> {
  const body = productBody(ctx, extra);
  const product = created<Product>(
    ctx,
    "/products",
    await ctx.call("POST", "/products", { body }),
    `POST /products ${show(body, 200)}`,
  );
  // A product that refers to others (components, variant children) is deleted before them.
  if (Array.isArray(body.components) && body.components.length > 0) ctx.track(`/products/${product.id}`);
  return product;
}

export async function readProduct(ctx: RuleContext, id: string): Promise<Product> {
  const reply = await ctx.call("GET", `/products/${id}`);
  ctx.status(reply, 200);
  return expectData<Product>(reply, `GET /products/${id}: {data: product}`);
}

/** PATCH that must succeed; answers the product of the response. */
export async function patchProduct(ctx: RuleContext, id: string, body: ProductBody): Promise<Product> {
  const reply = await ctx.call("PATCH", `/products/${id}`, { body });
  ctx.check(
    reply.status === 200,
    `PATCH /products/${id} ${show(body, 200)}: status 200`,
    `status ${reply.status} ${reply.text.slice(0, 300)}`,
  );
  if (Array.isArray(body.components) && body.components.length > 0) ctx.track(`/products/${id}`);
  return expectData<Product>(reply, `PATCH /products/${id}: {data: product}`);
}

/** The live products with this SKU (the spec's exact lookup). */
export async function bySku(ctx: RuleContext, sku: string): Promise<Product[]> {
  const reply = await ctx.call("GET", `/products?sku=${encodeURIComponent(sku)}`);
  ctx.status(reply, 200);
  return expectRows<Product>(reply, "GET /products?sku=: {data: [...]}").filter((p) => p?.sku === sku);
}

/** Pages through GET /products (at most 25 pages of 200) for a gift card product. */
export async function findGiftCard(ctx: RuleContext): Promise<Product | undefined> {
  let cursor: string | null = null;
  for (let pages = 0; pages < 25; pages++) {
    const reply = await ctx.call("GET", `/products?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    ctx.status(reply, 200);
    const page = expectPage<Product>(reply, "GET /products: {data: [...]}");
    const card = page.data.find((p) => p?.is_gift_card === true);
    if (card || !page.has_more) return card;
    cursor = typeof page.next_cursor === "string" ? page.next_cursor : null;
  }
  return undefined;
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
export async function expectUnchanged(ctx: RuleContext, before: Product, why: string): Promise<void> {
  const after = await readProduct(ctx, before.id);
  ctx.check(
    canonical(after) === canonical(before),
    `${why}: nothing saved (the product reads as before, version ${before.version})`,
    `version ${show(after.version)}, ${diff(before, after)}`,
  );
}

export type WriteOp = "create" | "update";

/** A write that must be refused: a create of a new SKU, or an update of a product of ours. Answers the reply and how to check nothing was saved. */
export async function refusedWrite(ctx: RuleContext, op: WriteOp, body: Record<string, unknown>) {
  const sku = await freshSku(ctx);
  if (op === "create") {
    const full = productBody(ctx, { sku, ...body });
    const reply = await ctx.call("POST", "/products", { body: full });
    trackCreated(ctx, "/products", reply);
    return {
      reply,
      what: `POST /products ${show(full, 200)}`,
      nothingSaved: () => expectNoProduct(ctx, sku, "a refused create"),
    };
  }
  const before = await createProduct(ctx, { sku });
  const current = await readProduct(ctx, before.id);
  const reply = await ctx.call("PATCH", `/products/${before.id}`, { body });
  return {
    reply,
    what: `PATCH /products/{id} ${show(body, 200)}`,
    nothingSaved: () => expectUnchanged(ctx, current, "a refused update"),
  };
}

/** Key-sorted JSON, so two reads compare whatever order the server writes keys in. */
export function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, (value as Record<string, unknown>)[k]]),
        )
      : value,
  );
}

function diff(x: object, y: object): string {
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => canonical(a[k]) !== canonical(b[k]));
  return keys.length === 0
    ? "no difference"
    : `changed ${keys.map((k) => `${k}: ${show(a[k], 80)} -> ${show(b[k], 80)}`).join("; ")}`;
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
  ctx.check(
    reply.status === status && codes.includes(errorCode(reply) ?? ""),
    `${prefix}${status} ${codes.join(" or ")}`,
    `status ${reply.status} ${reply.text.slice(0, 300)}`,
  );
  ctx.envelope(reply);
  if (!fields) return;
  const names = errorFields(reply);
  for (const pattern of fields)
    ctx.check(
      names.some((n) => pattern.test(n)),
      `${prefix}error.fields naming ${pattern.source}`,
      `fields ${show(names)}`,
    );
}

// Taxonomy: brands, categories, tags, suppliers (create payloads not shown by the spec; the natural {name}).

export type Kind = "brands" | "categories" | "tags" | "suppliers";

export async function createTaxon(
  ctx: RuleContext,
  kind: Kind,
  extra: Record<string, unknown> = {},
): Promise<Named & { [k: string]: unknown }> {
  const name = ctx.name(kind.slice(0, -1).replace("categorie", "category"));
  const reply = await ctx.call("POST", `/${kind}`, { body: { name, ...extra } });
  if (reply.status === 404 || reply.status === 405)
    throw new Skip(`the target answers ${reply.status} for POST /${kind} (create path not shown by the spec)`);
  if (reply.status === 400 || reply.status === 422) {
    throw new Skip(
      `the target refuses ${show({ name, ...extra })} as a create body of /${kind} (payload not shown by the spec): ${reply.text.slice(0, 200)}`,
    );
  }
  const data = created<Named & { [k: string]: unknown }>(ctx, `/${kind}`, reply, `POST /${kind}`);
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
