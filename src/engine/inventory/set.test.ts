// Tests of absolute stock sets against the spec: "Stock write result", the endpoint row for
// PUT /products/{id}/inventory/{outlet_id}, "Inventory rules" 1, 4 and 5, "Errors", "Versioning" 3,
// the Idempotency paragraph of "Limits" and the recorded choices (docs/spec-choices.md, "Inventory").
// Deleted outlets, reason switches and the stock view come from interfaces.md section 3. The demo
// fixture adds a seeded 0..10 to most quantities, so starting levels are read, never assumed
// (COFFEE-BEANS is exact: 12.5 at Main Street, 3.25 at Harbour Front).
import { describe, expect, it } from "vitest";
import { call } from "../../test-support/sim.js";
import {
  NO_SUCH_ID,
  uuid,
  demo,
  control,
  stockOf,
  levelsOf,
  levelAt,
  put,
  snapshot,
  type ReasonName,
} from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

describe("Spec, PUT /products/{id}/inventory/{outlet_id}: Stock write result and Inventory rule 1", () => {
  it("answers 200 with exactly {changed, previous, on_hand, delta, adjustment_id, movement_id} and stores the level", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const previous = (await stockOf(d, tote, d.main)).on_hand;
    const reply = await put(d, tote, d.main, { on_hand: 5 });
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: { changed: true, previous, on_hand: 5, delta: 5 - previous, adjustment_id: uuid, movement_id: uuid },
    });
    expect((await levelAt(d, tote, d.main))!.on_hand).toBe(5);
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(5);
  });

  it("an increase answers a positive delta; three decimals are kept exactly (1234.567)", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    const reply = await put(d, beans, d.harbour, { on_hand: 1234.567 });
    expect(reply.json).toStrictEqual({
      data: {
        changed: true,
        previous: 3.25,
        on_hand: 1234.567,
        delta: 1231.317,
        adjustment_id: uuid,
        movement_id: uuid,
      },
    });
    expect((await levelAt(d, beans, d.harbour))!.on_hand).toBe(1234.567);
  });

  it("rule 1: repeating the same on_hand answers changed false, delta 0 and null ids, and keeps version and average cost (even with a unit_cost)", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    expect((await put(d, tote, d.main, { on_hand: 7, unit_cost: 1200 })).json.data.changed).toBe(true);
    const level = await levelAt(d, tote, d.main);
    expect(await stockOf(d, tote, d.main)).toStrictEqual({ on_hand: 7, average_cost: 1200 });
    for (const body of [
      { on_hand: 7 },
      { on_hand: 7, unit_cost: 5 },
      { on_hand: 7.0, reason_id: d.reason["Stocktake"] },
    ]) {
      const reply = await put(d, tote, d.main, body);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({
        data: { changed: false, previous: 7, on_hand: 7, delta: 0, adjustment_id: null, movement_id: null },
      });
    }
    expect(await levelAt(d, tote, d.main)).toStrictEqual(level);
    expect(await stockOf(d, tote, d.main)).toStrictEqual({ on_hand: 7, average_cost: 1200 });
  });

  it("rule 1: without reason_id the set is recorded under the system reason, which cannot be sent explicitly (422 REASON_NOT_ALLOWED)", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    const explicit = await put(d, tote, d.main, { on_hand: 3, reason_id: d.reason["Stock set via API"] });
    expectError(explicit, 422, "REASON_NOT_ALLOWED", "reason_id");
    expect(await snapshot(d, tote)).toStrictEqual(before);
    // Every other reason disabled: a set without reason_id still succeeds (it uses the system reason).
    for (const name of ["Stock received", "Damaged", "Stocktake"] as const) {
      expect(
        (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason[name]}`, { enabled: false })).status,
      ).toBe(200);
    }
    const implicit = await put(d, tote, d.main, { on_hand: 3 });
    expect(implicit.status).toBe(200);
    expect(implicit.json.data).toMatchObject({ changed: true, on_hand: 3, adjustment_id: uuid, movement_id: uuid });
  });

  it("rule 5: a disabled reason (Theft) answers 422 REASON_NOT_ALLOWED and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    expectError(
      await put(d, tote, d.main, { on_hand: 1, reason_id: d.reason["Theft"] }),
      422,
      "REASON_NOT_ALLOWED",
      "reason_id",
    );
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("rule 5: a reason that does not match the direction answers 422 REASON_DIRECTION_MISMATCH (Stock received down, Damaged up) and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const before = await snapshot(d, tote);
    expectError(
      await put(d, tote, d.main, { on_hand: start - 1, reason_id: d.reason["Stock received"] }),
      422,
      "REASON_DIRECTION_MISMATCH",
      "reason_id",
    );
    expectError(
      await put(d, tote, d.main, { on_hand: start + 1, reason_id: d.reason["Damaged"] }),
      422,
      "REASON_DIRECTION_MISMATCH",
      "reason_id",
    );
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("rule 5: matching reasons are accepted (Stock received up, Damaged down) and Stocktake (any) works both ways", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const steps: [number, ReasonName][] = [
      [start + 4, "Stock received"],
      [start + 1, "Damaged"],
      [start + 6, "Stocktake"],
      [start - 2, "Stocktake"],
    ];
    let previous = start;
    for (const [on_hand, name] of steps) {
      const reply = await put(d, tote, d.main, { on_hand, reason_id: d.reason[name] });
      expect(reply.status, name).toBe(200);
      expect(reply.json.data).toStrictEqual({
        changed: true,
        previous,
        on_hand,
        delta: on_hand - previous,
        adjustment_id: uuid,
        movement_id: uuid,
      });
      previous = on_hand;
    }
  });

  it("Choices (reason checks): an unknown reason_id answers 422 UNPROCESSABLE naming reason_id", async () => {
    const d = await demo();
    expectError(
      await put(d, d.product["TOTE-CANVAS"], d.main, { on_hand: 1, reason_id: NO_SUCH_ID }),
      422,
      "UNPROCESSABLE",
      "reason_id",
    );
  });

  it("InventoryLevel (up to 3 decimal places): a 4th decimal answers 400 VALIDATION_FAILED on on_hand", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    for (const on_hand of [1.0001, 2.0005, 12.5001])
      expectError(await put(d, beans, d.main, { on_hand }), 400, "VALIDATION_FAILED", "on_hand");
    expect((await levelAt(d, beans, d.main))!.on_hand).toBe(12.5);
  });

  it("Choices (a negative absolute set): 400 VALIDATION_FAILED on on_hand", async () => {
    const d = await demo();
    expectError(await put(d, d.product["TOTE-CANVAS"], d.main, { on_hand: -1 }), 400, "VALIDATION_FAILED", "on_hand");
  });

  it("Resources (no unknown properties; unit_cost integer cents): unknown keys and non-integer unit_cost answer 400", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    expectError(await put(d, tote, d.main, { on_hand: 1, quantity: 1 }), 400, "VALIDATION_FAILED", "quantity");
    expectError(await put(d, tote, d.main, { on_hand: 1, unit_cost: 9.5 }), 400, "VALIDATION_FAILED", "unit_cost");
    expectError(await put(d, tote, d.main, { on_hand: "1" }), 400, "VALIDATION_FAILED", "on_hand");
  });

  it("rule 5 and Versioning 3: a set at a deleted outlet answers 422 OUTLET_DELETED and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await stockOf(d, tote, d.harbour);
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`)).status).toBe(204);
    expectError(
      await put(d, tote, d.harbour, { on_hand: before.on_hand + 3, unit_cost: 1 }),
      422,
      "OUTLET_DELETED",
      "outlet_id",
    );
    expect(await stockOf(d, tote, d.harbour)).toStrictEqual(before);
  });

  it("rule 5: a product that tracks no stock answers 422 NOT_STOCK_TRACKED", async () => {
    const d = await demo();
    for (const sku of ["SERVICE-GIFTWRAP", "GIFTCARD"] as const) {
      expectError(await put(d, d.product[sku], d.main, { on_hand: 1 }), 422, "NOT_STOCK_TRACKED");
      expect(await levelsOf(d, d.product[sku])).toStrictEqual([]);
    }
  });

  it("Choices (unknown product or outlet in the path): 404 NOT_FOUND, including a deleted product and another store's outlet", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const otherOutlets = await call(d.sim, "GET", "/other/v1/outlets");
    expect((await call(d.sim, "DELETE", `/demo/v1/products/${d.product["CAP-BASEBALL"]}`)).status).toBe(204);
    const targets: [string, string][] = [
      [NO_SUCH_ID, d.main],
      [tote, NO_SUCH_ID],
      ["nope", d.main],
      [tote, "nope"],
      [d.product["CAP-BASEBALL"], d.main],
      [tote, otherOutlets.json.data[0].id],
    ];
    for (const [product, outlet] of targets) {
      const reply = await put(d, product, outlet, { on_hand: 1 });
      expect(reply.status, `${product}/${outlet}`).toBe(404);
      expect(reply.json.error.code).toBe("NOT_FOUND");
    }
  });

  it("Limits (Idempotency-Key optional on PUT of stock): without a key each call runs; with a key a retry replays and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const first = await put(d, tote, d.main, { on_hand: 5 }, { "Idempotency-Key": "set-5" });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).not.toBe("true");
    expect((await put(d, tote, d.main, { on_hand: 9 })).json.data).toMatchObject({
      changed: true,
      previous: 5,
      on_hand: 9,
    });
    const replay = await put(d, tote, d.main, { on_hand: 5 }, { "Idempotency-Key": "set-5" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual(first.json);
    expect(replay.json.data).toMatchObject({ changed: true, previous: start, on_hand: 5 });
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(9);
    expectError(
      await put(d, tote, d.main, { on_hand: 6 }, { "Idempotency-Key": "set-5" }),
      422,
      "IDEMPOTENCY_KEY_REUSED",
    );
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(9);
  });

  it("Limits (a client error replays the same failure): a refused set replays its 422 even after the cause is gone", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const body = { on_hand: 1, reason_id: d.reason["Theft"] };
    const first = await put(d, tote, d.main, body, { "Idempotency-Key": "theft-1" });
    expectError(first, 422, "REASON_NOT_ALLOWED", "reason_id");
    expect(
      (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: true })).status,
    ).toBe(200);
    const replay = await put(d, tote, d.main, body, { "Idempotency-Key": "theft-1" });
    expect(replay.status).toBe(422);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual(first.json);
  });
});
