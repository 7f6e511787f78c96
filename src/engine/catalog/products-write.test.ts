// Tests of product writes (POST /products, PATCH /products/{id}) against the spec (retail-api-v1.md):
// "Resources and their fields: Product", "Product write rules" 1–8, "Errors", "Limits" (product
// collections, product writes with image_url, concurrent image downloads, idempotency) and
// "Pagination and polling rules" 1; plus the recorded choices of docs/spec-choices.md ("Catalog" and
// "Images": 201 on create, unknown references, repeated identities, no-op writes, image URLs, the
// /_sim/images outcomes). Expectations come from those texts; the fixture is scenarios/fixtures/demo-catalog.ts.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, ORIGIN } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";

const P = "/demo/v1/products";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const IMAGE = /^http:\/\/sim\.test\/images\/([0-9a-f-]{36})\/original\.png$/;
const UNKNOWN = "00000000-0000-4000-8000-00000000abcd";
const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"];

type Product = Record<string, any> & { id: string; sku: string; version: string };

async function bySku(sim: Simulator, sku: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `?sku=${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

async function read(sim: Simulator, id: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}/${id}`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

async function idsByName(sim: Simulator, list: string): Promise<Record<string, string>> {
  const reply = await call(sim, "GET", `/demo/v1/${list}?limit=200`);
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.json.data as { id: string; name: string }[]).map((r) => [r.name, r.id]));
}

async function listAll(sim: Simulator): Promise<Product[]> {
  const reply = await call(sim, "GET", `${P}?limit=200&include_deleted=true`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

async function liveCount(sim: Simulator): Promise<number> {
  const reply = await call(sim, "GET", `${P}?limit=200`);
  expect(reply.status).toBe(200);
  expect(reply.json.has_more).toBe(false);
  return reply.json.data.length;
}

/** The cursor after the latest change of the product feed (deleted rows included). */
async function heldCursor(sim: Simulator): Promise<string> {
  const reply = await call(sim, "GET", `${P}?limit=200&include_deleted=true`);
  expect(reply.status).toBe(200);
  expect(typeof reply.json.next_cursor).toBe("string");
  return reply.json.next_cursor;
}

/** Nothing was written since `cursor`: the feed (with tombstones) has no row after it. */
async function expectNothingWritten(sim: Simulator, cursor: string): Promise<void> {
  const reply = await call(sim, "GET", `${P}?include_deleted=true&cursor=${cursor}`);
  expect(reply.status).toBe(200);
  expect(reply.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
}

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

async function setImage(sim: Simulator, url: string, outcome: "ok" | "fail" | "busy"): Promise<void> {
  const res = await sim.fetch(`${ORIGIN}/_sim/images`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, outcome }),
  });
  expect(res.status).toBe(200);
}

async function create(sim: Simulator, body: Record<string, unknown>): Promise<Product> {
  const reply = await call(sim, "POST", P, { body });
  expect(reply.status, reply.text).toBe(201);
  return reply.json.data;
}

// ---------------------------------------------------------------------------------------------------

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

  it("Product table, sku: left out, each create gets its own PRD- SKU; a given SKU is kept", async () => {
    const sim = makeSim();
    const a = await create(sim, { name: "A", retail_price: 100 });
    const b = await create(sim, { name: "B", retail_price: 100 });
    expect(a.sku).toMatch(/^PRD-/);
    expect(b.sku).toMatch(/^PRD-/);
    expect(a.sku).not.toBe(b.sku);
    const c = await create(sim, { sku: "LAMP-DESK", name: "Desk Lamp", retail_price: 4500 });
    expect(c.sku).toBe("LAMP-DESK");
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

  it("Write rule 1 / Product table (required on create): without name or retail_price, 400 VALIDATION_FAILED naming it", async () => {
    const sim = makeSim();
    expectError(await call(sim, "POST", P, { body: { retail_price: 100 } }), 400, "VALIDATION_FAILED", "name");
    expectError(await call(sim, "POST", P, { body: { name: "No price" } }), 400, "VALIDATION_FAILED", "retail_price");
  });

  it("Resources (no resource accepts unknown properties): an unknown property answers 400 VALIDATION_FAILED naming it", async () => {
    const sim = makeSim();
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, { body: { name: "Red", retail_price: 100, colour: "red" } }),
      400,
      "VALIDATION_FAILED",
      "colour",
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

  it("Resources: an unknown property in an update answers 400 VALIDATION_FAILED and nothing changes", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    expectError(
      await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "X", colour: "red" } }),
      400,
      "VALIDATION_FAILED",
      "colour",
    );
    expect(await read(sim, tote.id)).toStrictEqual(tote);
  });
});

