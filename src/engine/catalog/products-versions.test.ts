// Tests of product versions and write consistency against the spec (retail-api-v1.md): "Product write rules"
// 2 (the whole read document of the fixture's products sent back) and 5 (variant_attributes while live
// children exist). Stale versions, rising versions, atomic writes and idempotent creates are checked by the
// conformance rules of the catalog and of idempotency, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import { P, bySku, read } from "../../test-support/products.js";

describe("Write rule 2: a read document can be sent straight back", () => {
  it("Write rule 2: the whole read document sent back (own image URL, code ids, tag and supplier names) changes nothing", async () => {
    const sim = makeSim();
    for (const sku of ["TOTE-CANVAS", "BUNDLE-PICNIC", "TEE-CLASSIC", "TEE-CLASSIC-M-WHITE", "GIFTCARD"]) {
      const doc = await bySku(sim, sku);
      const reply = await call(sim, "PATCH", `${P}/${doc.id}`, { body: doc });
      expect(reply.status, `${sku}: ${reply.text}`).toBe(200);
      expect(reply.json.data).toStrictEqual(doc);
    }
  });
});

describe("Write rule 5: variant_attributes change only while there are no live variant children", () => {
  it("exactly the same content is accepted with 200 and changes nothing (with or without the read ids)", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const same = await call(sim, "PATCH", `${P}/${tee.id}`, {
      body: {
        variant_attributes: [
          { name: "Size", position: 1 },
          { name: "Colour", position: 2 },
        ],
      },
    });
    expect(same.status, same.text).toBe(200);
    expect(same.json.data).toStrictEqual(tee);
    const asRead = await call(sim, "PATCH", `${P}/${tee.id}`, { body: { variant_attributes: tee.variant_attributes } });
    expect(asRead.status, asRead.text).toBe(200);
    expect(asRead.json.data).toStrictEqual(tee);
  });

  it("Choices: has_variants false while live children exist answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    expectError(await call(sim, "PATCH", `${P}/${tee.id}`, { body: { has_variants: false } }), 409, "CONFLICT", "any");
    expect(await read(sim, tee.id)).toStrictEqual(tee);
  });
});

// ---------------------------------------------------------------------------------------------------
