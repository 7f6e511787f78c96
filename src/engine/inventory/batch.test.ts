// Tests of batch stock writes against the spec where no conformance rule holds the simulator
// (conformance/rules/inventory/ holds the rest, its strict profile the simulator's own choices): a
// batch of 100 lines, the set and adjust objects (docs/spec-choices.md, "Inventory": set {on_hand,
// reason_id?, unit_cost?}, adjust {quantity, reason_id, unit_cost?}), refused reasons in a batch, and
// "Errors" (nested fields named with dots such as `lines.2.adjust.reason_id`). "Writes nothing" is
// checked on the levels (with their versions) and on the control stock view (interfaces.md 3). Line
// results and replays: batch-results.test.ts.
import { describe, expect, it } from "vitest";
import { call } from "../../test-support/sim.js";
import { demo, levelsOf, snapshotAll, batch, type Demo } from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

async function createProducts(d: Demo, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const reply = await call(d.sim, "POST", "/demo/v1/products", {
      key: "catalog:write",
      body: { name: `Batch item ${i}`, retail_price: 100 },
    });
    expect(reply.status).toBe(201);
    ids.push(reply.json.data.id);
  }
  return ids;
}

describe("Spec, POST /inventory/batch: {lines: [...]}, 1 to 100 lines (Limits: batch lines 100)", () => {
  it("100 lines are accepted: one result per line, in line order", async () => {
    const d = await demo();
    const ids = await createProducts(d, 50);
    const lines = ids.flatMap((product_id, i) => [
      { product_id, outlet_id: d.main, set: { on_hand: i + 1 } },
      { product_id, outlet_id: d.harbour, adjust: { quantity: 0.5, reason_id: d.reason["Stocktake"] } },
    ]);
    expect(lines).toHaveLength(100);
    const reply = await batch(d, lines);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(
      ids.flatMap((product_id, i) => [
        { product_id, outlet_id: d.main, changed: true, previous: 0, on_hand: i + 1, delta: i + 1, replayed: false },
        { product_id, outlet_id: d.harbour, changed: true, previous: 0, on_hand: 0.5, delta: 0.5, replayed: false },
      ]),
    );
    expect((await levelsOf(d, ids[49]!)).map((l) => [l.outlet_id, l.on_hand]).sort()).toEqual(
      [
        [d.main, 50],
        [d.harbour, 0.5],
      ].sort(),
    );
  });
});

