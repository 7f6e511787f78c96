// Tests of product versions and write consistency against the spec (retail-api-v1.md): "Product write rules"
// 4 (a whole write is atomic), 5 (variant_attributes while live children exist) and 6 (expected_version),
// "Resources" (version increases with every change), "Pagination and polling rules" 1 and "Limits"
// (idempotency of POST /products).
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  P,
  UNKNOWN,
  type Product,
  bySku,
  read,
  idsByName,
  listAll,
  heldCursor,
  expectNothingWritten,
  newer,
} from "../../test-support/products.js";

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
