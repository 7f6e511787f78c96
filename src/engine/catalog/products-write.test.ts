// Tests of product writes (POST /products, PATCH /products/{id}) against the spec (retail-api-v1.md):
// "Resources and their fields: Product", "Product write rules" 1, 2, 3 (collections) and 8 (product limit),
// "Endpoints" (PATCH is a partial document) and "Errors"; plus the recorded choices of docs/spec-choices.md
// ("Catalog": 201 on create, create defaults, no-op writes). Caps and references: products-collections.test.ts;
// versions, atomicity and idempotency: products-versions.test.ts; images: products-images.test.ts.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  P,
  UUID,
  DECIMAL,
  type Product,
  bySku,
  read,
  idsByName,
  liveCount,
  heldCursor,
  expectNothingWritten,
  newer,
  create,
} from "../../test-support/products.js";

describe("Write rule 1: create needs only name and retail_price (choices: 201, create defaults, generated SKU)", () => {
  it("answers 201 with the full document: defaults, a generated PRD- SKU, Other Products, timestamps of now; GET reads the same", async () => {
    const sim = makeSim();
    const categories = await idsByName(sim, "categories");
    sim.clock.advance(30);
    const reply = await call(sim, "POST", P, { body: { name: "Plain Thing", retail_price: 1299 } });
    expect(reply.status).toBe(201);
    expect(reply.json).toStrictEqual({
      data: {
        id: expect.stringMatching(UUID),
        sku: expect.stringMatching(/^PRD-[A-Z0-9]{8}$/),
        name: "Plain Thing",
        description: null,
        active: true,
        is_gift_card: false,
        has_inventory: true,
        has_variants: false,
        variant_parent_id: null,
        is_composite: false,
        brand_id: null,
        category_id: categories["Other Products"],
        retail_price: 1299,
        loyalty_amount: null,
        sales_account_code: null,
        purchase_account_code: null,
        weight: null,
        length: null,
        width: null,
        height: null,
        weight_unit: null,
        dimension_unit: null,
        image_url: null,
        image_thumb_url: null,
        codes: [],
        tags: [],
        suppliers: [],
        variant_options: [],
        variant_attributes: [],
        components: [],
        created_at: "2026-01-01T00:00:30.000Z",
        updated_at: "2026-01-01T00:00:30.000Z",
        version: expect.stringMatching(DECIMAL),
      },
    });
    expect(await read(sim, reply.json.data.id)).toStrictEqual(reply.json.data);
    expect((await bySku(sim, reply.json.data.sku)).id).toBe(reply.json.data.id);
  });

  it("Write rule 8: a SKU in use answers 409 CONFLICT, also when it differs only in case; nothing is written", async () => {
    const sim = makeSim();
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { sku: "TOTE-CANVAS", name: "Tote 2", retail_price: 100 } }),
      409,
      "CONFLICT",
      "any",
    );
    expectError(
      await call(sim, "POST", P, { body: { sku: "tote-canvas", name: "Tote 3", retail_price: 100 } }),
      409,
      "CONFLICT",
      "any",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("Rule 2 of the service (money is integer cents): a decimal or string retail_price answers 400 VALIDATION_FAILED naming retail_price", async () => {
    const sim = makeSim();
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { name: "Decimal", retail_price: 12.5 } }),
      400,
      "VALIDATION_FAILED",
      "retail_price",
    );
    expectError(
      await call(sim, "POST", P, { body: { name: "Text", retail_price: "1250" } }),
      400,
      "VALIDATION_FAILED",
      "retail_price",
    );
    await expectNothingWritten(sim, cursor);
  });
});