describe("Spec, Inventory rule 2: each line has exactly one of set or adjust, exactly one of product_id or sku, plus outlet_id", () => {
  const ok = (d: Demo) => ({
    product_id: d.product["MUG-ENAMEL"],
    outlet_id: d.main,
    adjust: { quantity: 1, reason_id: d.reason["Stocktake"] },
  });

  it("Choices (set {on_hand, reason_id?, unit_cost?}, adjust {quantity, reason_id, unit_cost?}): unknown keys, a negative set and a 4th decimal answer 400 naming the nested field", async () => {
    const d = await demo();
    const base = { product_id: d.product["CAP-BASEBALL"], outlet_id: d.main };
    expectError(
      await batch(d, [ok(d), { ...base, set: { on_hand: 1, quantity: 1 } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.set.quantity",
    );
    expectError(
      await batch(d, [ok(d), { ...base, set: { on_hand: -1 } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.set.on_hand",
    );
    expectError(
      await batch(d, [ok(d), { ...base, adjust: { quantity: 0.0001, reason_id: d.reason["Stocktake"] } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.adjust.quantity",
    );
    expectError(
      await batch(d, [ok(d), { ...base, adjust: { quantity: 1, unit_cost: 1.5, reason_id: d.reason["Stocktake"] } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.adjust.unit_cost",
    );
  });

  it("Choices (a zero adjustment is 400 on quantity; batch objects mirror the single calls): adjust {quantity: 0} answers 400 naming lines.1.adjust.quantity and writes nothing", async () => {
    const d = await demo();
    const products = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]];
    const before = await snapshotAll(d, products);
    const reply = await batch(d, [
      ok(d),
      {
        product_id: d.product["CAP-BASEBALL"],
        outlet_id: d.main,
        adjust: { quantity: 0, reason_id: d.reason["Stocktake"] },
      },
    ]);
    expectError(reply, 400, "VALIDATION_FAILED", "lines.1.adjust.quantity");
    expect(await snapshotAll(d, products)).toStrictEqual(before);
  });
});

describe("Spec, Inventory rules 3 and 5: a batch is all or nothing; a bad line writes nothing and is named in fields", () => {
  // The reasons no conformance rule sends in a batch (a disabled one, one of the wrong direction); the
  // other refusals are conformance/rules/inventory/batch.ts.
  const cases = [
    {
      rule: "rule 5 REASON_NOT_ALLOWED (disabled reason Theft)",
      code: "REASON_NOT_ALLOWED",
      line: (d: Demo) => ({
        sku: "SOCKS-WOOL",
        outlet_id: d.main,
        adjust: { quantity: -1, reason_id: d.reason["Theft"] },
      }),
    },
    {
      rule: "rule 5 REASON_DIRECTION_MISMATCH (Damaged on an increase)",
      code: "REASON_DIRECTION_MISMATCH",
      line: (d: Demo) => ({
        sku: "SOCKS-WOOL",
        outlet_id: d.main,
        adjust: { quantity: 1, reason_id: d.reason["Damaged"] },
      }),
    },
  ];

  for (const c of cases) {
    it(`${c.rule}: 422 ${c.code} naming lines.2.adjust.reason_id, and levels, versions and stock views are unchanged`, async () => {
      const d = await demo();
      const products = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"], d.product["SOCKS-WOOL"]];
      const before = await snapshotAll(d, products);
      const lines = [
        { product_id: d.product["MUG-ENAMEL"], outlet_id: d.main, set: { on_hand: 77, unit_cost: 1 } },
        {
          sku: "CAP-BASEBALL",
          outlet_id: d.main,
          adjust: { quantity: 5, unit_cost: 99999, reason_id: d.reason["Stocktake"] },
        },
        c.line(d),
        {
          product_id: d.product["SOCKS-WOOL"],
          outlet_id: d.main,
          adjust: { quantity: 1, reason_id: d.reason["Stocktake"] },
        },
      ];
      const reply = await batch(d, lines);
      expectError(reply, 422, c.code, "lines.2.adjust.reason_id");
      expect(reply.json.error.fields).toHaveLength(1);
      expect(await snapshotAll(d, products)).toStrictEqual(before);
    });
  }

  it("Errors (nested fields are named with dots along the request): refusals inside adjust name lines.N.adjust.quantity and lines.N.adjust.reason_id", async () => {
    const d = await demo();
    const mug = {
      product_id: d.product["MUG-ENAMEL"],
      outlet_id: d.main,
      adjust: { quantity: 1, reason_id: d.reason["Stocktake"] },
    };
    const socks = { sku: "SOCKS-WOOL", outlet_id: d.main };
    const replies = [
      await batch(d, [mug, { ...socks, adjust: { quantity: -1000, reason_id: d.reason["Stocktake"] } }]),
      await batch(d, [mug, { ...socks, adjust: { quantity: -1, reason_id: d.reason["Theft"] } }]),
      await batch(d, [mug, { ...socks, set: { on_hand: 0, reason_id: d.reason["Stock received"] } }]),
    ];
    expect(
      replies.map((r) => [r.status, r.json.error.code, r.json.error.fields?.map((f: { field: string }) => f.field)]),
    ).toStrictEqual([
      [422, "INSUFFICIENT_STOCK", ["lines.1.adjust.quantity"]],
      [422, "REASON_NOT_ALLOWED", ["lines.1.adjust.reason_id"]],
      [422, "REASON_DIRECTION_MISMATCH", ["lines.1.set.reason_id"]],
    ]);
  });
});
