// Tests of absolute stock sets against the spec where no conformance rule holds the simulator
// (conformance/rules/inventory/ holds the rest, its strict profile the simulator's own choices): the
// system reason of "Inventory rules" 1, reasons of either direction, body validation, path 404s and
// replayed refusals ("Limits", Idempotency), with the recorded choices (docs/spec-choices.md,
// "Inventory"). Reason switches and the stock view come from interfaces.md section 3. The demo fixture
// adds a seeded 0..10 to most quantities, so starting levels are read, never assumed.
import { describe, expect, it } from "vitest";
import { call } from "../../test-support/sim.js";
import { NO_SUCH_ID, uuid, demo, control, stockOf, put, type ReasonName } from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

describe("Spec, PUT /products/{id}/inventory/{outlet_id}: Stock write result and Inventory rule 1", () => {
  it("rule 1 (without reason_id the set is recorded under the system reason): with every other reason disabled, a set without reason_id still succeeds", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    for (const name of ["Stock received", "Damaged", "Stocktake"] as const) {
      expect(
        (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason[name]}`, { enabled: false })).status,
      ).toBe(200);
    }
    const implicit = await put(d, tote, d.main, { on_hand: 3 });
    expect(implicit.status).toBe(200);
    expect(implicit.json.data).toMatchObject({ changed: true, on_hand: 3, adjustment_id: uuid, movement_id: uuid });
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

  it("Choices (a negative absolute set): 400 VALIDATION_FAILED on on_hand", async () => {
    const d = await demo();
    expectError(await put(d, d.product["TOTE-CANVAS"], d.main, { on_hand: -1 }), 400, "VALIDATION_FAILED", "on_hand");
  });

  it("Resources (no unknown properties; on_hand a number): unknown keys and on_hand as text answer 400 naming the field", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    expectError(await put(d, tote, d.main, { on_hand: 1, quantity: 1 }), 400, "VALIDATION_FAILED", "quantity");
    expectError(await put(d, tote, d.main, { on_hand: "1" }), 400, "VALIDATION_FAILED", "on_hand");
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
