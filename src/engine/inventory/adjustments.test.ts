// Tests of relative adjustments against the spec where no conformance rule holds the simulator
// (conformance/rules/inventory/ holds the rest, its strict profile the simulator's own choices): the
// endpoint row for POST /inventory/adjustments, "Inventory rules" 2 (sku matching), 4 (average cost)
// and 5 (refusals) on this route, "InventoryLevel" (3 decimal places) and the recorded choices
// (docs/spec-choices.md, "Inventory": zero adjustment 400, body references 422 UNPROCESSABLE naming
// the field, average cost weighted and rounded half up, exact thousandths). The average cost is read
// through the control stock view (interfaces.md 3).
import { describe, expect, it } from "vitest";
import { call, type Reply } from "../../test-support/sim.js";
import {
  NO_SUCH_ID,
  demo,
  control,
  stockOf,
  levelsOf,
  levelAt,
  put,
  snapshot,
  adjust,
  type ReasonName,
} from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

describe("Spec, POST /inventory/adjustments: {product_id or sku, outlet_id, reason_id, quantity, unit_cost?}", () => {
  it("rule 2 (a sku is matched case-insensitively): lower and mixed case sku adjust TOTE-CANVAS", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.harbour)).on_hand;
    for (const [i, sku] of ["tote-canvas", "Tote-Canvas", "TOTE-CANVAS"].entries()) {
      const reply = await adjust(d, { sku, outlet_id: d.harbour, quantity: -1, reason_id: d.reason["Damaged"] });
      expect(reply.status, sku).toBe(201);
      expect(reply.json.data).toMatchObject({ changed: true, previous: start - i, on_hand: start - i - 1, delta: -1 });
    }
    expect((await stockOf(d, tote, d.harbour)).on_hand).toBe(start - 3);
  });

  it("rule 2 (never against barcodes): TOTE-CANVAS's EAN 4006381333931 and custom code TOTE01 as sku answer 422 UNPROCESSABLE naming sku", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    for (const sku of ["4006381333931", "TOTE01"]) {
      expectError(
        await adjust(d, { sku, outlet_id: d.main, quantity: 1, reason_id: d.reason["Stock received"] }),
        422,
        "UNPROCESSABLE",
        "sku",
      );
    }
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("rule 2 (live products only): a deleted product's sku and id answer 422 UNPROCESSABLE naming the field; an inactive product is still live", async () => {
    const d = await demo();
    const socks = d.product["SOCKS-WOOL"];
    const stock = await stockOf(d, socks, d.main);
    expect((await call(d.sim, "DELETE", `/demo/v1/products/${socks}`)).status).toBe(204);
    const reason_id = d.reason["Stock received"];
    expectError(
      await adjust(d, { sku: "SOCKS-WOOL", outlet_id: d.main, quantity: 1, reason_id }),
      422,
      "UNPROCESSABLE",
      "sku",
    );
    expectError(
      await adjust(d, { product_id: socks, outlet_id: d.main, quantity: 1, reason_id }),
      422,
      "UNPROCESSABLE",
      "product_id",
    );
    expect(await stockOf(d, socks, d.main)).toStrictEqual(stock);
    const scarf = await adjust(d, { sku: "scarf-knit", outlet_id: d.main, quantity: 2, reason_id });
    expect(scarf.status).toBe(201);
    expect(scarf.json.data).toMatchObject({ changed: true, previous: 0, on_hand: 2, delta: 2 });
  });

  it("rule 2 (exactly one of product_id or sku): both or neither answer 400 VALIDATION_FAILED naming product_id", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    const rest = { outlet_id: d.main, quantity: 1, reason_id: d.reason["Stock received"] };
    expectError(
      await adjust(d, { product_id: tote, sku: "TOTE-CANVAS", ...rest }),
      400,
      "VALIDATION_FAILED",
      "product_id",
    );
    expectError(await adjust(d, rest), 400, "VALIDATION_FAILED", "product_id");
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("Choices (body references): an unknown product id, sku or outlet answers 422 UNPROCESSABLE naming the field", async () => {
    const d = await demo();
    const reason_id = d.reason["Stock received"];
    expectError(
      await adjust(d, { product_id: NO_SUCH_ID, outlet_id: d.main, quantity: 1, reason_id }),
      422,
      "UNPROCESSABLE",
      "product_id",
    );
    expectError(
      await adjust(d, { sku: "NO-SUCH-SKU", outlet_id: d.main, quantity: 1, reason_id }),
      422,
      "UNPROCESSABLE",
      "sku",
    );
    expectError(
      await adjust(d, { product_id: d.product["TOTE-CANVAS"], outlet_id: NO_SUCH_ID, quantity: 1, reason_id }),
      422,
      "UNPROCESSABLE",
      "outlet_id",
    );
  });

  it("endpoint row (reason_id is not optional on adjustments): leaving it out answers 400 naming reason_id", async () => {
    const d = await demo();
    expectError(
      await adjust(d, { product_id: d.product["TOTE-CANVAS"], outlet_id: d.main, quantity: 1 }),
      400,
      "VALIDATION_FAILED",
      "reason_id",
    );
  });

  it("Choices (a zero adjustment; 3 decimal places): quantity 0 and a 4th decimal answer 400 naming quantity", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    const before = await snapshot(d, beans);
    const rest = { product_id: beans, outlet_id: d.main, reason_id: d.reason["Stocktake"] };
    for (const quantity of [0, 0.0001, -0.0005, 1.2345])
      expectError(await adjust(d, { ...rest, quantity }), 400, "VALIDATION_FAILED", "quantity");
    expect(await snapshot(d, beans)).toStrictEqual(before);
  });
});

