// Tests of the category tree against the spec: "Resources" (Category: parent_id, depth), "Delete rules" (the
// category row: system, gift cards and parent categories are refused; products move to Other Products), and
// the recorded catalog choices (depth 0 at the root, unknown parents 422, category moves).
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  uuid,
  version,
  UNKNOWN_ID,
  P,
  type Row,
  bigger,
  listAll,
  rowsOf,
  byName,
  bySku,
  productMap,
  expectChangedExactly,
} from "../../test-support/taxonomy.js";

describe("Spec, Category: parent_id and depth (choice: depth 0 at the root)", () => {
  it("a category under Shirts has depth 2 and Shirts' id as parent_id; one under that has depth 3", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const apparel = await byName(sim, "categories", "Apparel");
    expect(shirts.parent_id).toBe(apparel.id);
    const polos = await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } });
    expect(polos.status).toBe(201);
    expect(polos.json.data).toStrictEqual({ id: uuid, name: "Polos", parent_id: shirts.id, depth: 2, version });
    const pique = await call(sim, "POST", `${P}/categories`, {
      body: { name: "Pique", parent_id: polos.json.data.id },
    });
    expect(pique.status).toBe(201);
    expect(pique.json.data).toStrictEqual({
      id: uuid,
      name: "Pique",
      parent_id: polos.json.data.id,
      depth: 3,
      version,
    });
  });

  it("parent_id null at create is a root category with depth 0", async () => {
    const sim = makeSim();
    const reply = await call(sim, "POST", `${P}/categories`, { body: { name: "Toys", parent_id: null } });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toStrictEqual({ id: uuid, name: "Toys", parent_id: null, depth: 0, version });
  });

  it("Spec, Errors (UNPROCESSABLE, referenced thing not found): an unknown parent_id answers 422 and creates nothing", async () => {
    const sim = makeSim();
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Orphans", parent_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    expect(await rowsOf(sim, "categories")).toHaveLength(6);
  });

  it("a deleted parent or another store's category as parent_id answers 422", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    expect((await call(sim, "DELETE", `${P}/categories/${services.id}`)).status).toBe(204);
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Repairs", parent_id: services.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    const foreign = await call(sim, "POST", "/other/v1/categories", { body: { name: "Theirs" } });
    expect(foreign.status).toBe(201);
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Mine", parent_id: foreign.json.data.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("a parent_id that is not a UUID answers 400 VALIDATION_FAILED naming parent_id", async () => {
    const sim = makeSim();
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Bad", parent_id: "Apparel" } }),
      400,
      "VALIDATION_FAILED",
      { includes: "parent_id" },
    );
  });

  it("choice: no category can be created under the reserved Gift Cards category (422)", async () => {
    const sim = makeSim();
    const gift = await byName(sim, "categories", "Gift Cards");
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "E-gift", parent_id: gift.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });
});

describe("Spec, Delete rules (category): 409 CONFLICT for a system category, the gift cards category, or one with live subcategories", () => {
  // The refusals themselves (Other Products, Gift Cards, a category with a live subcategory) are checked by
  // the conformance rules of the catalog.
  it("after its subcategory Shirts is deleted, Apparel can be deleted (204)", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expect((await call(sim, "DELETE", `${P}/categories/${shirts.id}`)).status).toBe(204);
    const del = await call(sim, "DELETE", `${P}/categories/${apparel.id}`);
    expect(del.status).toBe(204);
    expectError(await call(sim, "GET", `${P}/categories/${apparel.id}`), 404, "NOT_FOUND");
  });

  it("a category whose only subcategory was moved away can be deleted", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expect((await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { parent_id: null } })).status).toBe(200);
    expect((await call(sim, "DELETE", `${P}/categories/${apparel.id}`)).status).toBe(204);
  });

  it("choice: system categories cannot be changed: PATCH Other Products or Gift Cards answers 409", async () => {
    const sim = makeSim();
    for (const name of ["Other Products", "Gift Cards"]) {
      const row = await byName(sim, "categories", name);
      expectError(await call(sim, "PATCH", `${P}/categories/${row.id}`, { body: { name: "Misc" } }), 409, "CONFLICT");
      expect((await call(sim, "GET", `${P}/categories/${row.id}`)).json.data).toStrictEqual(row);
    }
  });
});