describe("Write rule 3: collections — key left out untouched, an array replaces, [] clears", () => {
  it("a PATCH without collection keys leaves codes, tags, suppliers and components as they were", async () => {
    const sim = makeSim();
    const bundle = await bySku(sim, "BUNDLE-PICNIC");
    const tote = await bySku(sim, "TOTE-CANVAS");
    const b = (await call(sim, "PATCH", `${P}/${bundle.id}`, { body: { description: "Changed" } })).json.data;
    const t = (await call(sim, "PATCH", `${P}/${tote.id}`, { body: { description: "Changed" } })).json.data;
    expect(b.components).toStrictEqual(bundle.components);
    expect(b.tags).toStrictEqual(bundle.tags);
    expect(t.codes).toStrictEqual(tote.codes);
    expect(t.tags).toStrictEqual(tote.tags);
    expect(t.suppliers).toStrictEqual(tote.suppliers);
  });

  it("an array replaces the tags, the suppliers and the components", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const suppliers = await idsByName(sim, "suppliers");
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const bundle = await bySku(sim, "BUNDLE-PICNIC");
    const t = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: {
        tags: [{ id: tags["New"] }],
        suppliers: [{ supplier_id: suppliers["Harbour Distribution"], is_primary: true, supplier_code: "HD-9" }],
      },
    });
    expect(t.status).toBe(200);
    expect(t.json.data.tags).toStrictEqual([{ id: tags["New"], name: "New" }]);
    expect(t.json.data.suppliers).toStrictEqual([
      {
        supplier_id: suppliers["Harbour Distribution"],
        is_primary: true,
        supplier_code: "HD-9",
        supplier_name: "Harbour Distribution",
      },
    ]);
    const b = await call(sim, "PATCH", `${P}/${bundle.id}`, {
      body: { components: [{ product_id: bottle.id, quantity: 3 }] },
    });
    expect(b.status).toBe(200);
    expect(b.json.data.components).toStrictEqual([{ product_id: bottle.id, quantity: 3 }]);
    expect(b.json.data.is_composite).toBe(true);
  });

  it("[] clears codes, tags, suppliers and components (is_composite becomes false)", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bundle = await bySku(sim, "BUNDLE-PICNIC");
    const t = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { codes: [], tags: [], suppliers: [] } });
    expect(t.status).toBe(200);
    expect(t.json.data).toMatchObject({ codes: [], tags: [], suppliers: [] });
    const b = await call(sim, "PATCH", `${P}/${bundle.id}`, { body: { components: [] } });
    expect(b.status).toBe(200);
    expect(b.json.data).toMatchObject({ components: [], is_composite: false });
  });

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

describe("Write rule 6: version / expected_version", () => {
  it("a stale version answers 409 STALE_VERSION and nothing changes; so does a stale expected_version", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const changed = (await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "First" } })).json.data as Product;
    expectError(
      await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Second", version: tote.version } }),
      409,
      "STALE_VERSION",
    );
    expectError(
      await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Third", expected_version: tote.version } }),
      409,
      "STALE_VERSION",
    );
    expect(await read(sim, tote.id)).toStrictEqual(changed);
  });

  it("the current version (as version, expected_version or both agreeing) is accepted with 200", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const a = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "A", version: tote.version } });
    expect(a.status).toBe(200);
    const b = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { name: "B", expected_version: a.json.data.version },
    });
    expect(b.status).toBe(200);
    const c = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { name: "C", version: b.json.data.version, expected_version: b.json.data.version },
    });
    expect(c.status).toBe(200);
    expect(c.json.data.name).toBe("C");
  });

  it("both sent and disagreeing answers 400 VALIDATION_FAILED naming expected_version (choice), and nothing changes", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const changed = (await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "First" } })).json.data as Product;
    const body = { name: "Second", version: changed.version, expected_version: tote.version };
    expectError(await call(sim, "PATCH", `${P}/${tote.id}`, { body }), 400, "VALIDATION_FAILED", "expected_version");
    expect(await read(sim, tote.id)).toStrictEqual(changed);
  });
});

