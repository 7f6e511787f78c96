// Tests of product reads and product deletes against the spec (retail-api-v1.md): "Resources and
// their fields: Product" and its sub-records as the fixture holds them, "Endpoints" (GET /products with
// `sku`, GET and DELETE /products/{id}), "Delete rules" (product row) and "Pagination and polling rules"
// 1, 2 and 4; plus the recorded choices of docs/spec-choices.md ("Catalog": SKU lookup, "active variant
// children", component refusal). Deletes, refusals, unknown and foreign ids, the exact SKU lookup, the
// listed documents and paging through the list are checked by the conformance rules of the catalog, not here.
// Expectations come from those texts; the fixture is scenarios/fixtures/demo-catalog.ts.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";

const P = "/demo/v1/products";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const START = "2026-01-01T00:00:00.000Z";
const FIXTURE_SKUS = [
  "TOTE-CANVAS",
  "BOTTLE-STEEL",
  "BUNDLE-PICNIC",
  "TEE-CLASSIC",
  "TEE-CLASSIC-S-NAVY",
  "TEE-CLASSIC-M-NAVY",
  "TEE-CLASSIC-L-NAVY",
  "TEE-CLASSIC-M-WHITE",
  "SERVICE-GIFTWRAP",
  "GIFTCARD",
  "CAP-BASEBALL",
  "SOCKS-WOOL",
  "SCARF-KNIT",
  "MUG-ENAMEL",
];

type Product = Record<string, any> & { id: string; sku: string; version: string };