describe("Spec, Category and Delete rules: products of a deleted category move to Other Products with a new version", () => {
  it("deleting Shirts moves TEE-CLASSIC and its 4 children to Other Products; every other product keeps its version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const other = await byName(sim, "categories", "Other Products");
    const before = await productMap(sim);
    const inShirts = [...before.values()].filter((p) => p.category_id === shirts.id).map((p) => p.sku);
    expect(inShirts).toEqual(
      expect.arrayContaining([
        "TEE-CLASSIC",
        "TEE-CLASSIC-L-NAVY",
        "TEE-CLASSIC-M-NAVY",
        "TEE-CLASSIC-M-WHITE",
        "TEE-CLASSIC-S-NAVY",
      ]),
    );
    sim.clock.advance(120);

    expect((await call(sim, "DELETE", `${P}/categories/${shirts.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, inShirts);
    for (const [id, was] of before) {
      const now = after.get(id)!;
      if (inShirts.includes(was.sku)) {
        expect(now).toStrictEqual({ ...was, category_id: other.id, updated_at: "2026-01-01T00:02:00.000Z", version });
      } else {
        expect(now).toStrictEqual(was);
      }
    }
  });

  it("Spec, Soft deletion (records that referred to it keep working): the moved products still read and update", async () => {
    const sim = makeSim();
    const accessories = await byName(sim, "categories", "Accessories");
    const other = await byName(sim, "categories", "Other Products");
    const tote = await bySku(sim, "TOTE-CANVAS");
    expect((await call(sim, "DELETE", `${P}/categories/${accessories.id}`)).status).toBe(204);
    const read = await call(sim, "GET", `${P}/products/${tote.id}`);
    expect(read.status).toBe(200);
    expect(read.json.data.category_id).toBe(other.id);
    const patched = await call(sim, "PATCH", `${P}/products/${tote.id}`, { body: { name: "Canvas Tote Bag" } });
    expect(patched.status).toBe(200);
    expect(patched.json.data.category_id).toBe(other.id);
  });

  it("choice (unknown category: 422): a product cannot be put in a deleted category", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    const tote = await bySku(sim, "TOTE-CANVAS");
    expect((await call(sim, "DELETE", `${P}/categories/${services.id}`)).status).toBe(204);
    expectError(
      await call(sim, "PATCH", `${P}/products/${tote.id}`, { body: { category_id: services.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });
});

describe("Choice: category moves (PATCH parent_id); a move under itself or a descendant answers 409; descendants get their new depth", () => {
  it("moving Apparel under its own child Shirts answers 409 CONFLICT and nothing changes", async () => {
    const sim = makeSim();
    const before = await rowsOf(sim, "categories");
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: shirts.id } }),
      409,
      "CONFLICT",
      "any",
    );
    expect(await rowsOf(sim, "categories")).toStrictEqual(before);
  });

  it("moving Apparel under its grandchild answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: polos.id } }),
      409,
      "CONFLICT",
      "any",
    );
    expect((await call(sim, "GET", `${P}/categories/${apparel.id}`)).json.data).toStrictEqual(apparel);
  });

  it("moving a category under itself answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: apparel.id } }),
      409,
      "CONFLICT",
      "any",
    );
  });

  it("choice (reserved gift cards category): moving a category under Gift Cards answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    const gift = await byName(sim, "categories", "Gift Cards");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${services.id}`, { body: { parent_id: gift.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    expect((await call(sim, "GET", `${P}/categories/${services.id}`)).json.data).toStrictEqual(services);
  });

  it("moving under an unknown parent answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("moving Apparel under a new root Clothing gives Apparel depth 1, Shirts depth 2, Polos depth 3, each with a new version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    const apparel = await byName(sim, "categories", "Apparel");
    const clothing = (await call(sim, "POST", `${P}/categories`, { body: { name: "Clothing" } })).json.data as Row;
    const accessories = await byName(sim, "categories", "Accessories");

    const moved = await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: clothing.id } });
    expect(moved.status).toBe(200);
    expect(moved.json.data).toStrictEqual({
      id: apparel.id,
      name: "Apparel",
      parent_id: clothing.id,
      depth: 1,
      version,
    });
    bigger(moved.json.data.version, apparel.version);

    const shirtsNow = (await call(sim, "GET", `${P}/categories/${shirts.id}`)).json.data;
    expect(shirtsNow).toStrictEqual({ id: shirts.id, name: "Shirts", parent_id: apparel.id, depth: 2, version });
    bigger(shirtsNow.version, shirts.version);
    const polosNow = (await call(sim, "GET", `${P}/categories/${polos.id}`)).json.data;
    expect(polosNow).toStrictEqual({ id: polos.id, name: "Polos", parent_id: shirts.id, depth: 3, version });
    bigger(polosNow.version, polos.version);
    expect((await call(sim, "GET", `${P}/categories/${accessories.id}`)).json.data).toStrictEqual(accessories);
    expect((await call(sim, "GET", `${P}/categories/${clothing.id}`)).json.data).toStrictEqual(clothing);
  });

  it("moving Shirts to the root (parent_id null) gives it depth 0 and its child depth 1", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    const moved = await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { parent_id: null } });
    expect(moved.status).toBe(200);
    expect(moved.json.data).toStrictEqual({ id: shirts.id, name: "Shirts", parent_id: null, depth: 0, version });
    expect((await call(sim, "GET", `${P}/categories/${polos.id}`)).json.data).toStrictEqual({
      id: polos.id,
      name: "Polos",
      parent_id: shirts.id,
      depth: 1,
      version,
    });
  });

  it("a poll of /categories after a move returns the moved category and its descendants", async () => {
    const sim = makeSim();
    const { cursor } = await listAll(sim, `${P}/categories`);
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    const accessories = await byName(sim, "categories", "Accessories");
    expect(
      (await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: accessories.id } })).status,
    ).toBe(200);
    const polled = await call(sim, "GET", `${P}/categories?cursor=${cursor}`);
    expect(polled.status).toBe(200);
    expect((polled.json.data as Row[]).map((r) => r.id).sort()).toEqual([apparel.id, shirts.id].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// Effects on products.
