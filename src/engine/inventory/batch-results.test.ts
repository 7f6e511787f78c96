// Tests of batch results and replays against the spec where no conformance rule holds the simulator
// (conformance/rules/inventory/ holds the rest, its strict profile the simulator's own choices):
// "Inventory rules" 1 and 4 in a batch, the set and adjust objects' reasons, and replays ("Limits",
// Idempotency) after the levels moved on or of a refusal, with the recorded choices
// (docs/spec-choices.md, "Inventory": a line without reason_id recorded under "Stock set via API").
// Limits, line shapes and refusals: batch.test.ts. "Writes nothing" is checked on the levels (with
// their versions) and on the control stock view (interfaces.md 3).
import { describe, expect, it } from "vitest";
import { demo, control, stockOf, levelAt, put, snapshot, batch } from "../../test-support/inventory.js";

describe("Spec, InventoryBatchLineResult and Inventory rule 1 in a batch", () => {
  it("a set line to the level the outlet already has answers changed false and delta 0, and keeps the level's version", async () => {
    const d = await demo();
    const socks = d.product["SOCKS-WOOL"];
    const level = await levelAt(d, socks, d.main);
    const reply = await batch(d, [{ product_id: socks, outlet_id: d.main, set: { on_hand: level!.on_hand } }]);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual([
      {
        product_id: socks,
        outlet_id: d.main,
        changed: false,
        previous: level!.on_hand,
        on_hand: level!.on_hand,
        delta: 0,
        replayed: false,
      },
    ]);
    expect(await levelAt(d, socks, d.main)).toStrictEqual(level);
  });

  it("Choices (a set without reason_id is recorded under Stock set via API; an adjust needs its reason): a set line without a reason succeeds while every other reason is disabled, an adjust line without one is 400", async () => {
    const d = await demo();
    for (const name of ["Stock received", "Damaged", "Stocktake"] as const) {
      expect(
        (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason[name]}`, { enabled: false })).status,
      ).toBe(200);
    }
    const reply = await batch(d, [{ sku: "MUG-ENAMEL", outlet_id: d.main, set: { on_hand: 1 } }]);
    expect(reply.status).toBe(200);
    expect(reply.json.data.map((l: { changed: boolean }) => l.changed)).toEqual([true]);
    const noReason = await batch(d, [{ sku: "MUG-ENAMEL", outlet_id: d.harbour, adjust: { quantity: 1 } }]);
    expect(noReason.status).toBe(400);
    expect(noReason.json.error.fields).toEqual([{ field: "lines.0.adjust.reason_id", message: "is required" }]);
  });

  it("Inventory rule 4 in a batch: a set's unit_cost replaces the average, an increase's blends (half up), a decrease's is ignored", async () => {
    const d = await demo();
    const [mug, cap] = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]];
    expect((await put(d, cap, d.main, { on_hand: 3, unit_cost: 1000 })).status).toBe(200);
    const reply = await batch(d, [
      { product_id: mug, outlet_id: d.main, set: { on_hand: 9, unit_cost: 333 } },
      // (3 x 1000 + 1 x 1002) / 4 = 4002 / 4 = 1000.5, half up: 1001
      {
        product_id: cap,
        outlet_id: d.main,
        adjust: { quantity: 1, unit_cost: 1002, reason_id: d.reason["Stocktake"] },
      },
      { product_id: mug, outlet_id: d.harbour, adjust: { quantity: -1, unit_cost: 1, reason_id: d.reason["Damaged"] } },
    ]);
    expect(reply.status).toBe(200);
    expect(await stockOf(d, mug, d.main)).toStrictEqual({ on_hand: 9, average_cost: 333 });
    expect(await stockOf(d, cap, d.main)).toStrictEqual({ on_hand: 4, average_cost: 1001 });
    expect((await stockOf(d, mug, d.harbour)).average_cost).toBe(600); // fixture: both(18, 9, 600)
  });
});

describe("Spec, Inventory rule 3 and Limits (idempotency): a replayed batch marks every line replayed: true", () => {
  it("a replay after the levels moved on still answers the original results and leaves the new levels alone", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const start = (await stockOf(d, mug, d.main)).on_hand;
    const lines = [{ product_id: mug, outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } }];
    const first = await batch(d, lines, "k-moved");
    expect(first.json.data[0]).toMatchObject({ previous: start, on_hand: start + 1 });
    expect((await put(d, mug, d.main, { on_hand: 2 })).status).toBe(200);
    const replay = await batch(d, lines, "k-moved");
    expect(replay.json.data).toStrictEqual([{ ...first.json.data[0], replayed: true }]);
    expect((await stockOf(d, mug, d.main)).on_hand).toBe(2);
  });

  it("Limits (a client error replays the same failure): a refused batch replays its 422 even after the reason is enabled, and writes nothing", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const lines = [{ product_id: mug, outlet_id: d.main, adjust: { quantity: -1, reason_id: d.reason["Theft"] } }];
    const first = await batch(d, lines, "k-theft");
    expect(first.status).toBe(422);
    expect(first.json.error.code).toBe("REASON_NOT_ALLOWED");
    expect(
      (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: true })).status,
    ).toBe(200);
    const before = await snapshot(d, mug);
    const replay = await batch(d, lines, "k-theft");
    expect(replay.status).toBe(422);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual(first.json);
    expect(await snapshot(d, mug)).toStrictEqual(before);
  });
});