describe("Resources (version increases with every change) and Pagination rule 1 (oldest change first)", () => {
  it("Choices (a write that changes nothing): a no-op PATCH answers 200 and keeps version and updated_at", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const cursor = await heldCursor(sim);
    sim.clock.advance(300);
    for (const body of [
      {},
      { name: "Canvas Tote" },
      { retail_price: tote.retail_price, tags: tote.tags.map((t: { id: string }) => ({ id: t.id })) },
    ]) {
      const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body });
      expect(reply.status).toBe(200);
      expect(reply.json.data).toStrictEqual(tote);
    }
    await expectNothingWritten(sim, cursor);
  });

  it("Write rule 2: the whole read document sent back (own image URL, code ids, tag and supplier names) changes nothing", async () => {
    const sim = makeSim();
    for (const sku of ["TOTE-CANVAS", "BUNDLE-PICNIC", "TEE-CLASSIC", "TEE-CLASSIC-M-WHITE", "GIFTCARD"]) {
      const doc = await bySku(sim, sku);
      const reply = await call(sim, "PATCH", `${P}/${doc.id}`, { body: doc });
      expect(reply.status, `${sku}: ${reply.text}`).toBe(200);
      expect(reply.json.data).toStrictEqual(doc);
    }
  });

  it("every change raises the version (as a big integer) and moves the product to the end of the list feed", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const tote = await bySku(sim, "TOTE-CANVAS");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    let last = tote.version;
    const changes: Record<string, unknown>[] = [
      { name: "Tote v2" },
      { tags: [{ id: tags["Sale"] }] },
      { codes: [{ type: "ean", code: "4006381333931" }] },
      { codes: [{ type: "ean", code: "4006381333948" }] },
      { active: false },
      { components: [{ product_id: bottle.id, quantity: 1 }] },
      { description: null },
    ];
    for (const body of changes) {
      const cursor = await heldCursor(sim);
      const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body });
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(newer(reply.json.data.version, last), JSON.stringify(body)).toBe(true);
      last = reply.json.data.version;
      const list = await listAll(sim);
      expect(list[list.length - 1]!.id).toBe(tote.id);
      const polled = await call(sim, "GET", `${P}?cursor=${cursor}`);
      expect(polled.json.data).toStrictEqual([reply.json.data]);
    }
  });

  it("Product table, version: renaming an attached tag gives the product a new version and moves it in the feed", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const bottle = await bySku(sim, "BOTTLE-STEEL");
    const renamed = await call(sim, "PATCH", `/demo/v1/tags/${tags["New"]}`, { body: { name: "Fresh" } });
    expect(renamed.status).toBe(200);
    const after = await read(sim, bottle.id);
    expect(after.tags).toStrictEqual([{ id: tags["New"], name: "Fresh" }]);
    expect(newer(after.version, bottle.version)).toBe(true);
  });
});

describe("Write rule 4: a whole write is atomic", () => {
  it("a PATCH with one invalid entry changes nothing: document, version and feed stay", async () => {
    const sim = makeSim();
    const tags = await idsByName(sim, "tags");
    const tote = await bySku(sim, "TOTE-CANVAS");
    const cursor = await heldCursor(sim);
    const bad: [Record<string, unknown>, number, string][] = [
      [{ name: "X", tags: [{ id: tags["Sale"] }, { id: UNKNOWN }] }, 400, "VALIDATION_FAILED"],
      [{ name: "X", codes: [{ type: "upc", code: "1" }], brand_id: UNKNOWN }, 422, "UNPROCESSABLE"],
      [{ name: "X", tags: [], retail_price: 19.99 }, 400, "VALIDATION_FAILED"],
      [
        {
          name: "X",
          codes: [
            { type: "upc", code: "1" },
            { type: "barcode", code: "2" },
          ],
        },
        400,
        "VALIDATION_FAILED",
      ],
      [{ name: "X", suppliers: [], components: [{ product_id: UNKNOWN, quantity: 1 }] }, 422, "UNPROCESSABLE"],
    ];
    for (const [body, status, code] of bad)
      expectError(await call(sim, "PATCH", `${P}/${tote.id}`, { body }), status, code, "any");
    expect(await read(sim, tote.id)).toStrictEqual(tote);
    await expectNothingWritten(sim, cursor);
  });
});

