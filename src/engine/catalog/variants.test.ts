// Tests of POST /products/{id}/variants against the spec: "Product" (has_variants, variant_parent_id,
// variant_options, variant_attributes, version), "Product write rules" 5, 8 and 9, "Errors"
// (CONFLICT, NOT_FOUND, UNPROCESSABLE, PRODUCT_LIMIT_REACHED, VALIDATION_FAILED with dotted field
// names), "Limits" (1 to 200 variants per request, idempotency), and the recorded catalog choices
// (201 with {data: [children]}, variant validation, children's fields copied from the parent, the
// parent's version kept, case-insensitive combinations).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(DECIMAL);
const timestamp = expect.stringMatching(UTC_DATE_TIME);
const UNKNOWN_ID = "00000000-0000-4000-8000-00000000abcd";

type Product = Record<string, any> & { id: string; sku: string; version: string };

const P = "/demo/v1";

async function bySku(sim: Simulator, sku: string, prefix = "demo"): Promise<Product> {
  const reply = await call(sim, "GET", `/${prefix}/v1/products?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `product ${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

/** Every live product of the store, paging through the list. */
async function allProducts(sim: Simulator, prefix = "demo"): Promise<Product[]> {
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

async function childrenOf(sim: Simulator, parentId: string): Promise<Product[]> {
  return (await allProducts(sim)).filter((p) => p.variant_parent_id === parentId);
}

async function nameMap(sim: Simulator, list: string): Promise<Record<string, string>> {
  const reply = await call(sim, "GET", `${P}/${list}?limit=200`);
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.json.data as { id: string; name: string }[]).map((r) => [r.name, r.id]));
}

const attr = (parent: Product, name: string): string => {
  const found = (parent.variant_attributes as { id: string; name: string }[]).find((a) => a.name === name);
  expect(found, `attribute ${name}`).toBeDefined();
  return found!.id;
};

/** A fresh variant parent with Size (position 1) and Colour (position 2), and most fields set. */
async function makeParent(sim: Simulator, extra: Record<string, unknown> = {}): Promise<Product> {
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

const opts = (parent: Product, size: string, colour: string) => [
  { attribute_id: attr(parent, "Size"), value: size },
  { attribute_id: attr(parent, "Colour"), value: colour },
];

const variants = (sim: Simulator, parentId: string, body: unknown, headers?: Record<string, string>) =>
  call(sim, "POST", `${P}/products/${parentId}/variants`, { body, headers });

/** 400 VALIDATION_FAILED whose every field error names the given path or a path under it. */
function expectValidation(reply: Reply, field: string): void {
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
function expectedChild(
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

describe("Spec, Product write rules 9: create the parent with has_variants true and its attributes, then add children", () => {
  it("the fresh parent reads has_variants true with its attributes (ids, names, positions) and no parent of its own", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect(parent.has_variants).toBe(true);
    expect(parent.variant_parent_id).toBeNull();
    expect(parent.variant_options).toStrictEqual([]);
    expect(parent.variant_attributes).toStrictEqual([
      { id: uuid, name: "Size", position: 1 },
      { id: uuid, name: "Colour", position: 2 },
    ]);
    expect(attr(parent, "Size")).not.toBe(attr(parent, "Colour"));
  });

  it("adding one child answers 201 {data: [child]} (choice) with the parent's fields, variant_parent_id, options, has_variants false, empty variant_attributes", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] });
    expect(reply.status).toBe(201);
    expect(Object.keys(reply.json)).toEqual(["data"]);
    expect(reply.json.data).toHaveLength(1);
    const child = reply.json.data[0];
    expect(child).toStrictEqual(
      expectedChild(parent, {
        sku: expect.stringMatching(/^PRD-/),
        name: "Linen Shirt / S / Blue",
        retail_price: 4500,
        active: true,
        options: opts(parent, "S", "Blue"),
      }),
    );
    expect(child.id).not.toBe(parent.id);
    expect(child.sku).not.toBe(parent.sku);
  });

  it("then adding many children in one call answers 201 with every child, in request order, each with its given or default name, sku, price and active", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const first = await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] });
    expect(first.status).toBe(201);
    const reply = await variants(sim, parent.id, {
      variants: [
        { options: opts(parent, "M", "Blue"), sku: "LINEN-M-BLUE" },
        { options: opts(parent, "L", "Blue"), name: "Linen Shirt Large Blue", retail_price: 4900 },
        { options: opts(parent, "S", "Sand"), active: false },
        { options: opts(parent, "M", "Sand"), sku: "LINEN-M-SAND", name: "Sand M", retail_price: 4700, active: true },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toStrictEqual([
      expectedChild(parent, {
        sku: "LINEN-M-BLUE",
        name: "Linen Shirt / M / Blue",
        retail_price: 4500,
        active: true,
        options: opts(parent, "M", "Blue"),
      }),
      expectedChild(parent, {
        sku: expect.stringMatching(/^PRD-/),
        name: "Linen Shirt Large Blue",
        retail_price: 4900,
        active: true,
        options: opts(parent, "L", "Blue"),
      }),
      expectedChild(parent, {
        sku: expect.stringMatching(/^PRD-/),
        name: "Linen Shirt / S / Sand",
        retail_price: 4500,
        active: false,
        options: opts(parent, "S", "Sand"),
      }),
      expectedChild(parent, {
        sku: "LINEN-M-SAND",
        name: "Sand M",
        retail_price: 4700,
        active: true,
        options: opts(parent, "M", "Sand"),
      }),
    ]);
    const ids = [first.json.data[0].id, ...reply.json.data.map((c: Product) => c.id)];
    expect(new Set(ids).size).toBe(5);
    const skus = [first.json.data[0].sku, ...reply.json.data.map((c: Product) => c.sku)];
    expect(new Set(skus.map((s) => s.toUpperCase())).size).toBe(5);
    const children = await childrenOf(sim, parent.id);
    expect(children.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it("variant_options come in the parent's attribute order (position), whatever order the request gives them", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await variants(sim, parent.id, {
      variants: [
        {
          options: [
            { attribute_id: attr(parent, "Colour"), value: "Red" },
            { attribute_id: attr(parent, "Size"), value: "XL" },
          ],
        },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data[0].variant_options).toStrictEqual([
      { attribute_id: attr(parent, "Size"), value: "XL" },
      { attribute_id: attr(parent, "Colour"), value: "Red" },
    ]);
    expect(reply.json.data[0].name).toBe("Linen Shirt / XL / Red");
  });

  it("a parent whose attributes were sent out of position order still orders options and the default name by position", async () => {
    const sim = makeSim();
    const created = await call(sim, "POST", `${P}/products`, {
      body: {
        name: "Hoodie",
        retail_price: 6000,
        has_variants: true,
        variant_attributes: [
          { name: "Colour", position: 2 },
          { name: "Size", position: 1 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const parent = created.json.data;
    const reply = await variants(sim, parent.id, {
      variants: [
        {
          options: [
            { attribute_id: attr(parent, "Colour"), value: "Grey" },
            { attribute_id: attr(parent, "Size"), value: "L" },
          ],
        },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data[0].variant_options).toStrictEqual([
      { attribute_id: attr(parent, "Size"), value: "L" },
      { attribute_id: attr(parent, "Colour"), value: "Grey" },
    ]);
    expect(reply.json.data[0].name).toBe("Hoodie / L / Grey");
  });

  it("on the demo parent TEE-CLASSIC a new combination XL/Navy is added with the tee's price and default name", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const reply = await variants(sim, tee.id, {
      variants: [{ options: opts(tee, "XL", "Navy"), sku: "TEE-CLASSIC-XL-NAVY" }],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toHaveLength(1);
    expect(reply.json.data[0]).toMatchObject({
      sku: "TEE-CLASSIC-XL-NAVY",
      name: "Classic Tee / XL / Navy",
      retail_price: tee.retail_price,
      variant_parent_id: tee.id,
      brand_id: tee.brand_id,
      category_id: tee.category_id,
      tags: [],
      suppliers: [],
      variant_attributes: [],
      has_variants: false,
    });
    expect(await childrenOf(sim, tee.id)).toHaveLength(5);
  });

  it("Choice: adding children keeps the parent's version (and the rest of its document)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    sim.clock.advance(60);
    expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
    const again = await call(sim, "GET", `${P}/products/${parent.id}`);
    expect(again.status).toBe(200);
    expect(again.json.data).toStrictEqual(parent);
  });

  it("Choice (children copy the parent; active defaults to true): an inactive parent without inventory gives active children without inventory", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim, { active: false, has_inventory: false, description: null, brand_id: null });
    const reply = await variants(sim, parent.id, {
      variants: [{ options: opts(parent, "S", "Blue") }, { options: opts(parent, "M", "Blue"), active: false }],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data.map((c: Product) => [c.active, c.has_inventory, c.description, c.brand_id])).toEqual([
      [true, false, null, null],
      [false, false, null, null],
    ]);
  });

  it("a parent with three attributes: each child gives three options, stored in position order", async () => {
    const sim = makeSim();
    const created = await call(sim, "POST", `${P}/products`, {
      body: {
        name: "Chino",
        retail_price: 5500,
        has_variants: true,
        variant_attributes: [
          { name: "Waist", position: 1 },
          { name: "Leg", position: 2 },
          { name: "Colour", position: 3 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const parent = created.json.data;
    const [waist, leg, colour] = ["Waist", "Leg", "Colour"].map((n) => attr(parent, n));
    const reply = await variants(sim, parent.id, {
      variants: [
        {
          options: [
            { attribute_id: colour, value: "Stone" },
            { attribute_id: waist, value: "32" },
            { attribute_id: leg, value: "30" },
          ],
        },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data[0].variant_options).toStrictEqual([
      { attribute_id: waist, value: "32" },
      { attribute_id: leg, value: "30" },
      { attribute_id: colour, value: "Stone" },
    ]);
    expect(reply.json.data[0].name).toBe("Chino / 32 / 30 / Stone");
    const two = await variants(sim, parent.id, {
      variants: [
        {
          options: [
            { attribute_id: waist, value: "34" },
            { attribute_id: leg, value: "30" },
          ],
        },
      ],
    });
    expectValidation(two, "variants.0");
  });

  it("Spec, Limits (variants per request 200): exactly 200 variants in one call are created", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const list = Array.from({ length: 200 }, (_, i) => ({ options: opts(parent, `S${i}`, "Blue") }));
    const reply = await variants(sim, parent.id, { variants: list });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toHaveLength(200);
    expect(reply.json.data[199].variant_options).toStrictEqual(opts(parent, "S199", "Blue"));
    expect(await childrenOf(sim, parent.id)).toHaveLength(200);
  });
});

describe("Spec, Product write rules 9: children are ordinary products afterwards", () => {
  it("a child reads by id, appears in GET /products and by sku, and PATCH works on it with a new version", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const created = await variants(sim, parent.id, {
      variants: [{ options: opts(parent, "S", "Blue"), sku: "LINEN-S-BLUE" }],
    });
    expect(created.status).toBe(201);
    const child = created.json.data[0];

    const read = await call(sim, "GET", `${P}/products/${child.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toStrictEqual({ data: child });
    expect(await bySku(sim, "LINEN-S-BLUE")).toStrictEqual(child);
    expect((await allProducts(sim)).map((p) => p.id)).toContain(child.id);

    sim.clock.advance(60);
    const patched = await call(sim, "PATCH", `${P}/products/${child.id}`, {
      body: { name: "Blue linen, small", retail_price: 3900, version: child.version },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toStrictEqual({
      ...child,
      name: "Blue linen, small",
      retail_price: 3900,
      updated_at: "2026-01-01T00:01:00.000Z",
      version: expect.stringMatching(DECIMAL),
    });
    expect(BigInt(patched.json.data.version)).toBeGreaterThan(BigInt(child.version));
    expect((await call(sim, "GET", `${P}/products/${child.id}`)).json.data).toStrictEqual(patched.json.data);
  });

  it("a child takes tags and suppliers like any product", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC-M-WHITE");
    const tags = await nameMap(sim, "tags");
    const patched = await call(sim, "PATCH", `${P}/products/${tee.id}`, { body: { tags: [{ id: tags["Sale"] }] } });
    expect(patched.status).toBe(200);
    expect(patched.json.data.tags).toStrictEqual([{ id: tags["Sale"], name: "Sale" }]);
    expect(patched.json.data.variant_parent_id).toBe(tee.variant_parent_id);
    expect(patched.json.data.variant_options).toStrictEqual(tee.variant_options);
  });

  it("a child is deleted like an ordinary product (204, then 404)", async () => {
    const sim = makeSim();
    const child = await bySku(sim, "TEE-CLASSIC-L-NAVY");
    const del = await call(sim, "DELETE", `${P}/products/${child.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    expectError(await call(sim, "GET", `${P}/products/${child.id}`), 404, "NOT_FOUND");
  });

  it("Choice: a variant child cannot have variants of its own: POST variants on a child answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const child = await bySku(sim, "TEE-CLASSIC-S-NAVY");
    const tee = await bySku(sim, "TEE-CLASSIC");
    const reply = await variants(sim, child.id, { variants: [{ options: opts(tee, "XS", "Navy") }] });
    expectError(reply, 422, "UNPROCESSABLE");
  });
});

describe("Spec, Endpoints and Limits: 1 to 200 variants per request; otherwise 400 VALIDATION_FAILED", () => {
  it("0 variants answers 400 naming variants and creates nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expectValidation(await variants(sim, parent.id, { variants: [] }), "variants");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("201 variants answers 400 naming variants and creates nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const list = Array.from({ length: 201 }, (_, i) => ({ options: opts(parent, `S${i}`, "Blue") }));
    expectValidation(await variants(sim, parent.id, { variants: list }), "variants");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("a body without variants answers 400 naming variants", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expectValidation(await variants(sim, parent.id, {}), "variants");
  });

  it("Spec, Resources (no resource accepts unknown properties): an unknown property in a variant answers 400 naming variants.0", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expectValidation(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue"), colour: "blue" }] }),
      "variants.0",
    );
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });
});

describe("Choice: each variant gives one value for each of the parent's attributes, else 400 naming variants.N (all or nothing)", () => {
  const cases: [string, (parent: Product, tee: Product) => unknown[]][] = [
    [
      "an unknown attribute id",
      (p) => [
        { attribute_id: attr(p, "Size"), value: "M" },
        { attribute_id: UNKNOWN_ID, value: "Blue" },
      ],
    ],
    [
      "another product's attribute id",
      (p, tee) => [
        { attribute_id: attr(p, "Size"), value: "M" },
        { attribute_id: attr(tee, "Colour"), value: "Blue" },
      ],
    ],
    ["a missing attribute (Colour left out)", (p) => [{ attribute_id: attr(p, "Size"), value: "M" }]],
    ["no options at all", () => []],
    [
      "an attribute given twice",
      (p) => [
        { attribute_id: attr(p, "Size"), value: "M" },
        { attribute_id: attr(p, "Colour"), value: "Blue" },
        { attribute_id: attr(p, "Size"), value: "L" },
      ],
    ],
    [
      "an attribute given twice instead of the other one",
      (p) => [
        { attribute_id: attr(p, "Size"), value: "M" },
        { attribute_id: attr(p, "Size"), value: "L" },
      ],
    ],
  ];
  for (const [label, options] of cases) {
    it(`${label} in variants.1 of 3 answers 400 naming variants.1 and writes none of the 3`, async () => {
      const sim = makeSim();
      const parent = await makeParent(sim);
      const tee = await bySku(sim, "TEE-CLASSIC");
      const before = (await allProducts(sim)).length;
      const reply = await variants(sim, parent.id, {
        variants: [
          { options: opts(parent, "S", "Blue") },
          { options: options(parent, tee) },
          { options: opts(parent, "L", "Blue") },
        ],
      });
      expectValidation(reply, "variants.1");
      expect(await childrenOf(sim, parent.id)).toHaveLength(0);
      expect((await allProducts(sim)).length).toBe(before);
    });
  }
});

describe("Spec, Product write rules 9: a combination that already exists answers 409 CONFLICT", () => {
  it("S/Navy on TEE-CLASSIC answers 409 CONFLICT and creates nothing", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const before = await childrenOf(sim, tee.id);
    expect(before).toHaveLength(4);
    expectError(
      await variants(sim, tee.id, { variants: [{ options: opts(tee, "S", "Navy") }] }),
      409,
      "CONFLICT",
      "any",
    );
    expect((await childrenOf(sim, tee.id)).map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
  });

  it("Choice (values compare without case): s/navy on TEE-CLASSIC answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    expectError(
      await variants(sim, tee.id, { variants: [{ options: opts(tee, "s", "navy") }] }),
      409,
      "CONFLICT",
      "any",
    );
    expectError(
      await variants(sim, tee.id, { variants: [{ options: opts(tee, "M", "WHITE") }] }),
      409,
      "CONFLICT",
      "any",
    );
    expect(await childrenOf(sim, tee.id)).toHaveLength(4);
  });

  it("an existing combination among new ones writes none of them (all or nothing)", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const before = (await allProducts(sim)).length;
    const reply = await variants(sim, tee.id, {
      variants: [
        { options: opts(tee, "XL", "Navy") },
        { options: opts(tee, "XS", "Navy") },
        { options: opts(tee, "L", "Navy") },
        { options: opts(tee, "S", "White") },
      ],
    });
    expectError(reply, 409, "CONFLICT", "any");
    expect(await childrenOf(sim, tee.id)).toHaveLength(4);
    expect((await allProducts(sim)).length).toBe(before);
  });

  it("the same combination twice within one request answers 409 CONFLICT and writes nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await variants(sim, parent.id, {
      variants: [
        { options: opts(parent, "S", "Blue") },
        { options: opts(parent, "M", "Blue") },
        { options: opts(parent, "s", "BLUE") },
      ],
    });
    expectError(reply, 409, "CONFLICT", "any");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("a combination added by an earlier call answers 409 on a later one", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
    expectError(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] }),
      409,
      "CONFLICT",
      "any",
    );
    expect(await childrenOf(sim, parent.id)).toHaveLength(1);
  });

  it("Choice (a repeat of a live child): after L/Navy's child is deleted, L/Navy can be added again", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const old = await bySku(sim, "TEE-CLASSIC-L-NAVY");
    expect((await call(sim, "DELETE", `${P}/products/${old.id}`)).status).toBe(204);
    const reply = await variants(sim, tee.id, { variants: [{ options: opts(tee, "L", "Navy") }] });
    expect(reply.status).toBe(201);
    expect(reply.json.data[0].id).not.toBe(old.id);
    expect(reply.json.data[0].variant_options).toStrictEqual(opts(tee, "L", "Navy"));
  });
});

describe("Spec, Product write rules 8: SKU in use answers 409 CONFLICT", () => {
  it("a variant sku equal to a live product's sku answers 409 and writes nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await variants(sim, parent.id, {
      variants: [
        { options: opts(parent, "M", "Blue"), sku: "M-OK" },
        { options: opts(parent, "S", "Blue"), sku: "TOTE-CANVAS" },
      ],
    });
    expectError(reply, 409, "CONFLICT", "any");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("Choice (SKUs unique without case): a variant sku tote-canvas answers 409", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expectError(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue"), sku: "tote-canvas" }] }),
      409,
      "CONFLICT",
      "any",
    );
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("the same sku twice within one request (in another case) answers 409 and writes nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await variants(sim, parent.id, {
      variants: [
        { options: opts(parent, "S", "Blue"), sku: "LINEN-DUP" },
        { options: opts(parent, "M", "Blue"), sku: "linen-dup" },
      ],
    });
    expectError(reply, 409, "CONFLICT", "any");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("a deleted product's sku can be used by a variant (choice: unique among live products)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const mug = await bySku(sim, "MUG-ENAMEL");
    expect((await call(sim, "DELETE", `${P}/products/${mug.id}`)).status).toBe(204);
    const reply = await variants(sim, parent.id, {
      variants: [{ options: opts(parent, "S", "Blue"), sku: "MUG-ENAMEL" }],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data[0].sku).toBe("MUG-ENAMEL");
  });

  it("the parent's own sku answers 409", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expectError(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue"), sku: "LINEN" }] }),
      409,
      "CONFLICT",
      "any",
    );
  });
});

describe("Choice: the parent needs has_variants true and at least one attribute, else 422 UNPROCESSABLE", () => {
  it("an ordinary product (BOTTLE-STEEL, has_variants false) answers 422 and gains no children", async () => {
    const sim = makeSim();
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const reply = await variants(sim, bottle.id, {
      variants: [{ options: [{ attribute_id: UNKNOWN_ID, value: "Big" }] }],
    });
    expectError(reply, 422, "UNPROCESSABLE");
    expect(await childrenOf(sim, bottle.id)).toHaveLength(0);
    expect((await call(sim, "GET", `${P}/products/${bottle.id}`)).json.data).toStrictEqual(bottle);
  });

  it("a parent with has_variants true but no attributes answers 422", async () => {
    const sim = makeSim();
    const created = await call(sim, "POST", `${P}/products`, {
      body: { name: "Bare Parent", retail_price: 1000, has_variants: true },
    });
    expect(created.status).toBe(201);
    expect(created.json.data.variant_attributes).toStrictEqual([]);
    const reply = await variants(sim, created.json.data.id, {
      variants: [{ options: [{ attribute_id: UNKNOWN_ID, value: "X" }] }],
    });
    expectError(reply, 422, "UNPROCESSABLE");
    expect(await childrenOf(sim, created.json.data.id)).toHaveLength(0);
  });
});

describe("Spec, Errors: NOT_FOUND for a missing, deleted, other store's or non-UUID parent", () => {
  it("an unknown UUID answers 404", async () => {
    const sim = makeSim();
    expectError(
      await variants(sim, UNKNOWN_ID, { variants: [{ options: [{ attribute_id: UNKNOWN_ID, value: "X" }] }] }),
      404,
      "NOT_FOUND",
    );
  });

  it("a non-UUID id answers 404", async () => {
    const sim = makeSim();
    expectError(
      await variants(sim, "TEE-CLASSIC", { variants: [{ options: [{ attribute_id: UNKNOWN_ID, value: "X" }] }] }),
      404,
      "NOT_FOUND",
    );
  });

  it("Spec, Soft deletion: a deleted parent answers 404", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect((await call(sim, "DELETE", `${P}/products/${parent.id}`)).status).toBe(204);
    expectError(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] }),
      404,
      "NOT_FOUND",
    );
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
  });

  it("another store's parent answers 404 and the other store gains no children", async () => {
    const sim = makeSim();
    const created = await call(sim, "POST", "/other/v1/products", {
      body: {
        name: "Other Parent",
        retail_price: 1000,
        has_variants: true,
        variant_attributes: [{ name: "Size", position: 1 }],
      },
    });
    expect(created.status).toBe(201);
    const parent = created.json.data;
    expectError(
      await variants(sim, parent.id, { variants: [{ options: [{ attribute_id: attr(parent, "Size"), value: "S" }] }] }),
      404,
      "NOT_FOUND",
    );
    expect((await allProducts(sim, "other")).filter((p) => p.variant_parent_id === parent.id)).toHaveLength(0);
  });
});

