// Shared set-up of the variant tests (src/engine/catalog/variants*.test.ts): a parent with attributes, its
// children, the POST /products/{id}/variants call and the document a child should have.
import { expect } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, type Reply } from "./sim.js";
import { errorOf, expectError } from "./errors.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DECIMAL = /^[0-9]+$/;
export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const uuid = expect.stringMatching(UUID);
export const version = expect.stringMatching(DECIMAL);
export const timestamp = expect.stringMatching(UTC_DATE_TIME);
export const UNKNOWN_ID = "00000000-0000-4000-8000-00000000abcd";

export type Product = Record<string, any> & { id: string; sku: string; version: string };

export const P = "/demo/v1";

export async function bySku(sim: Simulator, sku: string, prefix = "demo"): Promise<Product> {
  const reply = await call(sim, "GET", `/${prefix}/v1/products?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `product ${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

/** Every live product of the store, paging through the list. */
export async function allProducts(sim: Simulator, prefix = "demo"): Promise<Product[]> {
  const rows: Product[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const reply: Reply = await call(sim, "GET", `/${prefix}/v1/products?limit=200${cursor ? `&cursor=${cursor}` : ""}`);
    expect(reply.status).toBe(200);
    rows.push(...reply.json.data);
    if (!reply.json.has_more) return rows;
    cursor = reply.json.next_cursor;
  }
  throw new Error("products list did not end");
}

export async function childrenOf(sim: Simulator, parentId: string): Promise<Product[]> {
  return (await allProducts(sim)).filter((p) => p.variant_parent_id === parentId);
}

export async function nameMap(sim: Simulator, list: string): Promise<Record<string, string>> {
  const reply = await call(sim, "GET", `${P}/${list}?limit=200`);
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.json.data as { id: string; name: string }[]).map((r) => [r.name, r.id]));
}

export const attr = (parent: Product, name: string): string => {
  const found = (parent.variant_attributes as { id: string; name: string }[]).find((a) => a.name === name);
  expect(found, `attribute ${name}`).toBeDefined();
  return found!.id;
};

/** A fresh variant parent with Size (position 1) and Colour (position 2), and most fields set. */
export async function makeParent(sim: Simulator, extra: Record<string, unknown> = {}): Promise<Product> {
  const brands = await nameMap(sim, "brands");
  const categories = await nameMap(sim, "categories");
  const tags = await nameMap(sim, "tags");
  const suppliers = await nameMap(sim, "suppliers");
  const reply = await call(sim, "POST", `${P}/products`, {
    body: {
      name: "Linen Shirt",
      sku: "LINEN",
      retail_price: 4500,
      description: "Breathable linen.",
      has_variants: true,
      variant_attributes: [
        { name: "Size", position: 1 },
        { name: "Colour", position: 2 },
      ],
      brand_id: brands["Northwind"],
      category_id: categories["Shirts"],
      tags: [{ id: tags["Summer"] }],
      suppliers: [{ supplier_id: suppliers["Pacific Textiles"], is_primary: true, supplier_code: "PT-LIN" }],
      codes: [{ type: "custom", code: "LINEN01" }],
      loyalty_amount: 150,
      sales_account_code: "4000",
      purchase_account_code: "5000",
      weight: 0.25,
      weight_unit: "kg",
      length: 30,
      width: 20,
      height: 2,
      dimension_unit: "cm",
      ...extra,
    },
  });
  expect(reply.status).toBe(201);
  return reply.json.data;
}

export const opts = (parent: Product, size: string, colour: string) => [
  { attribute_id: attr(parent, "Size"), value: size },
  { attribute_id: attr(parent, "Colour"), value: colour },
];

export const variants = (sim: Simulator, parentId: string, body: unknown, headers?: Record<string, string>) =>
  call(sim, "POST", `${P}/products/${parentId}/variants`, { body, headers });

/** 400 VALIDATION_FAILED whose every field error names the given path or a path under it. */
export function expectValidation(reply: Reply, field: string): void {
  expectError(reply, 400, "VALIDATION_FAILED", "any");
  const error = errorOf(reply);
  expect(error.fields, "fields").toBeDefined();
  expect(error.fields!.length).toBeGreaterThan(0);
  const escaped = field.replace(/\./g, "\\.");
  for (const f of error.fields!) {
    expect(f.field).toMatch(new RegExp(`^${escaped}(\\.|$)`));
    expect(typeof f.message).toBe("string");
  }
}

/** The document a child of makeParent() should have: the parent's fields, its own identity and options. */
export function expectedChild(
  parent: Product,
  child: { sku: unknown; name: string; retail_price: number; active: boolean; options: unknown[] },
) {
  return {
    id: uuid,
    sku: child.sku,
    name: child.name,
    description: parent.description,
    active: child.active,
    is_gift_card: false,
    has_inventory: parent.has_inventory,
    has_variants: false,
    variant_parent_id: parent.id,
    is_composite: false,
    brand_id: parent.brand_id,
    category_id: parent.category_id,
    retail_price: child.retail_price,
    loyalty_amount: parent.loyalty_amount,
    sales_account_code: parent.sales_account_code,
    purchase_account_code: parent.purchase_account_code,
    weight: parent.weight,
    length: parent.length,
    width: parent.width,
    height: parent.height,
    weight_unit: parent.weight_unit,
    dimension_unit: parent.dimension_unit,
    image_url: null,
    image_thumb_url: null,
    codes: [],
    tags: [],
    suppliers: [],
    variant_options: child.options,
    variant_attributes: [],
    components: [],
    created_at: timestamp,
    updated_at: timestamp,
    version,
  };
}
