// Tests of batch results and replays against the spec: "InventoryBatchLineResult" (sku echoed only
// when the line was given by sku; replayed true only on an idempotency replay), "Inventory rules" 3 and
// 4, the Idempotency paragraph of "Limits", and the recorded choices (docs/spec-choices.md, "Inventory":
// batch lines always filled, `replayed` false on every line of a first answer, a line without
// reason_id recorded under "Stock set via API"). Limits, line shapes and all-or-nothing refusals:
// batch.test.ts. "Writes nothing" is checked on the levels (with their versions) and on the
// control stock view (interfaces.md 3).
import { describe, expect, it } from "vitest";
import { demo, control, stockOf, levelAt, put, snapshot, snapshotAll, batch } from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

describe("Spec, InventoryBatchLineResult: product_id, outlet_id, changed, previous, on_hand, delta; sku only when given by sku; replayed", () => {
  it("echoes sku (as sent) only on lines given by sku, and answers replayed false; a set to the same level answers changed false, delta 0", async () => {
    const d = await demo();
    const [mug, cap, socks] = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"], d.product["SOCKS-WOOL"]];
    const mugMain = (await stockOf(d, mug, d.main)).on_hand;
    const capHarbour = (await stockOf(d, cap, d.harbour)).on_hand;
    const socksMain = (await stockOf(d, socks, d.main)).on_hand;
    const reply = await batch(d, [
      { sku: "mug-enamel", outlet_id: d.main, set: { on_hand: 40 } },
      { product_id: cap, outlet_id: d.harbour, adjust: { quantity: -2, reason_id: d.reason["Damaged"] } },
      { sku: "Socks-Wool", outlet_id: d.main, set: { on_hand: socksMain } },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: [
        {
          product_id: mug,
          outlet_id: d.main,
          sku: "mug-enamel",
          changed: true,
          previous: mugMain,
          on_hand: 40,
          delta: 40 - mugMain,
          replayed: false,
        },
        {
          product_id: cap,
          outlet_id: d.harbour,
          changed: true,
          previous: capHarbour,
          on_hand: capHarbour - 2,
          delta: -2,
          replayed: false,
        },
        {
          product_id: socks,
          outlet_id: d.main,
          sku: "Socks-Wool",
          changed: false,
          previous: socksMain,
          on_hand: socksMain,
          delta: 0,
          replayed: false,
        },
      ],
    });
    expect((await levelAt(d, mug, d.main))!.on_hand).toBe(40);
    expect((await levelAt(d, cap, d.harbour))!.on_hand).toBe(capHarbour - 2);
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
  it("a retry with the same key returns the identical results with replayed true and Idempotent-Replayed: true, and writes nothing twice", async () => {
    const d = await demo();
    const [mug, cap] = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]];
    const lines = [
      { product_id: mug, outlet_id: d.main, adjust: { quantity: 2, unit_cost: 800, reason_id: d.reason["Stocktake"] } },
      { sku: "cap-baseball", outlet_id: d.harbour, set: { on_hand: 11 } },
    ];
    const first = await batch(d, lines, "nightly-sync");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).not.toBe("true");
    expect(first.json.data.map((l: { replayed: boolean }) => l.replayed)).toEqual([false, false]);
    const after = await snapshotAll(d, [mug, cap]);
    const replay = await batch(d, lines, "nightly-sync");
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual({ data: first.json.data.map((l: object) => ({ ...l, replayed: true })) });
    expect(await snapshotAll(d, [mug, cap])).toStrictEqual(after);
  });

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

  it("a different body with the same key answers 422 IDEMPOTENCY_KEY_REUSED and writes nothing", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    expect(
      (
        await batch(
          d,
          [{ product_id: mug, outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } }],
          "k-reused",
        )
      ).status,
    ).toBe(200);
    const after = await snapshot(d, mug);
    const reply = await batch(
      d,
      [{ product_id: mug, outlet_id: d.main, adjust: { quantity: 5, reason_id: d.reason["Stocktake"] } }],
      "k-reused",
    );
    expectError(reply, 422, "IDEMPOTENCY_KEY_REUSED");
    expect(await snapshot(d, mug)).toStrictEqual(after);
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