describe("Spec, Errors: PRODUCT_LIMIT_REACHED 402; choice: children count, a call that would pass the limit is refused whole", () => {
  it("with room for 1 more product, 2 variants answer 402 and none is written; 1 variant is created; then the next answers 402", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const live = (await allProducts(sim)).length;
    sim.patchStore("demo", { product_limit: live + 1 });

    const two = await variants(sim, parent.id, {
      variants: [{ options: opts(parent, "S", "Blue") }, { options: opts(parent, "M", "Blue") }],
    });
    expectError(two, 402, "PRODUCT_LIMIT_REACHED");
    expect(await childrenOf(sim, parent.id)).toHaveLength(0);
    expect((await allProducts(sim)).length).toBe(live);

    const one = await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] });
    expect(one.status).toBe(201);
    expect((await allProducts(sim)).length).toBe(live + 1);

    expectError(
      await variants(sim, parent.id, { variants: [{ options: opts(parent, "M", "Blue") }] }),
      402,
      "PRODUCT_LIMIT_REACHED",
    );
    expect(await childrenOf(sim, parent.id)).toHaveLength(1);
  });

  it("a call that fills the limit exactly is accepted", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const live = (await allProducts(sim)).length;
    sim.patchStore("demo", { product_limit: live + 3 });
    const reply = await variants(sim, parent.id, {
      variants: [
        { options: opts(parent, "S", "Blue") },
        { options: opts(parent, "M", "Blue") },
        { options: opts(parent, "L", "Blue") },
      ],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toHaveLength(3);
    expectError(
      await call(sim, "POST", `${P}/products`, { body: { name: "One too many", retail_price: 100 } }),
      402,
      "PRODUCT_LIMIT_REACHED",
    );
  });
});