describe("Write rule 2: API-owned fields are accepted and ignored, so a read document can be sent back", () => {
  it("the read document of variant child TEE-CLASSIC-S-NAVY, with a new sku, creates an ordinary product: nothing API-owned is copied", async () => {
    const sim = makeSim();
    const source = await bySku(sim, "TEE-CLASSIC-S-NAVY");
    sim.clock.advance(120);
    const reply = await call(sim, "POST", P, { body: { ...source, sku: "TEE-COPY", is_gift_card: true } });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.json.data as Product;
    expect(made.id).not.toBe(source.id);
    expect(made).toMatchObject({
      sku: "TEE-COPY",
      name: source.name,
      retail_price: source.retail_price,
      brand_id: source.brand_id,
      category_id: source.category_id,
      is_gift_card: false,
      variant_parent_id: null,
      variant_options: [],
      has_variants: false,
      created_at: "2026-01-01T00:02:00.000Z",
      updated_at: "2026-01-01T00:02:00.000Z",
    });
    expect(made.version).not.toBe(source.version);
    expect(newer(made.version, source.version)).toBe(true);
  });

  it("the read document of TOTE-CANVAS (image_url null, since its image address is not https) copies codes, tags and suppliers, not the code ids or the thumb", async () => {
    const sim = makeSim();
    const source = await bySku(sim, "TOTE-CANVAS");
    const reply = await call(sim, "POST", P, { body: { ...source, sku: "TOTE-COPY", image_url: null } });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.json.data as Product;
    expect(made.id).not.toBe(source.id);
    expect(made.image_url).toBeNull();
    expect(made.image_thumb_url).toBeNull();
    const strip = (codes: { type: string; code: string }[]) =>
      codes.map(({ type, code }) => ({ type, code })).sort((a, b) => a.type.localeCompare(b.type));
    expect(strip(made.codes)).toStrictEqual(strip(source.codes));
    for (const code of made.codes) {
      expect(code.id).toMatch(UUID);
      expect(source.codes.map((c: { id: string }) => c.id)).not.toContain(code.id);
    }
    const sortBy = (key: string) => (a: any, b: any) => String(a[key]).localeCompare(String(b[key]));
    expect([...made.tags].sort(sortBy("id"))).toStrictEqual([...source.tags].sort(sortBy("id")));
    expect([...made.suppliers].sort(sortBy("supplier_id"))).toStrictEqual(
      [...source.suppliers].sort(sortBy("supplier_id")),
    );
  });

  it("Choices (is_composite derived): the BUNDLE-PICNIC document copied with is_composite false is a composite; is_composite true without components is not", async () => {
    const sim = makeSim();
    const source = await bySku(sim, "BUNDLE-PICNIC");
    const copy = await create(sim, { ...source, sku: "BUNDLE-COPY", is_composite: false });
    expect(copy.is_composite).toBe(true);
    expect(copy.components).toStrictEqual(source.components);
    const plain = await create(sim, { name: "Not a bundle", retail_price: 100, is_composite: true });
    expect(plain.is_composite).toBe(false);
  });
});

describe("Write rule 8: a store at its product limit answers 402 PRODUCT_LIMIT_REACHED", () => {
  it("at the limit (limit = the live products) a create is refused and nothing is written", async () => {
    const sim = makeSim();
    const live = await liveCount(sim);
    sim.patchStore("demo", { product_limit: live });
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { name: "Over", retail_price: 100 } }),
      402,
      "PRODUCT_LIMIT_REACHED",
    );
    await expectNothingWritten(sim, cursor);
    expect(await liveCount(sim)).toBe(live);
  });

  it("with room for one, the first create succeeds and the second is refused; a delete makes room again (choice: live products count)", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { product_limit: (await liveCount(sim)) + 1 });
    const made = await create(sim, { name: "Last one", retail_price: 100 });
    expectError(
      await call(sim, "POST", P, { body: { name: "One too many", retail_price: 100 } }),
      402,
      "PRODUCT_LIMIT_REACHED",
    );
    expect((await call(sim, "DELETE", `${P}/${made.id}`)).status).toBe(204);
    await create(sim, { name: "Fits again", retail_price: 100 });
  });

  it("updates are not creates: a PATCH at the limit works", async () => {
    const sim = makeSim();
    sim.patchStore("demo", { product_limit: await liveCount(sim) });
    const tote = await bySku(sim, "TOTE-CANVAS");
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Tote at limit" } });
    expect(reply.status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------------------

describe("Endpoints, PATCH /products/{id}: a partial document; Product table: sku is ignored in an update", () => {
  it("changes only the fields sent: 200 with the document; version and updated_at move, nothing else", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    sim.clock.advance(45);
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { name: "Canvas Tote XL", retail_price: 4100, weight: 0.75, weight_unit: "kg" },
    });
    expect(reply.status).toBe(200);
    const after = reply.json.data as Product;
    expect(after).toStrictEqual({
      ...tote,
      name: "Canvas Tote XL",
      retail_price: 4100,
      weight: 0.75,
      weight_unit: "kg",
      updated_at: "2026-01-01T00:00:45.000Z",
      version: expect.stringMatching(DECIMAL),
    });
    expect(newer(after.version, tote.version)).toBe(true);
    expect(await read(sim, tote.id)).toStrictEqual(after);
  });

  it("a sku sent in an update is ignored: the SKU stays, even when the sent one belongs to another product", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const renamed = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { sku: "NEW-SKU", name: "Renamed Tote" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toMatchObject({ sku: "TOTE-CANVAS", name: "Renamed Tote" });
    const taken = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { sku: "BOTTLE-STEEL" } });
    expect(taken.status).toBe(200);
    expect(taken.json.data.sku).toBe("TOTE-CANVAS");
    expect(taken.json.data.version).toBe(renamed.json.data.version);
    const none = await call(sim, "GET", `${P}?sku=NEW-SKU`);
    expect(none.json.data).toEqual([]);
  });
});