describe("Spec, Inventory rule 5: refusals of adjustments", () => {
  it("Choices (direction checked for adjustments too): Damaged on an increase and Stock received on a decrease answer 422 REASON_DIRECTION_MISMATCH; matching and Stocktake work", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    const rest = { product_id: tote, outlet_id: d.main };
    expectError(
      await adjust(d, { ...rest, quantity: 1, reason_id: d.reason["Damaged"] }),
      422,
      "REASON_DIRECTION_MISMATCH",
      "reason_id",
    );
    expectError(
      await adjust(d, { ...rest, quantity: -1, reason_id: d.reason["Stock received"] }),
      422,
      "REASON_DIRECTION_MISMATCH",
      "reason_id",
    );
    expect(await snapshot(d, tote)).toStrictEqual(before);
    const ok: [number, ReasonName][] = [
      [2, "Stock received"],
      [-1, "Damaged"],
      [3, "Stocktake"],
      [-2, "Stocktake"],
    ];
    let level = before.main.on_hand;
    for (const [quantity, name] of ok) {
      const reply = await adjust(d, { ...rest, quantity, reason_id: d.reason[name] });
      expect(reply.status, name).toBe(201);
      expect(reply.json.data).toMatchObject({ previous: level, on_hand: level + quantity, delta: quantity });
      level += quantity;
    }
  });

  it("OUTLET_DELETED: an adjustment at a deleted outlet answers 422 and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await stockOf(d, tote, d.harbour);
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`)).status).toBe(204);
    expectError(
      await adjust(d, { product_id: tote, outlet_id: d.harbour, quantity: 1, reason_id: d.reason["Stock received"] }),
      422,
      "OUTLET_DELETED",
      "outlet_id",
    );
    expect(await stockOf(d, tote, d.harbour)).toStrictEqual(before);
  });

  it("NOT_STOCK_TRACKED: adjusting SERVICE-GIFTWRAP by id or GIFTCARD by sku answers 422", async () => {
    const d = await demo();
    const reason_id = d.reason["Stock received"];
    for (const target of [{ product_id: d.product["SERVICE-GIFTWRAP"] }, { sku: "giftcard" }]) {
      const reply = await adjust(d, { ...target, outlet_id: d.main, quantity: 1, reason_id });
      expect(reply.status).toBe(422);
      expect(reply.json.error.code).toBe("NOT_STOCK_TRACKED");
    }
    expect(await levelsOf(d, d.product["SERVICE-GIFTWRAP"])).toStrictEqual([]);
    expect(await levelsOf(d, d.product["GIFTCARD"])).toStrictEqual([]);
  });
});

describe("Spec, Inventory rule 4: unit_cost and the average cost (Choices: weighted by quantity, rounded half up)", () => {
  it("a set with unit_cost replaces the average; an increase with unit_cost blends; a decrease with unit_cost or a left-out unit_cost keeps it", async () => {
    const d = await demo();
    const cap = d.product["CAP-BASEBALL"];
    expect((await stockOf(d, cap, d.main)).average_cost).toBe(500); // fixture: both(15, 6, 500)
    const set = (body: unknown) => put(d, cap, d.main, body);
    const adj = (quantity: number, name: ReasonName, unit_cost?: number) =>
      adjust(d, {
        product_id: cap,
        outlet_id: d.main,
        quantity,
        reason_id: d.reason[name],
        ...(unit_cost === undefined ? {} : { unit_cost }),
      });
    const steps: [() => Promise<Reply>, number, number][] = [
      // A set with unit_cost: the cost becomes the average (even though the level goes down).
      [() => set({ on_hand: 10, unit_cost: 1000 }), 10, 1000],
      // (10 x 1000 + 5 x 1300) / 15 = 16500 / 15 = 1100
      [() => adj(5, "Stock received", 1300), 15, 1100],
      // (15 x 1100 + 1 x 1108) / 16 = 17608 / 16 = 1100.5, half up: 1101
      [() => adj(1, "Stock received", 1108), 16, 1101],
      // a decrease ignores its unit_cost
      [() => adj(-4, "Damaged", 5000), 12, 1101],
      // an increase without unit_cost keeps the average
      [() => adj(3, "Stocktake"), 15, 1101],
      // a set without unit_cost keeps the average
      [() => set({ on_hand: 20 }), 20, 1101],
      // a set that changes nothing keeps it even with a unit_cost (Choices: repeating the same on_hand)
      [() => set({ on_hand: 20, unit_cost: 999 }), 20, 1101],
      // a set with unit_cost replaces it again
      [() => set({ on_hand: 4, unit_cost: 700 }), 4, 700],
      // (4 x 700 + 2 x 701) / 6 = 4202 / 6 = 700.33, rounds down: 700
      [() => adj(2, "Stock received", 701), 6, 700],
      // (6 x 700 + 1 x 1003) / 7 = 5203 / 7 = 743.29: 743
      [() => adj(1, "Stocktake", 1003), 7, 743],
      // (7 x 743 + 3 x 0) / 10 = 5201 / 10 = 520.1: 520 (a zero cost blends too)
      [() => adj(3, "Stock received", 0), 10, 520],
    ];
    for (const [i, [step, on_hand, average_cost]] of steps.entries()) {
      const reply = await step();
      expect([200, 201], `step ${i}`).toContain(reply.status);
      expect(await stockOf(d, cap, d.main), `step ${i}`).toStrictEqual({ on_hand, average_cost });
    }
    // The other outlet's average is untouched.
    expect((await stockOf(d, cap, d.harbour)).average_cost).toBe(500);
  });

  it("blending with fractional quantities is exact: 0.3 at 1000 plus 0.1 at 1002 is 400.2 / 0.4 = 1000.5, half up 1001", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    expect((await put(d, beans, d.main, { on_hand: 0.3, unit_cost: 1000 })).status).toBe(200);
    expect(await stockOf(d, beans, d.main)).toStrictEqual({ on_hand: 0.3, average_cost: 1000 });
    expect(
      (
        await adjust(d, {
          product_id: beans,
          outlet_id: d.main,
          quantity: 0.1,
          reason_id: d.reason["Stock received"],
          unit_cost: 1002,
        })
      ).status,
    ).toBe(201);
    expect(await stockOf(d, beans, d.main)).toStrictEqual({ on_hand: 0.4, average_cost: 1001 });
  });

  it("an increase from zero stock takes the unit_cost as the average: (0 x 1800 + 2 x 850) / 2 = 850", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    expect(
      (await adjust(d, { product_id: beans, outlet_id: d.harbour, quantity: -3.25, reason_id: d.reason["Damaged"] }))
        .status,
    ).toBe(201);
    expect(await stockOf(d, beans, d.harbour)).toStrictEqual({ on_hand: 0, average_cost: 1800 });
    expect(
      (
        await adjust(d, {
          product_id: beans,
          outlet_id: d.harbour,
          quantity: 2,
          reason_id: d.reason["Stock received"],
          unit_cost: 850,
        })
      ).status,
    ).toBe(201);
    expect(await stockOf(d, beans, d.harbour)).toStrictEqual({ on_hand: 2, average_cost: 850 });
  });
});

describe("Spec, InventoryLevel (up to 3 decimal places) and Choices (exact thousandths: 0.1 + 0.2 is 0.3)", () => {
  it("a set to 0.1 then +0.2 reads back 0.3; a set of 0.1 + 0.2 reads back 0.3 and repeating 0.3 changes nothing", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    expect((await put(d, beans, d.main, { on_hand: 0.1 })).json.data).toMatchObject({
      previous: 12.5,
      on_hand: 0.1,
      delta: -12.4,
    });
    const plus = await adjust(d, {
      product_id: beans,
      outlet_id: d.main,
      quantity: 0.2,
      reason_id: d.reason["Stock received"],
    });
    expect(plus.json.data).toMatchObject({ previous: 0.1, on_hand: 0.3, delta: 0.2 });
    expect((await levelAt(d, beans, d.main))!.on_hand).toBe(0.3);
    const sum = await put(d, beans, d.harbour, { on_hand: 0.1 + 0.2 });
    expect(sum.json.data).toMatchObject({ changed: true, previous: 3.25, on_hand: 0.3, delta: -2.95 });
    expect((await levelAt(d, beans, d.harbour))!.on_hand).toBe(0.3);
    expect((await put(d, beans, d.harbour, { on_hand: 0.3 })).json.data).toMatchObject({ changed: false, delta: 0 });
  });
});
