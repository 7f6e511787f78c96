// Tests of refused variant requests against the spec: "Product write rules" 8 and 9 (SKU in use, existing
// combinations), "Errors" (CONFLICT, NOT_FOUND, UNPROCESSABLE, PRODUCT_LIMIT_REACHED, VALIDATION_FAILED with
// dotted field names), "Limits" (1 to 200 variants per request; idempotency), "Authentication" (scopes),
// and the recorded catalog choices (variant validation, case-insensitive combinations, all or nothing).
// The variant counts, an existing combination or live SKU (all or nothing), a non-UUID parent and a replayed
// call are checked by the conformance rules of the catalog, of the envelope and of idempotency, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  UNKNOWN_ID,
  type Product,
  P,
  bySku,
  allProducts,
  childrenOf,
  attr,
  makeParent,
  opts,
  variants,
  expectValidation,
} from "../../test-support/variants.js";

describe("Spec, Endpoints and Limits: 1 to 200 variants per request; otherwise 400 VALIDATION_FAILED", () => {
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

describe("Spec, Limits (idempotency): POST /products/{id}/variants takes an optional Idempotency-Key", () => {
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
