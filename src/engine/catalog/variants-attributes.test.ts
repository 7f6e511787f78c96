// Tests of "Product write rules" 5 against the spec: variant_attributes change only while a product has no
// live variant children; the same content is accepted. A change before any child, a removal with a child and
// the same content re-sent are checked by the conformance rules of the catalog, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import { P, bySku, attr, makeParent, opts, variants } from "../../test-support/variants.js";

describe("Spec, Product write rules 5: variant_attributes change only while there are no live children; the same content is accepted", () => {
  const SAME = [
    { name: "Size", position: 1 },
    { name: "Colour", position: 2 },
  ];

  const changes: [string, unknown[]][] = [
    [
      "renaming an attribute",
      [
        { name: "Size", position: 1 },
        { name: "Color", position: 2 },
      ],
    ],
    ["adding a third attribute", [...SAME, { name: "Fit", position: 3 }]],
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
