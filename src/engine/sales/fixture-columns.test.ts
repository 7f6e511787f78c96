import { describe, expect, it } from "vitest";
import { manualClock } from "../../kernel/clock.js";
import { largeFixture } from "../../../scenarios/fixtures/large.js";
import { buildWorld } from "../build-world.js";
import { deleteProduct, updateProduct } from "../catalog/products.js";
import { productJson } from "../catalog/views.js";
import { takeSnapshot } from "../snapshot/take.js";
import { restoreWorld } from "../snapshot/restore.js";
import type { World } from "../world.js";
import { refundSale, voidSale } from "./operations.js";
import { saleJson } from "./views.js";

const size = { products: 120, sales: 900, customers: 15 };
const time = { clock: manualClock(Date.UTC(2026, 0, 15)), sleep: () => Promise.resolve() };
const build = (columns: boolean) => buildWorld(largeFixture(3, size, { columns }), 3, time);
const demo = (world: World) => world.stores.get("demo")!;
const snapshot = (world: World) => JSON.stringify(takeSnapshot(world, "default"));

describe("docs/architecture.md, State: the large fixture's product stream and sales by column build the same world as its fixture document, records made on first read", () => {
  it("every sale row, version, index bucket and document is the same as when each sale is made from a fixture sale", () => {
    const eager = demo(build(false)).sales;
    const lazy = demo(build(true)).sales;
    const rows = (state: typeof eager) => [...state.sales.all()].map((r) => [r.id, r.seq, r.deletedAt]);
    expect(rows(lazy)).toEqual(rows(eager));
    expect(rows(lazy)).toHaveLength(size.sales);
    // Index buckets are filled from what is known of a sale before its document is made: the same keys.
    for (const index of ["byStatus", "byOutlet", "byCustomer", "byParent", "byDay"] as const) {
      const buckets = (state: typeof eager) =>
        [...state[index].keys()].sort().map((k) => [k, [...state[index].bucket(k)!.currentRows()].map((r) => r.id)]);
      expect(buckets(lazy)).toEqual(buckets(eager));
    }
    for (const row of eager.sales.all())
      expect(saleJson(lazy, lazy.sales.row(row.id)!).text).toBe(saleJson(eager, row).text);
  });

  it("every product row, its catalog indexes and its document are the same as when made from a fixture product", () => {
    const [eager, lazy] = [demo(build(false)).catalog, demo(build(true)).catalog];
    const rows = (c: typeof eager) => [...c.products.all()].map((r) => [r.id, r.seq, r.deletedAt]);
    expect(rows(lazy)).toEqual(rows(eager));
    expect(rows(lazy)).toHaveLength(size.products);
    expect([...lazy.skuIndex]).toEqual([...eager.skuIndex]);
    for (const index of ["byTag", "bySupplier", "byBrand", "byCategory"] as const)
      expect(lazy[index].entries()).toEqual(eager[index].entries());
    expect(lazy.liveProducts).toBe(eager.liveProducts);
    const json = (c: typeof eager, id: string) => productJson(c, c.products.row(id)!, "http://x/demo/v1").text;
    for (const row of eager.products.all()) expect(json(lazy, row.id)).toBe(json(eager, row.id));
  });

  it("a sale refunded or voided, a product renamed or deleted, before its record was read, then snapshotted and restored, is the same in both worlds", () => {
    const worlds = [build(false), build(true)];
    // The product of a sale, renamed before the sale is read: the sale's line keeps the name it was sold under.
    const sold = [...demo(worlds[0]!).sales.sales.all()][30]!.value.lines[0]!.product_id;
    for (const world of worlds) {
      const store = demo(world);
      const sales = [...store.sales.sales.all()].map((r) => r.id);
      const products = [...store.catalog.products.all()].map((r) => r.id);
      const ctx = { store, ids: world.env.ids, now: time.clock.now() };
      expect(refundSale(ctx, sales[10]!).ok).toBe(true);
      expect(voidSale(ctx, sales[20]!).ok).toBe(true);
      const catalogCtx = { ...ctx, images: world.images, countImageWrite: () => undefined };
      expect(updateProduct(catalogCtx, sold, { name: "Renamed" }).ok).toBe(true);
      expect(deleteProduct(catalogCtx, products[7]!).ok).toBe(true);
      expect(store.sales.sales.row(sales[30]!)!.value.lines[0]!.name).toMatch(/^Large Catalog Item \d{6}$/);
    }
    const [eager, lazy] = worlds.map(snapshot) as [string, string];
    expect(lazy).toBe(eager);
    expect(snapshot(restoreWorld(JSON.parse(lazy), time))).toBe(eager);
  });

  it("sales laid out after the build, in slices, after a product was written, have the ids and versions of the eager build's", () => {
    const worlds = [build(false), build(true)];
    const store = demo(worlds[1]!);
    // The build leaves the sales to lay out: a slice of none lays out nothing and says some are left.
    expect(store.layOutSales(0)).toBe(true);
    const written = worlds.map((world) => {
      const catalog = demo(world).catalog;
      const ctx = { store: demo(world), ids: world.env.ids, now: time.clock.now(), images: world.images };
      const id = [...catalog.products.all()][5]!.id;
      expect(updateProduct({ ...ctx, countImageWrite: () => undefined }, id, { name: "Written first" }).ok).toBe(true);
      return catalog.products.row(id)!.seq;
    });
    // The write takes the version after every sale's, as when the sales were made at the build.
    expect(written[1]).toBe(written[0]);
    let slices = 1;
    while (store.layOutSales(97)) slices++;
    expect(slices).toBe(Math.ceil(size.sales / 97));
    expect(store.layOutSales(97)).toBe(false);
    const rows = (world: World) => [...demo(world).sales.sales.all()].map((r) => [r.id, r.seq, r.value.id]);
    expect(rows(worlds[1]!)).toEqual(rows(worlds[0]!));
    expect(snapshot(worlds[1]!)).toBe(snapshot(worlds[0]!));
  });

  it("reading a store's sales lays out every one left at once", () => {
    const store = demo(build(true));
    expect(store.layOutSales(100)).toBe(true);
    expect(store.sales.sales.size).toBe(size.sales);
    expect(store.layOutSales(100)).toBe(false);
  });

  it("a snapshot of a world whose records were never read is the snapshot of the eagerly built world", () => {
    expect(snapshot(build(true))).toBe(snapshot(build(false)));
  });
});