describe("Write rule 5: variant_attributes change only while there are no live variant children", () => {
  it("TEE-CLASSIC (live children): a rename, an added or a removed attribute answer 409 CONFLICT; nothing changes", async () => {
    const sim = makeSim();
    const tee = await bySku(sim, "TEE-CLASSIC");
    const cursor = await heldCursor(sim);
    const attempts = [
      [
        { name: "Sizes", position: 1 },
        { name: "Colour", position: 2 },
      ],
      [
        { name: "Size", position: 1 },
        { name: "Colour", position: 2 },
        { name: "Fit", position: 3 },
      ],
      [{ name: "Size", position: 1 }],
      [],
    ];
    for (const variant_attributes of attempts) {
      expectError(
        await call(sim, "PATCH", `${P}/${tee.id}`, { body: { name: "Tee", variant_attributes } }),
        409,
        "CONFLICT",
        "any",
      );
    }
    expect(await read(sim, tee.id)).toStrictEqual(tee);
    await expectNothingWritten(sim, cursor);
  });

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

describe("Write rule 7 and choices (Images): image_url is imported and served as the service's own copy", () => {
  it("an https image_url on create is stored: image_url/image_thumb_url point at http://sim.test/images/<id>/, both served as image/png; the given address is not kept", async () => {
    const sim = makeSim();
    const given = "https://cdn.example.com/photos/lamp.png";
    const reply = await call(sim, "POST", P, { body: { name: "Lamp", retail_price: 3000, image_url: given } });
    expect(reply.status).toBe(201);
    const match = IMAGE.exec(reply.json.data.image_url);
    expect(match, reply.json.data.image_url).not.toBeNull();
    const imageId = match![1]!;
    expect(imageId).toMatch(UUID);
    expect(reply.json.data.image_thumb_url).toBe(`http://sim.test/images/${imageId}/thumb.png`);
    expect(reply.text).not.toContain("cdn.example.com");
    expect(JSON.stringify(await read(sim, reply.json.data.id))).not.toContain("cdn.example.com");
    for (const url of [reply.json.data.image_url, reply.json.data.image_thumb_url]) {
      const res = await sim.fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  it("null or omitted image_url leaves the image; sending back the product's own URL (original, thumb, another host) changes nothing", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const own = tote.image_url as string;
    const bodies = [
      { image_url: null },
      { name: "Canvas Tote" },
      { image_url: own },
      { image_url: tote.image_thumb_url },
      { image_url: own.replace("http://sim.test", "https://api.example.net") },
    ];
    for (const body of bodies) {
      const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body });
      expect(reply.status, `${JSON.stringify(body)}: ${reply.text}`).toBe(200);
      expect(reply.json.data).toStrictEqual(tote);
    }
    const renamed = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Tote", image_url: null } });
    expect(renamed.json.data).toMatchObject({ name: "Tote", image_url: own, image_thumb_url: tote.image_thumb_url });
  });

  it("a new https address replaces the image with a new copy, and the version moves", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { image_url: "https://cdn.example.com/tote-2.png" },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data.image_url).toMatch(IMAGE);
    expect(reply.json.data.image_url).not.toBe(tote.image_url);
    expect(newer(reply.json.data.version, tote.version)).toBe(true);
  });

  it("an http:// address answers 400 VALIDATION_FAILED naming image_url; nothing is written", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const cursor = await heldCursor(sim);
    expectError(
      await call(sim, "POST", P, {
        body: { name: "Plain http", retail_price: 100, image_url: "http://cdn.example.com/a.png" },
      }),
      400,
      "VALIDATION_FAILED",
      "image_url",
    );
    expectError(
      await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "X", image_url: "http://cdn.example.com/a.png" } }),
      400,
      "VALIDATION_FAILED",
      "image_url",
    );
    await expectNothingWritten(sim, cursor);
  });

  it("a failed download (outcome fail): 422 IMAGE_FETCH_FAILED with the saved product in data next to error; the product exists without an image", async () => {
    const sim = makeSim();
    const url = "https://cdn.example.com/broken.png";
    await setImage(sim, url, "fail");
    const reply = await call(sim, "POST", P, {
      body: { sku: "BROKEN-IMG", name: "Broken image", retail_price: 700, image_url: url },
    });
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "error"]);
    expect(reply.json.error).toMatchObject({ code: "IMAGE_FETCH_FAILED", message: expect.any(String) });
    expect(reply.json.data).toMatchObject({
      id: expect.stringMatching(UUID),
      sku: "BROKEN-IMG",
      name: "Broken image",
      retail_price: 700,
      image_url: null,
      image_thumb_url: null,
    });
    expect(await read(sim, reply.json.data.id)).toStrictEqual(reply.json.data);
    expect((await bySku(sim, "BROKEN-IMG")).id).toBe(reply.json.data.id);
  });

  it("a host under the reserved .invalid name (RFC 6761) never resolves: its download fails without any outcome set, 422 IMAGE_FETCH_FAILED with the product saved; an outcome set for it still wins", async () => {
    const sim = makeSim();
    const reply = await call(sim, "POST", P, {
      body: {
        sku: "NOWHERE-IMG",
        name: "Nowhere",
        retail_price: 300,
        image_url: "https://images.nowhere.invalid/a.png",
      },
    });
    // Spec, Product write rules 7: the one refusal that carries the saved product in `data` next to `error`.
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "error"]);
    expect(reply.json.error).toStrictEqual({ code: "IMAGE_FETCH_FAILED", message: expect.any(String) });
    expect(reply.json.data).toMatchObject({ sku: "NOWHERE-IMG", image_url: null, image_thumb_url: null });
    expect((await bySku(sim, "NOWHERE-IMG")).id).toBe(reply.json.data.id);
    // Only the host counts: ".invalid" in the path is an ordinary address.
    const elsewhere = await call(sim, "POST", P, {
      body: {
        sku: "PATH-INVALID-IMG",
        name: "Path",
        retail_price: 300,
        image_url: "https://cdn.example.com/x.invalid/a.png",
      },
    });
    expect(elsewhere.status).toBe(201);
    await setImage(sim, "https://ok.invalid/b.png", "ok");
    const set = await call(sim, "POST", P, {
      body: { sku: "SET-OK-IMG", name: "Set ok", retail_price: 300, image_url: "https://ok.invalid/b.png" },
    });
    expect(set.status).toBe(201);
  });

  it("a failed download on an update saves the other changes and keeps the old image", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const url = "https://cdn.example.com/broken-tote.png";
    await setImage(sim, url, "fail");
    const reply = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Tote, new name", image_url: url } });
    // Spec, Product write rules 7: the one refusal that carries the saved product in `data` next to `error`.
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "error"]);
    expect(reply.json.error).toStrictEqual({ code: "IMAGE_FETCH_FAILED", message: expect.any(String) });
    expect(reply.json.data).toMatchObject({
      id: tote.id,
      name: "Tote, new name",
      image_url: tote.image_url,
      image_thumb_url: tote.image_thumb_url,
    });
    expect(await read(sim, tote.id)).toStrictEqual(reply.json.data);
  });

  it("Limits (concurrent image downloads): a busy moment (outcome busy) answers 429 RATE_LIMITED with Retry-After and writes nothing", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    const url = "https://cdn.example.com/busy.png";
    await setImage(sim, url, "busy");
    const cursor = await heldCursor(sim);
    const created = await call(sim, "POST", P, {
      body: { sku: "BUSY-IMG", name: "Busy", retail_price: 100, image_url: url },
    });
    expectError(created, 429, "RATE_LIMITED");
    expect(created.headers.get("retry-after")).toBe("1");
    const patched = await call(sim, "PATCH", `${P}/${tote.id}`, { body: { name: "Busy tote", image_url: url } });
    expectError(patched, 429, "RATE_LIMITED");
    expect(patched.headers.get("retry-after")).toBe("1");
    await expectNothingWritten(sim, cursor);
    expect((await call(sim, "GET", `${P}?sku=BUSY-IMG`)).json.data).toEqual([]);
    expect(await read(sim, tote.id)).toStrictEqual(tote);
  });
});

