// Tests of a product's collections against the spec (retail-api-v1.md): "Product write rules" 3 (six code
// types, several codes of a type) and the recorded choices of docs/spec-choices.md ("Catalog": repeated
// identities, codes of one type). The caps (Limits), unknown references and the variant attribute limits are
// checked by the conformance rules of the catalog, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import { P, bySku, idsByName, heldCursor, expectNothingWritten, create } from "../../test-support/products.js";

describe("Choices: repeated identities in one collection answer 400", () => {
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
});
