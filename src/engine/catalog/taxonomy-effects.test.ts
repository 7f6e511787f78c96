// Tests of what deleting or renaming a brand, tag or supplier does to products, against the spec: "Delete rules"
// (the brand, tag and supplier rows and the paragraph under the table), "Resources" (Product version: it
// changes when an attached tag or supplier is renamed) and "Pagination and polling rules" (a poll returns
// exactly the affected products), and the recorded choice on rename effects.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";
import {
  version,
  P,
  type Row,
  type Product,
  bigger,
  listAll,
  byName,
  bySku,
  productMap,
  productsCursor,
  pollProducts,
  expectChangedExactly,
  hasTag,
  hasSupplier,
  carriers,
} from "../../test-support/taxonomy.js";

describe("Spec, Delete rules (brand): products that used it get no brand, each with a new version", () => {
  it("deleting Northwind sets brand_id null on TOTE-CANVAS and CAP-BASEBALL only; they move to the end of the products feed", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const before = await productMap(sim);
    sim.clock.advance(300);
    expect((await call(sim, "DELETE", `${P}/brands/${northwind.id}`)).status).toBe(204);

    const after = await productMap(sim);
    const affected = carriers(before, (p) => p.brand_id === northwind.id, ["TOTE-CANVAS", "CAP-BASEBALL"]);
    expectChangedExactly(before, after, affected);
    for (const [id, was] of before) {
      if (affected.includes(was.sku)) {
        expect(was.brand_id).toBe(northwind.id);
        expect(after.get(id)).toStrictEqual({
          ...was,
          brand_id: null,
          updated_at: "2026-01-01T00:05:00.000Z",
          version,
        });
      } else {
        expect(after.get(id)).toStrictEqual(was);
      }
    }
    const feed = (await listAll(sim, `${P}/products`)).rows;
    expect(
      feed
        .slice(-affected.length)
        .map((p) => p.sku)
        .sort(),
    ).toEqual(affected);
  });

  it("Soft deletion: a product cannot be given a deleted brand afterwards (choice: unknown brand 422)", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const mug = await bySku(sim, "MUG-ENAMEL");
    expect((await call(sim, "DELETE", `${P}/brands/${northwind.id}`)).status).toBe(204);
    expectError(
      await call(sim, "PATCH", `${P}/products/${mug.id}`, { body: { brand_id: northwind.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("deleting a brand no product uses changes no product", async () => {
    const sim = makeSim();
    const created = (await call(sim, "POST", `${P}/brands`, { body: { name: "Unused" } })).json.data as Row;
    const before = await productMap(sim);
    expect((await call(sim, "DELETE", `${P}/brands/${created.id}`)).status).toBe(204);
    expectChangedExactly(before, await productMap(sim), []);
  });
});

describe("Spec, Delete rules (tag): removed from every product carrying it, each with a new version", () => {
  it("deleting Summer removes it from TOTE-CANVAS (keeping Bestseller) and TEE-CLASSIC; others keep their version", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const bestseller = await byName(sim, "tags", "Bestseller");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "DELETE", `${P}/tags/${summer.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasTag(summer.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const tee = [...after.values()].find((p) => p.sku === "TEE-CLASSIC")!;
    expect(tote).toStrictEqual({
      ...before.get(tote.id),
      tags: [{ id: bestseller.id, name: "Bestseller" }],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(tee).toStrictEqual({ ...before.get(tee.id), tags: [], updated_at: "2026-01-01T00:01:00.000Z", version });
    for (const p of after.values()) expect(p.tags.map((t: Row) => t.id)).not.toContain(summer.id);
  });

  it("Spec, Product write rules 8: the deleted tag's id is then an unknown tag id (400)", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const mug = await bySku(sim, "MUG-ENAMEL");
    expect((await call(sim, "DELETE", `${P}/tags/${summer.id}`)).status).toBe(204);
    const reply = await call(sim, "PATCH", `${P}/products/${mug.id}`, { body: { tags: [{ id: summer.id }] } });
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe("VALIDATION_FAILED");
    expect((await call(sim, "GET", `${P}/products/${mug.id}`)).json.data).toStrictEqual(mug);
  });
});

describe("Spec, Delete rules (supplier): removed from every product carrying it, each with a new version", () => {
  it("deleting Acme Wholesale removes it from TOTE-CANVAS (keeping Pacific Textiles) and BOTTLE-STEEL; others keep their version", async () => {
    const sim = makeSim();
    const acme = await byName(sim, "suppliers", "Acme Wholesale");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "DELETE", `${P}/suppliers/${acme.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(acme.id), ["TOTE-CANVAS", "BOTTLE-STEEL"]));
    const toteBefore = [...before.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const bottleBefore = [...before.values()].find((p) => p.sku === "BOTTLE-STEEL")!;
    expect(after.get(toteBefore.id)).toStrictEqual({
      ...toteBefore,
      suppliers: toteBefore.suppliers.filter((s: { supplier_id: string }) => s.supplier_id !== acme.id),
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(after.get(toteBefore.id)!.suppliers).toHaveLength(1);
    expect(after.get(bottleBefore.id)).toStrictEqual({
      ...bottleBefore,
      suppliers: [],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
  });

  it("deleting Pacific Textiles (primary on TOTE-CANVAS and TEE-CLASSIC) removes it from both", async () => {
    const sim = makeSim();
    const pacific = await byName(sim, "suppliers", "Pacific Textiles");
    const acme = await byName(sim, "suppliers", "Acme Wholesale");
    const before = await productMap(sim);
    expect((await call(sim, "DELETE", `${P}/suppliers/${pacific.id}`)).status).toBe(204);
    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(pacific.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    expect(tote.suppliers.map((s: { supplier_id: string }) => s.supplier_id)).toEqual([acme.id]);
    expect([...after.values()].find((p) => p.sku === "TEE-CLASSIC")!.suppliers).toStrictEqual([]);
  });
});

describe("Spec, Product (version): it also changes when an attached tag or supplier is renamed", () => {
  it("renaming tag Summer changes the version of TOTE-CANVAS and TEE-CLASSIC, which show the new name; others keep theirs", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const bestseller = await byName(sim, "tags", "Bestseller");
    const before = await productMap(sim);
    sim.clock.advance(60);
    const renamed = await call(sim, "PATCH", `${P}/tags/${summer.id}`, { body: { name: "Summer Days" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toStrictEqual({ id: summer.id, name: "Summer Days", version });

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasTag(summer.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const tee = [...after.values()].find((p) => p.sku === "TEE-CLASSIC")!;
    expect(tote).toStrictEqual({
      ...before.get(tote.id),
      tags: [
        { id: summer.id, name: "Summer Days" },
        { id: bestseller.id, name: "Bestseller" },
      ],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(tee).toStrictEqual({
      ...before.get(tee.id),
      tags: [{ id: summer.id, name: "Summer Days" }],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect((await call(sim, "GET", `${P}/products/${tee.id}`)).json.data).toStrictEqual(tee);
  });

  it("renaming supplier Pacific Textiles changes the version of TOTE-CANVAS and TEE-CLASSIC, which show the new supplier_name", async () => {
    const sim = makeSim();
    const pacific = await byName(sim, "suppliers", "Pacific Textiles");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "PATCH", `${P}/suppliers/${pacific.id}`, { body: { name: "Pacific Mills" } })).status).toBe(
      200,
    );

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(pacific.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    for (const sku of ["TOTE-CANVAS", "TEE-CLASSIC"]) {
      const was = [...before.values()].find((p) => p.sku === sku)!;
      expect(after.get(was.id)).toStrictEqual({
        ...was,
        suppliers: was.suppliers.map((s: { supplier_id: string; supplier_name: string }) =>
          s.supplier_id === pacific.id ? { ...s, supplier_name: "Pacific Mills" } : s,
        ),
        updated_at: "2026-01-01T00:01:00.000Z",
        version,
      });
    }
  });

  it("renaming supplier Harbour Distribution changes only the products carrying it (MUG-ENAMEL)", async () => {
    const sim = makeSim();
    const harbour = await byName(sim, "suppliers", "Harbour Distribution");
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/suppliers/${harbour.id}`, { body: { name: "Harbour Dist." } })).status).toBe(
      200,
    );
    expectChangedExactly(before, await productMap(sim), carriers(before, hasSupplier(harbour.id), ["MUG-ENAMEL"]));
  });

  it("renaming a tag on no product changes no product; renaming Sale changes only its carriers (BUNDLE-PICNIC)", async () => {
    const sim = makeSim();
    const fresh = (await call(sim, "POST", `${P}/tags`, { body: { name: "Unused" } })).json.data as Row;
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/tags/${fresh.id}`, { body: { name: "Still unused" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), []);
    const sale = await byName(sim, "tags", "Sale");
    expect((await call(sim, "PATCH", `${P}/tags/${sale.id}`, { body: { name: "On Sale" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), carriers(before, hasTag(sale.id), ["BUNDLE-PICNIC"]));
  });

  it("choice (a write that changes nothing keeps version): re-sending a tag's own name changes neither the tag nor its products", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const before = await productMap(sim);
    const reply = await call(sim, "PATCH", `${P}/tags/${summer.id}`, { body: { name: "Summer" } });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(summer);
    expectChangedExactly(before, await productMap(sim), []);
  });

  it("choice: a brand rename keeps every product's version", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const before = await productMap(sim);
    const reply = await call(sim, "PATCH", `${P}/brands/${northwind.id}`, { body: { name: "Northwind Outdoor" } });
    expect(reply.status).toBe(200);
    bigger(reply.json.data.version, northwind.version);
    expectChangedExactly(before, await productMap(sim), []);
  });

  it("choice: a category rename keeps every product's version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { name: "Tops" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), []);
  });
});

// ---------------------------------------------------------------------------------------------
// Polling.

describe("Spec, Pagination and polling: after a delete or rename, a poll of /products from an earlier cursor returns exactly the affected products, each once", () => {
  interface PollCase {
    readonly label: string;
    readonly kind: string;
    readonly name: string;
    /** A PATCH body, or undefined for a DELETE. */
    readonly rename?: Record<string, unknown>;
    /** Which products (read before the change) are affected. */
    readonly affects: (row: Row) => (p: Product) => boolean;
    /** Demo products that must be among them. */
    readonly known: string[];
  }
  const TEE = ["TEE-CLASSIC", "TEE-CLASSIC-S-NAVY", "TEE-CLASSIC-M-NAVY", "TEE-CLASSIC-L-NAVY", "TEE-CLASSIC-M-WHITE"];
  const brand = (row: Row) => (p: Product) => p.brand_id === row.id;
  const category = (row: Row) => (p: Product) => p.category_id === row.id;
  const tag = (row: Row) => hasTag(row.id);
  const supplier = (row: Row) => hasSupplier(row.id);
  const none = () => () => false;
  const cases: PollCase[] = [
    {
      label: "deleting brand Northwind",
      kind: "brands",
      name: "Northwind",
      affects: brand,
      known: ["TOTE-CANVAS", "CAP-BASEBALL"],
    },
    {
      label: "deleting brand Harbour & Co",
      kind: "brands",
      name: "Harbour & Co",
      affects: brand,
      known: [...TEE, "SOCKS-WOOL"],
    },
    { label: "deleting tag Summer", kind: "tags", name: "Summer", affects: tag, known: ["TOTE-CANVAS", "TEE-CLASSIC"] },
    { label: "deleting tag New", kind: "tags", name: "New", affects: tag, known: ["BOTTLE-STEEL", "SOCKS-WOOL"] },
    {
      label: "deleting supplier Acme Wholesale",
      kind: "suppliers",
      name: "Acme Wholesale",
      affects: supplier,
      known: ["TOTE-CANVAS", "BOTTLE-STEEL"],
    },
    { label: "deleting category Shirts", kind: "categories", name: "Shirts", affects: category, known: TEE },
    {
      label: "deleting category Accessories",
      kind: "categories",
      name: "Accessories",
      affects: category,
      known: ["TOTE-CANVAS", "BOTTLE-STEEL", "BUNDLE-PICNIC", "MUG-ENAMEL"],
    },
    {
      label: "renaming tag Summer",
      kind: "tags",
      name: "Summer",
      rename: { name: "Sunny" },
      affects: tag,
      known: ["TOTE-CANVAS", "TEE-CLASSIC"],
    },
    {
      label: "renaming supplier Pacific Textiles",
      kind: "suppliers",
      name: "Pacific Textiles",
      rename: { name: "Pacific" },
      affects: supplier,
      known: ["TOTE-CANVAS", "TEE-CLASSIC"],
    },
    {
      label: "renaming brand Northwind (choice: no product changes)",
      kind: "brands",
      name: "Northwind",
      rename: { name: "Nw" },
      affects: none,
      known: [],
    },
    {
      label: "renaming category Apparel (choice: no product changes)",
      kind: "categories",
      name: "Apparel",
      rename: { name: "Clothes" },
      affects: none,
      known: [],
    },
  ];

  for (const c of cases) {
    it(`${c.label}: the poll returns exactly the affected products${c.known.length ? ` (${c.known.join(", ")})` : " (none)"}, each once`, async () => {
      const sim = makeSim();
      const row = await byName(sim, c.kind, c.name);
      const before = await productMap(sim);
      const expected = carriers(before, c.affects(row), c.known);
      const cursor = await productsCursor(sim);
      const reply = c.rename
        ? await call(sim, "PATCH", `${P}/${c.kind}/${row.id}`, { body: c.rename })
        : await call(sim, "DELETE", `${P}/${c.kind}/${row.id}`);
      expect(reply.status).toBe(c.rename ? 200 : 204);
      const polled = await pollProducts(sim, cursor);
      expect(polled.map((p) => p.sku).sort()).toEqual(expected);
      expect(new Set(polled.map((p) => p.id)).size).toBe(polled.length);
      for (const p of polled) {
        bigger(p.version, before.get(p.id)!.version);
        expect((await call(sim, "GET", `${P}/products/${p.id}`)).json.data).toStrictEqual(p);
      }
    });
  }

  it("a poll with limit=1 after deleting brand Northwind pages through the 2 affected products, each once", async () => {
    const sim = makeSim();
    const cursor = await productsCursor(sim);
    expect((await call(sim, "DELETE", `${P}/brands/${(await byName(sim, "brands", "Northwind")).id}`)).status).toBe(
      204,
    );
    const first = await call(sim, "GET", `${P}/products?limit=1&cursor=${cursor}`);
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(1);
    expect(first.json.has_more).toBe(true);
    const second = await call(sim, "GET", `${P}/products?limit=1&cursor=${first.json.next_cursor}`);
    expect(second.json.data).toHaveLength(1);
    expect(second.json.has_more).toBe(false);
    expect([first.json.data[0].sku, second.json.data[0].sku].sort()).toEqual(["CAP-BASEBALL", "TOTE-CANVAS"]);
    const third = await call(sim, "GET", `${P}/products?limit=1&cursor=${second.json.next_cursor}`);
    expect(third.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });
});
