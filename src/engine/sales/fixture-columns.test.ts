import { describe, expect, it } from "vitest";
import { manualClock } from "../../kernel/clock.js";
import { largeFixture } from "../../../scenarios/fixtures/large.js";
import { buildWorld } from "../build-world.js";
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

describe("docs/architecture.md, State: sales by column (the large fixture) build the same world as fixture sales, documents made on first read", () => {
  it("every row, version, index bucket and document is the same as when each sale is made from a fixture sale", () => {
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

  it("a sale refunded or voided before its document was read, then snapshotted and restored, is the same in both worlds", () => {
    const worlds = [build(false), build(true)];
    for (const world of worlds) {
      const store = demo(world);
      const ids = [...store.sales.sales.all()].map((r) => r.id);
      const ctx = { store, ids: world.env.ids, now: time.clock.now() };
      expect(refundSale(ctx, ids[10]!).ok).toBe(true);
      expect(voidSale(ctx, ids[20]!).ok).toBe(true);
    }
    const [eager, lazy] = worlds.map(snapshot) as [string, string];
    expect(lazy).toBe(eager);
    expect(snapshot(restoreWorld(JSON.parse(lazy), time))).toBe(eager);
  });

  it("a snapshot of a world whose sale documents were never read is the snapshot of the eagerly built world", () => {
    expect(snapshot(build(true))).toBe(snapshot(build(false)));
  });
});
