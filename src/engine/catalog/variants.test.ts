// Tests of POST /products/{id}/variants against the spec: "Product" (has_variants, variant_parent_id,
// variant_options, variant_attributes) and "Product write rules" 9 (create the parent, then add children;
// children are ordinary products afterwards), and the recorded catalog choices (children's given or default
// fields, options in position order, a fixture parent's brand and category copied). A single child's answer
// and copied fields, the parent's kept version and a child updated like any product are checked by the
// conformance rules of the catalog, not here. Refusals: variants-refusals.test.ts; attribute changes:
// variants-attributes.test.ts.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  type Product,
  P,
  bySku,
  childrenOf,
  nameMap,
  attr,
  makeParent,
  opts,
  variants,
  expectValidation,
  expectedChild,
} from "../../test-support/variants.js";

describe("Spec, Product write rules 9: create the parent with has_variants true and its attributes, then add children", () => {
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