describe("Spec, Product write rules 5: variant_attributes change only while there are no live children; the same content is accepted", () => {
  const SAME = [
    { name: "Size", position: 1 },
    { name: "Colour", position: 2 },
  ];

  it("before any child, the attributes can change (200)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, {
      body: {
        variant_attributes: [
          { name: "Size", position: 1 },
          { name: "Fit", position: 2 },
        ],
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.variant_attributes).toStrictEqual([
      { id: attr(parent, "Size"), name: "Size", position: 1 },
      { id: uuid, name: "Fit", position: 2 },
    ]);
    expect(BigInt(reply.json.data.version)).toBeGreaterThan(BigInt(parent.version));
  });

  const changes: [string, unknown[]][] = [
    [
      "renaming an attribute",
      [
        { name: "Size", position: 1 },
        { name: "Color", position: 2 },
      ],
    ],
    ["adding a third attribute", [...SAME, { name: "Fit", position: 3 }]],
    ["removing an attribute", [{ name: "Size", position: 1 }]],
    ["clearing the attributes with []", []],
    [
      "swapping positions",
      [
        { name: "Colour", position: 1 },
        { name: "Size", position: 2 },
      ],
    ],
  ];
  for (const [label, attributes] of changes) {
    it(`after a child is created, ${label} answers 409 CONFLICT and changes nothing`, async () => {
      const sim = makeSim();
      const parent = await makeParent(sim);
      expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
      const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, {
        body: { variant_attributes: attributes },
      });
      expectError(reply, 409, "CONFLICT", "any");
      expect((await call(sim, "GET", `${P}/products/${parent.id}`)).json.data).toStrictEqual(parent);
    });
  }

  it("a change refused with 409 also saves the rest of the write nowhere (rule 4, atomic)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
    const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, {
      body: { name: "Renamed", variant_attributes: [{ name: "Size", position: 1 }] },
    });
    expectError(reply, 409, "CONFLICT", "any");
    expect((await call(sim, "GET", `${P}/products/${parent.id}`)).json.data.name).toBe("Linen Shirt");
  });

  it("after a child is created, re-sending exactly the same attributes answers 200 (and, choice, keeps the version)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
    const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, { body: { variant_attributes: SAME } });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(parent);
  });

  it("after a child is created, the same attributes with another change of the product answer 200", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect((await variants(sim, parent.id, { variants: [{ options: opts(parent, "S", "Blue") }] })).status).toBe(201);
    const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, {
      body: { name: "Linen Shirt II", variant_attributes: SAME },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.name).toBe("Linen Shirt II");
    expect(reply.json.data.variant_attributes).toStrictEqual(parent.variant_attributes);
  });

  it("Spec, Product write rules 2: TEE-CLASSIC's read document sent straight back is accepted (200) although it has children", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const reply = await call(sim, "PATCH", `${P}/products/${tee.id}`, { body: tee });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(tee);
  });

  it("on TEE-CLASSIC (live children), renaming Colour answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const reply = await call(sim, "PATCH", `${P}/products/${tee.id}`, {
      body: {
        variant_attributes: [
          { name: "Size", position: 1 },
          { name: "Color", position: 2 },
        ],
      },
    });
    expectError(reply, 409, "CONFLICT", "any");
  });

  it("once every child is deleted (no live children), the attributes can change again", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const created = await variants(sim, parent.id, {
      variants: [{ options: opts(parent, "S", "Blue") }, { options: opts(parent, "M", "Blue") }],
    });
    expect(created.status).toBe(201);
    for (const child of created.json.data)
      expect((await call(sim, "DELETE", `${P}/products/${child.id}`)).status).toBe(204);
    const reply = await call(sim, "PATCH", `${P}/products/${parent.id}`, {
      body: { variant_attributes: [{ name: "Size", position: 1 }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.variant_attributes).toStrictEqual([{ id: attr(parent, "Size"), name: "Size", position: 1 }]);
  });

  it("Choice: has_variants false while live children exist answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    expectError(
      await call(sim, "PATCH", `${P}/products/${tee.id}`, { body: { has_variants: false } }),
      409,
      "CONFLICT",
      "any",
    );
    expect((await call(sim, "GET", `${P}/products/${tee.id}`)).json.data).toStrictEqual(tee);
  });

  it("Choice: has_variants false with variant_attributes [] while live children exist answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    expectError(
      await call(sim, "PATCH", `${P}/products/${tee.id}`, { body: { has_variants: false, variant_attributes: [] } }),
      409,
      "CONFLICT",
      "any",
    );
    expect((await call(sim, "GET", `${P}/products/${tee.id}`)).json.data).toStrictEqual(tee);
  });
});