describe("Limits: product writes including image_url, 10 per minute per credential; writes without an image do not count", () => {
  it("the 11th image write in a minute answers 429 RATE_LIMITED with Retry-After and writes nothing; plain writes still work; 60 s later it works", async () => {
    const sim = makeSim();
    const tote = await bySku(sim, "TOTE-CANVAS");
    for (let i = 0; i < 10; i++) {
      // Plain writes in between do not count.
      expect((await call(sim, "PATCH", `${P}/${tote.id}`, { body: { description: `Plain ${i}` } })).status).toBe(200);
      const reply = await call(sim, "POST", P, {
        body: { name: `Pic ${i}`, retail_price: 100, image_url: `https://cdn.example.com/p${i}.png` },
      });
      expect(reply.status, `image write ${i + 1}`).toBe(201);
    }
    sim.clock.advance(20);
    const cursor = await heldCursor(sim);
    const refused = await call(sim, "POST", P, {
      body: { sku: "PIC-11", name: "Pic 11", retail_price: 100, image_url: "https://cdn.example.com/p11.png" },
    });
    expectError(refused, 429, "RATE_LIMITED");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(40);
    const refusedPatch = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { name: "Tote pic", image_url: "https://cdn.example.com/tote-11.png" },
    });
    expectError(refusedPatch, 429, "RATE_LIMITED");
    await expectNothingWritten(sim, cursor);

    const plainCreate = await call(sim, "POST", P, { body: { name: "No picture", retail_price: 100 } });
    expect(plainCreate.status).toBe(201);
    const plainPatch = await call(sim, "PATCH", `${P}/${tote.id}`, {
      body: { name: "Tote still writable", image_url: null },
    });
    expect(plainPatch.status).toBe(200);

    sim.clock.advance(60);
    const later = await call(sim, "POST", P, {
      body: { sku: "PIC-11", name: "Pic 11", retail_price: 100, image_url: "https://cdn.example.com/p11.png" },
    });
    expect(later.status).toBe(201);
    expect(later.json.data.image_url).toMatch(IMAGE);
  });
});

