// Tests of a product's collections against the spec (retail-api-v1.md): "Limits" (product collections: codes,
// tags, suppliers, components, variant attributes), "Product write rules" 3 (six code types) and 8 (unknown
// references), and "Errors" (UNPROCESSABLE, VALIDATION_FAILED); plus the recorded choices of
// docs/spec-choices.md ("Catalog": unknown references, repeated identities).
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  P,
  UUID,
  UNKNOWN,
  CODE_TYPES,
  bySku,
  idsByName,
  heldCursor,
  expectNothingWritten,
  create,
} from "../../test-support/products.js";

describe("Limits (product collections) and Errors: caps answer 422 UNPROCESSABLE; variant attributes 400", () => {
  it("6 codes (one per type) are accepted", async () => {
    const sim = makeSim();
    const six = await create(sim, {
      name: "Six codes",
      retail_price: 100,
      codes: CODE_TYPES.map((type, i) => ({ type, code: `C${i}` })),
    });
    expect([...six.codes].map((c) => c.type).sort()).toEqual([...CODE_TYPES].sort());
  });

  it("11 codes (over the cap of 10) answer 422 UNPROCESSABLE and nothing is written", async () => {
    const sim = makeSim();
    // Limits: at most 10 codes; Errors: "cap exceeded (codes, ...)" is 422 UNPROCESSABLE. With six code types, 11 codes
    // necessarily repeat a type, which the choices make a 400; the spec's cap is the rule this body breaks first.
    const types = CODE_TYPES;
    const cursor = await heldCursor(sim);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ type: types[i % 6], code: `X${i}` }));
    expectError(
      await call(sim, "POST", P, { body: { name: "Eleven codes", retail_price: 100, codes: eleven } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("20 tags are accepted; 21 tags answer 422 UNPROCESSABLE and nothing is written", async () => {
    const sim = makeSim();
    for (let i = 0; i < 17; i++)
      expect((await call(sim, "POST", "/demo/v1/tags", { body: { name: `Tag ${i}` } })).status).toBe(201);
    const tagIds = Object.values(await idsByName(sim, "tags"));
    expect(tagIds).toHaveLength(21);
    const twenty = await create(sim, {
      name: "Twenty tags",
      retail_price: 100,
      tags: tagIds.slice(0, 20).map((id) => ({ id })),
    });
    expect(twenty.tags).toHaveLength(20);
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { name: "21 tags", retail_price: 100, tags: tagIds.map((id) => ({ id })) } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("10 suppliers are accepted; 11 suppliers answer 422 UNPROCESSABLE and nothing is written", async () => {
    const sim = makeSim();
    for (let i = 0; i < 8; i++)
      expect((await call(sim, "POST", "/demo/v1/suppliers", { body: { name: `Supplier ${i}` } })).status).toBe(201);
    const supplierIds = Object.values(await idsByName(sim, "suppliers"));
    expect(supplierIds).toHaveLength(11);
    const links = supplierIds.map((supplier_id, i) => ({ supplier_id, is_primary: i === 0, supplier_code: `S${i}` }));
    const ten = await create(sim, { name: "Ten suppliers", retail_price: 100, suppliers: links.slice(0, 10) });
    expect(ten.suppliers).toHaveLength(10);
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { name: "11 suppliers", retail_price: 100, suppliers: links } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("50 components are accepted; 51 components answer 422 UNPROCESSABLE and nothing is written", async () => {
    const sim = makeSim();
    const parts: string[] = [];
    for (let i = 0; i < 51; i++) parts.push((await create(sim, { name: `Part ${i}`, retail_price: 10 })).id);
    const fifty = await create(sim, {
      name: "Fifty parts",
      retail_price: 100,
      components: parts.slice(0, 50).map((product_id) => ({ product_id, quantity: 1 })),
    });
    expect(fifty.components).toHaveLength(50);
    expect(fifty.is_composite).toBe(true);
    const cursor = await heldCursor(sim);
    const all = parts.map((product_id) => ({ product_id, quantity: 1 }));
    expectError(
      await call(sim, "POST", P, { body: { name: "51 parts", retail_price: 100, components: all } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("Errors, cap exceptions: 3 variant attributes are accepted; 4, or a position 0 or 4, answer 400 VALIDATION_FAILED", async () => {
    const sim = makeSim();
    const three = await create(sim, {
      name: "Three axes",
      retail_price: 100,
      has_variants: true,
      variant_attributes: [
        { name: "Size", position: 1 },
        { name: "Colour", position: 2 },
        { name: "Fit", position: 3 },
      ],
    });
    expect([...three.variant_attributes].sort((a, b) => a.position - b.position)).toStrictEqual([
      { id: expect.stringMatching(UUID), name: "Size", position: 1 },
      { id: expect.stringMatching(UUID), name: "Colour", position: 2 },
      { id: expect.stringMatching(UUID), name: "Fit", position: 3 },
    ]);
    const cursor = await heldCursor(sim);
    const four = [1, 2, 3, 4].map((position) => ({ name: `A${position}`, position }));
    expectError(
      await call(sim, "POST", P, {
        body: { name: "Four", retail_price: 100, has_variants: true, variant_attributes: four },
      }),
      400,
      "VALIDATION_FAILED",
      "any",
    );
    for (const position of [0, 4]) {
      const body = {
        name: `Position ${position}`,
        retail_price: 100,
        has_variants: true,
        variant_attributes: [{ name: "Size", position }],
      };
      expectError(await call(sim, "POST", P, { body }), 400, "VALIDATION_FAILED", "any");
    }
    await expectNothingWritten(sim, cursor);
  });
});

describe("Write rule 8 and Errors (UNPROCESSABLE: referenced thing not found): unknown references", () => {
  it("an unknown tag id answers 400 VALIDATION_FAILED; nothing is written", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const cursor = await heldCursor(sim);
    const body = { name: "Tagged", retail_price: 100, tags: [{ id: tags["Summer"] }, { id: UNKNOWN }] };
    expectError(await call(sim, "POST", P, { body }), 400, "VALIDATION_FAILED", "any");
    await expectNothingWritten(sim, cursor);
  });

  it("an unknown brand, category, supplier or component product answers 422 UNPROCESSABLE; nothing is written", async () => {
    const sim = makeSim();
    const cursor = await heldCursor(sim);
    const bodies = [
      { brand_id: UNKNOWN },
      { category_id: UNKNOWN },
      { suppliers: [{ supplier_id: UNKNOWN, is_primary: true, supplier_code: "X" }] },
      { components: [{ product_id: UNKNOWN, quantity: 1 }] },
    ];
    for (const extra of bodies)
      expectError(
        await call(sim, "POST", P, { body: { name: "Refs", retail_price: 100, ...extra } }),
        422,
        "UNPROCESSABLE",
        "any",
      );
    await expectNothingWritten(sim, cursor);
  });

  it("Choices (repeated identities): a repeated code (type and value), tag, supplier, component or attribute position, or two primary suppliers, answer 400", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const suppliers = await idsByName(sim, "suppliers");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const cursor = await heldCursor(sim);
    const cases: [Record<string, unknown>, string][] = [
      [
        {
          codes: [
            { type: "ean", code: "1" },
            { type: "ean", code: "1" },
          ],
        },
        "codes.1",
      ],
      [{ tags: [{ id: tags["New"] }, { id: tags["New"] }] }, "tags.1"],
      [
        {
          suppliers: [
            { supplier_id: suppliers["Acme Wholesale"], is_primary: true, supplier_code: "A" },
            { supplier_id: suppliers["Acme Wholesale"], is_primary: false, supplier_code: "B" },
          ],
        },
        "suppliers.1",
      ],
      [
        {
          components: [
            { product_id: bottle.id, quantity: 1 },
            { product_id: bottle.id, quantity: 2 },
          ],
        },
        "components.1",
      ],
      [
        {
          has_variants: true,
          variant_attributes: [
            { name: "Size", position: 1 },
            { name: "Colour", position: 1 },
          ],
        },
        "variant_attributes.1",
      ],
    ];
    for (const [extra, field] of cases)
      expectError(
        await call(sim, "POST", P, { body: { name: "Repeat", retail_price: 100, ...extra } }),
        400,
        "VALIDATION_FAILED",
        field,
      );
    const twoPrimaries = [
      { supplier_id: suppliers["Acme Wholesale"], is_primary: true, supplier_code: "A" },
      { supplier_id: suppliers["Pacific Textiles"], is_primary: true, supplier_code: "P" },
    ];
    expectError(
      await call(sim, "POST", P, { body: { name: "Two primaries", retail_price: 100, suppliers: twoPrimaries } }),
      400,
      "VALIDATION_FAILED",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });
});

describe("Write rule 3 and Limits (10 codes, six code types): several codes may share a type", () => {
  it("two EANs are accepted; re-sent, each keeps its id; a changed value keeps the id of the code of its type", async () => {
    const sim = makeSim();
    const made = await create(sim, {
      name: "Two EANs",
      retail_price: 100,
      codes: [
        { type: "ean", code: "111" },
        { type: "ean", code: "222" },
        { type: "upc", code: "333" },
      ],
    });
    expect(made.codes.map((c: { type: string; code: string }) => [c.type, c.code])).toEqual([
      ["ean", "111"],
      ["ean", "222"],
      ["upc", "333"],
    ]);
    const [e1, e2, u] = made.codes;
    const swapped = await call(sim, "PATCH", `${P}/${made.id}`, {
      body: {
        codes: [
          { type: "ean", code: "222" },
          { type: "ean", code: "111" },
          { type: "upc", code: "444" },
        ],
      },
    });
    expect(swapped.status).toBe(200);
    expect(swapped.json.data.codes).toEqual([
      { id: e2.id, type: "ean", code: "222" },
      { id: e1.id, type: "ean", code: "111" },
      { id: u.id, type: "upc", code: "444" },
    ]);
  });

  it("10 codes are accepted and an 11th distinct code answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const codes = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "custom", code: `C${i}` }));
    expect((await call(sim, "POST", P, { body: { name: "Ten", retail_price: 1, codes: codes(10) } })).status).toBe(201);
    expectError(
      await call(sim, "POST", P, { body: { name: "Eleven", retail_price: 1, codes: codes(11) } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });
});