describe("Spec, Limits (idempotency): POST /products/{id}/variants takes an optional Idempotency-Key", () => {
  it("a retry with the same key and body returns the same 201 and children with Idempotent-Replayed: true, and writes nothing more", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const body = { variants: [{ options: opts(parent, "S", "Blue") }, { options: opts(parent, "M", "Blue") }] };
    const first = await variants(sim, parent.id, body, { "idempotency-key": "variants-1" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await variants(sim, parent.id, body, { "idempotency-key": "variants-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toStrictEqual(first.json);
    expect((await childrenOf(sim, parent.id)).map((c) => c.id).sort()).toEqual(
      first.json.data.map((c: Product) => c.id).sort(),
    );
  });

  it("without a key, the same body sent twice answers 409 CONFLICT the second time (the combinations exist)", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    const body = { variants: [{ options: opts(parent, "S", "Blue") }] };
    expect((await variants(sim, parent.id, body)).status).toBe(201);
    expectError(await variants(sim, parent.id, body), 409, "CONFLICT", "any");
  });

  it("the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED and writes nothing", async () => {
    const sim = makeSim();
    const parent = await makeParent(sim);
    expect(
      (
        await variants(
          sim,
          parent.id,
          { variants: [{ options: opts(parent, "S", "Blue") }] },
          { "idempotency-key": "variants-2" },
        )
      ).status,
    ).toBe(201);
    const reused = await variants(
      sim,
      parent.id,
      { variants: [{ options: opts(parent, "M", "Blue") }] },
      { "idempotency-key": "variants-2" },
    );
    expectError(reused, 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await childrenOf(sim, parent.id)).toHaveLength(1);
  });

  it("a client error replays the same failure: a 409 under a key is replayed even after the conflict is gone", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const body = { variants: [{ options: opts(tee, "S", "Navy") }] };
    const first = await variants(sim, tee.id, body, { "idempotency-key": "variants-3" });
    expectError(first, 409, "CONFLICT", "any");
    const old = await bySku(sim, "TEE-CLASSIC-S-NAVY");
    expect((await call(sim, "DELETE", `${P}/products/${old.id}`)).status).toBe(204);
    const again = await variants(sim, tee.id, body, { "idempotency-key": "variants-3" });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toStrictEqual(first.json);
    expect(await childrenOf(sim, tee.id)).toHaveLength(3);
  });
});

describe("Spec, Authentication (scopes): POST variants needs catalog:write", () => {
  it("a catalog:read key answers 403 INSUFFICIENT_SCOPE and nothing is created", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const reply = await call(sim, "POST", `${P}/products/${tee.id}/variants`, {
      key: "catalog:read",
      body: { variants: [{ options: opts(tee, "XL", "Navy") }] },
    });
    expectError(reply, 403, "INSUFFICIENT_SCOPE");
    expect(await childrenOf(sim, tee.id)).toHaveLength(4);
  });
});