// ---------------------------------------------------------------------------------------------------

describe("Limits (idempotency): POST /products with Idempotency-Key", () => {
  it("a replay with the same key and body answers the same status and body with Idempotent-Replayed: true; one product is created", async () => {
    const sim = makeSim();
    const before = (await listAll(sim)).length;
    const body = { name: "Once only", retail_price: 1500 };
    const first = await call(sim, "POST", P, { body, headers: { "idempotency-key": "create-once-1" } });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    sim.clock.advance(5);
    const again = await call(sim, "POST", P, { body, headers: { "idempotency-key": "create-once-1" } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toStrictEqual(first.json);
    const all = await listAll(sim);
    expect(all.length).toBe(before + 1);
    expect(all.filter((p) => p.name === "Once only")).toHaveLength(1);
  });

  it("a client error replays the same failure; a different body under the key answers 422 IDEMPOTENCY_KEY_REUSED and writes nothing", async () => {
    const sim = makeSim();
    const cursor = await heldCursor(sim);
    const body = { sku: "TOTE-CANVAS", name: "Clash", retail_price: 100 };
    const first = await call(sim, "POST", P, { body, headers: { "idempotency-key": "clash-1" } });
    expectError(first, 409, "CONFLICT", "any");
    const again = await call(sim, "POST", P, { body, headers: { "idempotency-key": "clash-1" } });
    expect(again.status).toBe(409);
    expect(again.json).toStrictEqual(first.json);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const reused = await call(sim, "POST", P, {
      body: { name: "Other body", retail_price: 100 },
      headers: { "idempotency-key": "clash-1" },
    });
    expectError(reused, 422, "IDEMPOTENCY_KEY_REUSED");
    await expectNothingWritten(sim, cursor);
  });
});
