import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toMilli } from "../../kernel/quantity.js";
import { InventoryState, type LevelRecord } from "./state.js";

const level = (outlet: number, onHand: number, seq: number): LevelRecord => ({
  outlet_id: `outlet-${outlet}`,
  on_hand: toMilli(onHand),
  average_cost: 0,
  reorder_method: "none",
  reorder_point: null,
  reorder_amount: null,
  reorder_target: null,
  seq,
});

describe("Spec, Inventory: a product's level at each outlet, kept whatever the number of outlets", () => {
  it("every level put is the one read back, and a product's levels keep the order their outlets were first stocked (property)", () => {
    // Up to 20 outlets: products stocked at few outlets and at more than the short array holds.
    const puts = fc.array(fc.tuple(fc.nat(3), fc.nat(19), fc.nat(500)), { maxLength: 200 });
    fc.assert(
      fc.property(puts, (writes) => {
        const state = new InventoryState(10);
        const model = new Map<string, Map<string, LevelRecord>>();
        writes.forEach(([product, outlet, onHand], seq) => {
          const record = level(outlet, onHand, seq);
          state.put(`product-${product}`, record);
          const levels = model.get(`product-${product}`) ?? new Map<string, LevelRecord>();
          model.set(`product-${product}`, levels.set(record.outlet_id, record));
        });
        for (let product = 0; product < 4; product++) {
          const levels = model.get(`product-${product}`) ?? new Map<string, LevelRecord>();
          expect(state.levelsOf(`product-${product}`)).toEqual([...levels.values()]);
          for (let outlet = 0; outlet < 20; outlet++)
            expect(state.level(`product-${product}`, `outlet-${outlet}`)).toBe(levels.get(`outlet-${outlet}`));
        }
        const records = [...model].flatMap(([product_id, levels]) =>
          [...levels.values()].map((l) => ({ product_id, level: l })),
        );
        expect(state.records().levels).toEqual(records);
      }),
    );
  });

  it("a product stocked at a ninth outlet keeps its first eight levels, in order, and a level replaced keeps its place", () => {
    const state = new InventoryState(10);
    for (let outlet = 0; outlet < 9; outlet++) state.put("p", level(outlet, outlet, outlet));
    state.put("p", level(2, 77, 9));
    expect(state.levelsOf("p").map((l) => [l.outlet_id, l.on_hand])).toEqual([
      ["outlet-0", 0],
      ["outlet-1", 1000],
      ["outlet-2", 77000],
      ["outlet-3", 3000],
      ["outlet-4", 4000],
      ["outlet-5", 5000],
      ["outlet-6", 6000],
      ["outlet-7", 7000],
      ["outlet-8", 8000],
    ]);
    expect(state.level("p", "outlet-8")?.seq).toBe(8);
    expect(state.level("p", "outlet-9")).toBeUndefined();
    expect(state.level("q", "outlet-0")).toBeUndefined();
  });
});
