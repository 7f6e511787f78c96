// Shared set-up of the brand, category, tag and supplier tests (src/engine/catalog/taxonomy*.test.ts,
// categories.test.ts): the demo store's rows by name, product polling, and the four kinds' paths and bodies.
import { expect } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, type Reply } from "./sim.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DECIMAL = /^[0-9]+$/;
export const uuid = expect.stringMatching(UUID);
export const version = expect.stringMatching(DECIMAL);
export const UNKNOWN_ID = "00000000-0000-4000-8000-00000000abcd";
export const P = "/demo/v1";

export type Row = Record<string, any> & { id: string; name: string; version: string };
export type Product = Record<string, any> & { id: string; sku: string; version: string };

export const bigger = (a: string, b: string) => expect(BigInt(a)).toBeGreaterThan(BigInt(b));

/** Every row of a list, paging with the given limit; also the cursor after the last row. */
export async function listAll(
  sim: Simulator,
  path: string,
  query = "",
  limit = 200,
): Promise<{ rows: Row[]; cursor: string | null }> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let last: string | null = null;
  for (let i = 0; i < 200; i++) {
    const sep = path.includes("?") || query ? "&" : "?";
    const url = `${path}${query ? `?${query}` : ""}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const reply: Reply = await call(sim, "GET", url);
    expect(reply.status, url).toBe(200);
    rows.push(...reply.json.data);
    if (reply.json.next_cursor) last = reply.json.next_cursor;
    if (!reply.json.has_more) return { rows, cursor: last };
    cursor = reply.json.next_cursor;
  }
  throw new Error(`${path} did not end`);
}

export const rowsOf = async (sim: Simulator, kind: string) => (await listAll(sim, `${P}/${kind}`)).rows;

export async function byName(sim: Simulator, kind: string, name: string): Promise<Row> {
  const found = (await rowsOf(sim, kind)).filter((r) => r.name === name);
  expect(found, `${kind} named ${name}`).toHaveLength(1);
  return found[0]!;
}

export async function bySku(sim: Simulator, sku: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}/products?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `product ${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

/** id -> product of every live product. */
export async function productMap(sim: Simulator): Promise<Map<string, Product>> {
  const { rows } = await listAll(sim, `${P}/products`);
  return new Map(rows.map((p) => [p.id, p as unknown as Product]));
}

/** The cursor after the last row of the products feed, for a later poll. */
export async function productsCursor(sim: Simulator): Promise<string> {
  const { cursor } = await listAll(sim, `${P}/products`);
  expect(cursor).toEqual(expect.any(String));
  return cursor!;
}

/** Every row of the products feed after the cursor. */
export async function pollProducts(sim: Simulator, cursor: string): Promise<Product[]> {
  const rows: Product[] = [];
  let at = cursor;
  for (let i = 0; i < 50; i++) {
    const reply = await call(sim, "GET", `${P}/products?limit=200&cursor=${at}`);
    expect(reply.status).toBe(200);
    rows.push(...reply.json.data);
    if (!reply.json.has_more) return rows;
    at = reply.json.next_cursor;
  }
  throw new Error("poll did not end");
}

/** Checks that exactly the given products (by SKU) have new versions and every other product kept its version. */
export function expectChangedExactly(before: Map<string, Product>, after: Map<string, Product>, skus: string[]): void {
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  const changed: string[] = [];
  for (const [id, was] of before) {
    const now = after.get(id)!;
    if (now.version !== was.version) {
      bigger(now.version, was.version);
      changed.push(now.sku);
    }
  }
  expect(changed.sort()).toEqual([...skus].sort());
}

export const hasTag = (id: string) => (p: Product) => p.tags.some((t: { id: string }) => t.id === id);
export const hasSupplier = (id: string) => (p: Product) =>
  p.suppliers.some((s: { supplier_id: string }) => s.supplier_id === id);

/** SKUs of the products (before the change) that match; they include at least the demo products named. */
export function carriers(before: Map<string, Product>, match: (p: Product) => boolean, known: string[]): string[] {
  const skus = [...before.values()]
    .filter(match)
    .map((p) => p.sku)
    .sort();
  expect(skus).toEqual(expect.arrayContaining(known));
  return skus;
}

// ---------------------------------------------------------------------------------------------
// Generic behaviour of the four resources.

export interface Kind {
  readonly path: string;
  /** Demo rows as GET /{path} returns them (seed 1), oldest change first. */
  readonly fixture: unknown[];
  readonly create: Record<string, unknown>;
  readonly created: Record<string, unknown>;
  readonly update: Record<string, unknown>;
  readonly updated: Record<string, unknown>;
  readonly keys: string[];
}

export const KINDS: Kind[] = [
  {
    path: "brands",
    fixture: [
      { id: uuid, name: "Northwind", description: "Outdoor basics", version },
      { id: uuid, name: "Acme", description: null, version },
      { id: uuid, name: "Harbour & Co", description: null, version },
    ],
    create: { name: "Contoso", description: "Kitchen goods" },
    created: { name: "Contoso", description: "Kitchen goods" },
    update: { name: "Contoso Home", description: null },
    updated: { name: "Contoso Home", description: null },
    keys: ["description", "id", "name", "version"],
  },
  {
    path: "categories",
    fixture: [
      { id: uuid, name: "Other Products", parent_id: null, depth: 0, version },
      { id: uuid, name: "Gift Cards", parent_id: null, depth: 0, version },
      { id: uuid, name: "Apparel", parent_id: null, depth: 0, version },
      { id: uuid, name: "Shirts", parent_id: uuid, depth: 1, version },
      { id: uuid, name: "Accessories", parent_id: null, depth: 0, version },
      { id: uuid, name: "Services", parent_id: null, depth: 0, version },
    ],
    create: { name: "Footwear" },
    created: { name: "Footwear", parent_id: null, depth: 0 },
    update: { name: "Shoes" },
    updated: { name: "Shoes", parent_id: null, depth: 0 },
    keys: ["depth", "id", "name", "parent_id", "version"],
  },
  {
    path: "tags",
    fixture: [
      { id: uuid, name: "Summer", version },
      { id: uuid, name: "Sale", version },
      { id: uuid, name: "New", version },
      { id: uuid, name: "Bestseller", version },
    ],
    create: { name: "Clearance" },
    created: { name: "Clearance" },
    update: { name: "Final Clearance" },
    updated: { name: "Final Clearance" },
    keys: ["id", "name", "version"],
  },
  {
    path: "suppliers",
    fixture: [
      { id: uuid, name: "Acme Wholesale", version },
      { id: uuid, name: "Pacific Textiles", version },
      { id: uuid, name: "Harbour Distribution", version },
    ],
    create: { name: "Nordic Mills" },
    created: { name: "Nordic Mills" },
    update: { name: "Nordic Mills Ltd" },
    updated: { name: "Nordic Mills Ltd" },
    keys: ["id", "name", "version"],
  },
];