/** The one live product with this exact SKU, through `GET /products?sku=`. */
async function bySku(sim: Simulator, sku: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `?sku=${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

/** name -> id of a store list (`/brands`, `/tags`, `/suppliers`, `/categories`). */
async function idsByName(sim: Simulator, list: string): Promise<Record<string, string>> {
  const reply = await call(sim, "GET", `/demo/v1/${list}?limit=200`);
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.json.data as { id: string; name: string }[]).map((r) => [r.name, r.id]));
}

async function listAll(sim: Simulator, query = ""): Promise<Reply> {
  const reply = await call(sim, "GET", `${P}?limit=200${query}`);
  expect(reply.status).toBe(200);
  return reply;
}

// ---- Product table: every field, with its type and nullability ----

type Kind =
  | "uuid"
  | "uuid|null"
  | "string"
  | "string|null"
  | "boolean"
  | "integer"
  | "integer|null"
  | "number|null"
  | "date-time"
  | "version"
  | "array";

const PRODUCT_FIELDS: Record<string, Kind> = {
  id: "uuid",
  sku: "string",
  name: "string",
  description: "string|null",
  active: "boolean",
  is_gift_card: "boolean",
  has_inventory: "boolean",
  has_variants: "boolean",
  variant_parent_id: "uuid|null",
  is_composite: "boolean",
  brand_id: "uuid|null",
  category_id: "uuid",
  retail_price: "integer",
  loyalty_amount: "integer|null",
  sales_account_code: "string|null",
  purchase_account_code: "string|null",
  weight: "number|null",
  length: "number|null",
  width: "number|null",
  height: "number|null",
  weight_unit: "string|null",
  dimension_unit: "string|null",
  image_url: "string|null",
  image_thumb_url: "string|null",
  codes: "array",
  tags: "array",
  suppliers: "array",
  variant_options: "array",
  variant_attributes: "array",
  components: "array",
  created_at: "date-time",
  updated_at: "date-time",
  version: "version",
};

function fits(value: unknown, kind: Kind): boolean {
  const nullable = kind.endsWith("|null");
  if (value === null) return nullable;
  switch (kind.replace("|null", "")) {
    case "uuid":
      return typeof value === "string" && UUID.test(value);
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "date-time":
      return typeof value === "string" && UTC_DATE_TIME.test(value);
    case "version":
      return typeof value === "string" && value.length > 0;
    case "array":
      return Array.isArray(value);
  }
  return false;
}

const keysAre = (row: object, keys: string[]) =>
  JSON.stringify(Object.keys(row).sort()) === JSON.stringify([...keys].sort());

/** Every problem of a product read document against the Product table and its sub-record table. */
function shapeProblems(p: Product): string[] {
  const problems: string[] = [];
  const expected = Object.keys(PRODUCT_FIELDS).sort();
  const actual = Object.keys(p).sort();
  if (JSON.stringify(actual) !== JSON.stringify(expected)) problems.push(`keys ${actual.join(",")}`);
  for (const [field, kind] of Object.entries(PRODUCT_FIELDS)) {
    if (!fits(p[field], kind)) problems.push(`${field}: ${JSON.stringify(p[field])} is not ${kind}`);
  }
  for (const [i, c] of (p.codes ?? []).entries()) {
    if (
      !keysAre(c, ["id", "type", "code"]) ||
      !UUID.test(c.id) ||
      !["upc", "isbn", "itf", "ean", "jan", "custom"].includes(c.type) ||
      typeof c.code !== "string"
    )
      problems.push(`codes.${i}: ${JSON.stringify(c)}`);
  }
  for (const [i, t] of (p.tags ?? []).entries()) {
    if (!keysAre(t, ["id", "name"]) || !UUID.test(t.id) || typeof t.name !== "string")
      problems.push(`tags.${i}: ${JSON.stringify(t)}`);
  }
  for (const [i, s] of (p.suppliers ?? []).entries()) {
    // "Never carries a supply price": exactly supplier_id, is_primary, supplier_code and supplier_name.
    if (
      !keysAre(s, ["supplier_id", "is_primary", "supplier_code", "supplier_name"]) ||
      !UUID.test(s.supplier_id) ||
      typeof s.is_primary !== "boolean" ||
      !(s.supplier_code === null || typeof s.supplier_code === "string") ||
      typeof s.supplier_name !== "string"
    )
      problems.push(`suppliers.${i}: ${JSON.stringify(s)}`);
  }
  for (const [i, o] of (p.variant_options ?? []).entries()) {
    if (!keysAre(o, ["attribute_id", "value"]) || !UUID.test(o.attribute_id) || typeof o.value !== "string")
      problems.push(`variant_options.${i}: ${JSON.stringify(o)}`);
  }
  for (const [i, a] of (p.variant_attributes ?? []).entries()) {
    if (
      !keysAre(a, ["id", "name", "position"]) ||
      !UUID.test(a.id) ||
      typeof a.name !== "string" ||
      !Number.isInteger(a.position) ||
      a.position < 1 ||
      a.position > 3
    )
      problems.push(`variant_attributes.${i}: ${JSON.stringify(a)}`);
  }
  for (const [i, c] of (p.components ?? []).entries()) {
    if (!keysAre(c, ["product_id", "quantity"]) || !UUID.test(c.product_id) || typeof c.quantity !== "number")
      problems.push(`components.${i}: ${JSON.stringify(c)}`);
  }
  return problems;
}

const byName = <T extends { name: string }>(rows: T[]) => [...rows].sort((a, b) => a.name.localeCompare(b.name));

describe("Spec, Resources: Product — all listed fields are always present, with their types and nullability", () => {
  it("every fixture product read through the list has exactly the Product fields, each of its type", async () => {
    const sim = makeSim();
    const list = await listAll(sim);
    expect((list.json.data as Product[]).map((p) => p.sku)).toEqual(expect.arrayContaining(FIXTURE_SKUS));
    for (const p of list.json.data as Product[]) expect(shapeProblems(p), p.sku).toEqual([]);
  });

  it("TOTE-CANVAS: description, brand, category, tags with names, suppliers with names, codes and its own image", async () => {
    const sim = makeSim();
    const brands = await idsByName(sim, "brands");
    const categories = await idsByName(sim, "categories");
    const tags = await idsByName(sim, "tags");
    const suppliers = await idsByName(sim, "suppliers");
    const p = await bySku(sim, "TOTE-CANVAS");
    expect(shapeProblems(p)).toEqual([]);
    expect(p).toMatchObject({
      sku: "TOTE-CANVAS",
      name: "Canvas Tote",
      description: "A sturdy canvas tote bag.",
      active: true,
      is_gift_card: false,
      has_inventory: true,
      has_variants: false,
      variant_parent_id: null,
      is_composite: false,
      brand_id: brands["Northwind"],
      category_id: categories["Accessories"],
      variant_options: [],
      variant_attributes: [],
      components: [],
      created_at: START,
      updated_at: START,
    });
    expect(p.version).toMatch(DECIMAL);
    expect(byName(p.tags)).toStrictEqual([
      { id: tags["Bestseller"], name: "Bestseller" },
      { id: tags["Summer"], name: "Summer" },
    ]);
    expect([...p.suppliers].sort((a, b) => a.supplier_name.localeCompare(b.supplier_name))).toStrictEqual([
      {
        supplier_id: suppliers["Acme Wholesale"],
        is_primary: false,
        supplier_code: "AW-7731",
        supplier_name: "Acme Wholesale",
      },
      {
        supplier_id: suppliers["Pacific Textiles"],
        is_primary: true,
        supplier_code: "PT-TOTE-01",
        supplier_name: "Pacific Textiles",
      },
    ]);
    expect([...p.codes].sort((a, b) => a.type.localeCompare(b.type))).toStrictEqual([
      { id: expect.stringMatching(UUID), type: "custom", code: "TOTE01" },
      { id: expect.stringMatching(UUID), type: "ean", code: "4006381333931" },
    ]);
    // Write rule 7 and the Images choice: the image is the service's own copy under {api_root}/images/{id}/.
    const image = /^http:\/\/sim\.test\/images\/([0-9a-f-]{36})\/original\.png$/.exec(p.image_url);
    expect(image, p.image_url).not.toBeNull();
    expect(p.image_thumb_url).toBe(`http://sim.test/images/${image![1]}/thumb.png`);
  });

  it("BUNDLE-PICNIC is a composite of TOTE-CANVAS x1 and BOTTLE-STEEL x2, with no brand", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const p = await bySku(sim, "BUNDLE-PICNIC");
    expect(shapeProblems(p)).toEqual([]);
    expect(p).toMatchObject({
      is_composite: true,
      brand_id: null,
      description: "A tote and two bottles.",
      has_variants: false,
      variant_parent_id: null,
    });
    expect([...p.components].sort((a, b) => a.quantity - b.quantity)).toStrictEqual([
      { product_id: tote.id, quantity: 1 },
      { product_id: bottle.id, quantity: 2 },
    ]);
  });

  it("TEE-CLASSIC is a variant parent with attributes Size (1) and Colour (2); a child references them (variant_options) and has variant_attributes []", async () => {
    const sim = makeSim();
    const parent = await bySku(sim, "TEE-CLASSIC");
    expect(shapeProblems(parent)).toEqual([]);
    expect(parent).toMatchObject({ has_variants: true, variant_parent_id: null, variant_options: [] });
    const attributes = [...parent.variant_attributes].sort((a, b) => a.position - b.position);
    expect(attributes).toStrictEqual([
      { id: expect.stringMatching(UUID), name: "Size", position: 1 },
      { id: expect.stringMatching(UUID), name: "Colour", position: 2 },
    ]);
    const child = await bySku(sim, "TEE-CLASSIC-S-NAVY");
    expect(shapeProblems(child)).toEqual([]);
    expect(child).toMatchObject({ has_variants: false, variant_parent_id: parent.id, variant_attributes: [] });
    expect([...child.variant_options].sort((a, b) => a.value.localeCompare(b.value))).toStrictEqual([
      { attribute_id: attributes[1].id, value: "Navy" },
      { attribute_id: attributes[0].id, value: "S" },
    ]);
  });

  it("GIFTCARD is a gift card without inventory; SERVICE-GIFTWRAP has no inventory; SCARF-KNIT is inactive", async () => {
    const sim = makeSim();
    expect(await bySku(sim, "GIFTCARD")).toMatchObject({ is_gift_card: true, has_inventory: false, retail_price: 0 });
    expect(await bySku(sim, "SERVICE-GIFTWRAP")).toMatchObject({ is_gift_card: false, has_inventory: false });
    expect(await bySku(sim, "SCARF-KNIT")).toMatchObject({ active: false, description: "Discontinued." });
  });
});