describe("Write rule 3: collections — key left out untouched, an array replaces, [] clears", () => {
  it("re-sent codes keep their id when matched by type (a changed code value too); a new type gets a new id", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const idOf = (p: Product, type: string) => p.codes.find((c: { type: string }) => c.type === type)?.id;
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: {
        codes: [
          { type: "custom", code: "TOTE01" },
          { type: "ean", code: "9780201379624" },
          { type: "upc", code: "036000291452" },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const after = reply.json.data as Product;
    expect(after.codes).toHaveLength(3);
    expect(idOf(after, "custom")).toBe(idOf(tote, "custom"));
    expect(idOf(after, "ean")).toBe(idOf(tote, "ean"));
    expect(after.codes.find((c: { type: string }) => c.type === "ean").code).toBe("9780201379624");
    expect(idOf(after, "upc")).toMatch(UUID);
    expect([idOf(tote, "custom"), idOf(tote, "ean")]).not.toContain(idOf(after, "upc"));
    // The read rows sent back as they are (with ids) keep everything.
    const again = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { codes: after.codes } });
    expect(again.status).toBe(200);
    expect(again.json.data.codes).toStrictEqual(after.codes);
    expect(again.json.data.version).toBe(after.version);
  });

  it("re-sent variant attributes keep their id by position (renamed too); a new position gets a new id; left-out positions go", async () => {
    const sim = makeSim();
    const parent = await create(sim, {
      name: "Hoodie",
      retail_price: 5000,
      has_variants: true,
      variant_attributes: [
        { name: "Size", position: 1 },
        { name: "Colour", position: 2 },
      ],
    });
    const idAt = (p: Product, position: number) =>
      p.variant_attributes.find((a: { position: number }) => a.position === position)?.id;
    const grown = await call(sim, "PATCH", `${P}/${parent.id}`, {
      body: {
        variant_attributes: [
          { name: "Sizing", position: 1 },
          { name: "Colour", position: 2 },
          { name: "Fit", position: 3 },
        ],
      },
    });
    expect(grown.status).toBe(200);
    const g = grown.json.data as Product;
    expect(idAt(g, 1)).toBe(idAt(parent, 1));
    expect(idAt(g, 2)).toBe(idAt(parent, 2));
    expect(idAt(g, 3)).toMatch(UUID);
    expect([idAt(parent, 1), idAt(parent, 2)]).not.toContain(idAt(g, 3));
    expect(g.variant_attributes.find((a: { position: number }) => a.position === 1).name).toBe("Sizing");
    const shrunk = await call(sim, "PATCH", `${P}/${parent.id}`, {
      body: { variant_attributes: [{ name: "Colour", position: 2 }] },
    });
    expect(shrunk.status).toBe(200);
    expect(shrunk.json.data.variant_attributes).toStrictEqual([{ id: idAt(parent, 2), name: "Colour", position: 2 }]);
  });
});

describe("Write rules and Endpoints: a write answers the document a read then answers, byte for byte", () => {
  it("POST and PATCH answer the exact bytes GET /products/{id} answers right after, and what JSON.stringify writes of the document", async () => {
    const sim = makeSim();
    const made = await call(sim, "POST", P, { body: { name: "Café ☕ “bytes”", retail_price: 1299 } });
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    const read1 = await call(sim, "GET", `${P}/${id}`);
    expect(read1.text).toBe(made.text);
    expect(made.text).toBe(JSON.stringify(made.json));
    const patched = await call(sim, "PATCH", `${P}/${id}`, {
      body: { name: "Renamed", version: made.json.data.version },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.data.name).toBe("Renamed");
    const read2 = await call(sim, "GET", `${P}/${id}`);
    expect(read2.text).toBe(patched.text);
    expect(patched.text).toBe(JSON.stringify(patched.json));
  });
});