describe("Spec, Endpoints: GET /products/{id} returns the product document", () => {
  it("answers {data: document}, equal to the list's document", async () => {
    const sim = makeSim();
    for (const sku of ["TOTE-CANVAS", "BUNDLE-PICNIC", "TEE-CLASSIC", "TEE-CLASSIC-M-WHITE"]) {
      const fromList = await bySku(sim, sku);
      const reply = await call(sim, "GET", `${P}/${fromList.id}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: fromList });
    }
  });

  it("Choices, path ids: an upper-case UUID finds the same product", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const reply = await call(sim, "GET", `${P}/${tote.id.toUpperCase()}`);
    expect(reply.status).toBe(200);
    expect(reply.json.data.id).toBe(tote.id);
  });
});

describe("Spec, Endpoints: GET /products query `sku` is an exact lookup", () => {
  it("a miss answers an empty page: {data: [], next_cursor: null, has_more: false} (Pagination rule 2)", async () => {
    const sim = makeSim();
    for (const sku of ["NO-SUCH-SKU", "TOTE", "TOTE-CANVAS-X"]) {
      const reply = await call(sim, "GET", `${P}?sku=${sku}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
    }
  });

  it("Choices, SKU lookup (the exact SKU): another case of the SKU finds nothing", async () => {
    const reply = await call(makeSim(), "GET", `${P}?sku=tote-canvas`);
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });
});

describe("Spec, Delete rules (product): soft delete; Pagination rule 4: tombstones", () => {
  it("include_deleted=true shows the deleted product as a tombstone with only {id, deleted_at, version}, as its latest change", async () => {
    const sim = makeSim();
    const cap = await bySku(sim, "CAP-BASEBALL");
    const start = (await listAll(sim)).json;
    const held = start.next_cursor as string;
    sim.clock.advance(90);
    expect((await call(sim, "DELETE", `${P}/${cap.id}`)).status).toBe(204);
    const all = (await listAll(sim, "&include_deleted=true")).json.data as Record<string, unknown>[];
    expect(all).toHaveLength(start.data.length);
    const tombstone = all.find((r) => r.id === cap.id)!;
    expect(tombstone).toStrictEqual({
      id: cap.id,
      deleted_at: "2026-01-01T00:01:30.000Z",
      version: expect.stringMatching(DECIMAL),
    });
    expect(BigInt(tombstone.version as string) > BigInt(cap.version)).toBe(true);
    expect(all[all.length - 1]).toBe(tombstone);
    // Polling from the cursor held before the delete yields the tombstone only.
    const polled = await call(sim, "GET", `${P}?include_deleted=true&cursor=${held}`);
    expect(polled.status).toBe(200);
    expect(polled.json.data).toStrictEqual([tombstone]);
    // Without include_deleted, the poll shows nothing.
    const hidden = await call(sim, "GET", `${P}?cursor=${held}`);
    expect(hidden.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });

  it("Delete rules: a component of a live composite (TOTE-CANVAS) answers 409 CONFLICT; after the composite is deleted it can be deleted", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bundle = await bySku(sim, "BUNDLE-PICNIC");
    expectError(await call(sim, "DELETE", `${P}/${tote.id}`), 409, "CONFLICT");
    expect(await bySku(sim, "TOTE-CANVAS")).toStrictEqual(tote);
    expect((await call(sim, "DELETE", `${P}/${bundle.id}`)).status).toBe(204);
    expect((await call(sim, "DELETE", `${P}/${tote.id}`)).status).toBe(204);
    expectError(await call(sim, "GET", `${P}/${tote.id}`), 404, "NOT_FOUND");
  });

  it("Delete rules (active variant children): with three of four children inactive the delete is still refused; with all inactive it succeeds", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const children = ["TEE-CLASSIC-S-NAVY", "TEE-CLASSIC-M-NAVY", "TEE-CLASSIC-L-NAVY", "TEE-CLASSIC-M-WHITE"];
    const childIds: string[] = [];
    for (const sku of children.slice(0, 3)) {
      const child = await bySku(sim, sku);
      childIds.push(child.id);
      const reply = await call(sim, "PATCH", `${P}/${child.id}`, { body: { active: false } });
      expect(reply.status).toBe(200);
      expect(reply.json.data.active).toBe(false);
    }
    expectError(await call(sim, "DELETE", `${P}/${tee.id}`), 409, "CONFLICT");
    const last = await bySku(sim, children[3]!);
    childIds.push(last.id);
    expect((await call(sim, "PATCH", `${P}/${last.id}`, { body: { active: false } })).status).toBe(200);
    expect((await call(sim, "DELETE", `${P}/${tee.id}`)).status).toBe(204);
    expectError(await call(sim, "GET", `${P}/${tee.id}`), 404, "NOT_FOUND");

    // Soft deletion: records that referred to it keep working — the children stay readable and writable,
    // still naming their (deleted) parent and its attributes (choice: inactive children keep variant_parent_id).
    for (const id of childIds) {
      const child = await call(sim, "GET", `${P}/${id}`);
      expect(child.status).toBe(200);
      expect(child.json.data.variant_parent_id).toBe(tee.id);
      expect(child.json.data.variant_options).toHaveLength(2);
    }
    const renamed = await call(sim, "PATCH", `${P}/${childIds[0]}`, {
      body: { name: "Orphan Tee S Navy", active: true },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({ name: "Orphan Tee S Navy", active: true, variant_parent_id: tee.id });
  });

  it("Choices, component refusal (only a live composite blocks): after the composite and TOTE-CANVAS are deleted, BOTTLE-STEEL still composes; a deleted product cannot be a new component", async () => {
    // A live composite always blocks the delete of its component (Delete rules), so a live composite that lists a
    // deleted component cannot be produced through the API; this checks what follows from the deletes instead.
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const bundle = await bySku(sim, "BUNDLE-PICNIC");
    expect((await call(sim, "DELETE", `${P}/${bundle.id}`)).status).toBe(204);
    expect((await call(sim, "DELETE", `${P}/${tote.id}`)).status).toBe(204);
    const made = await call(sim, "POST", P, {
      body: { name: "Bottle Pair", retail_price: 3000, components: [{ product_id: bottle.id, quantity: 2 }] },
    });
    expect(made.status).toBe(201);
    expect(made.json.data).toMatchObject({ is_composite: true, components: [{ product_id: bottle.id, quantity: 2 }] });
    // Errors, UNPROCESSABLE: "referenced thing not found" — a deleted product is not found.
    const refused = await call(sim, "POST", P, {
      body: { name: "Tote Pair", retail_price: 3000, components: [{ product_id: tote.id, quantity: 2 }] },
    });
    expectError(refused, 422, "UNPROCESSABLE", "any");
  });

  it("Choices, SKU uniqueness: a deleted product's SKU can be used again, and ?sku= then finds the new product only", async () => {
    const sim = makeSim();
    const socks = await bySku(sim, "SOCKS-WOOL");
    expect((await call(sim, "DELETE", `${P}/${socks.id}`)).status).toBe(204);
    const made = await call(sim, "POST", P, { body: { sku: "SOCKS-WOOL", name: "New Socks", retail_price: 900 } });
    expect(made.status).toBe(201);
    expect(made.json.data.id).not.toBe(socks.id);
    const found = await bySku(sim, "SOCKS-WOOL");
    expect(found.id).toBe(made.json.data.id);
  });
});
