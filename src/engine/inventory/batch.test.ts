// Tests of batch stock writes against the spec: the endpoint row for POST /inventory/batch,
// "InventoryBatchLineResult", "Inventory rules" 2 to 5, "Errors" (nested fields named with dots such as
// `lines.2`), "Limits" (100 batch lines; idempotency) and the recorded choices (docs/spec-choices.md,
// "Inventory": status 200, set {on_hand, reason_id?, unit_cost?} and adjust {quantity, reason_id?,
// unit_cost?}, body references 422 UNPROCESSABLE naming `lines.N.field`, `replayed` false on every line
// and true on a replay, a repeated pair 400 naming the later line). "Writes nothing" is checked on the
// levels (with their versions) and on the control stock view (interfaces.md 3). Line results and
// replays: batch-results.test.ts.
import { describe, expect, it } from "vitest";
import { call } from "../../test-support/sim.js";
import {
  NO_SUCH_ID,
  demo,
  control,
  stockOf,
  levelsOf,
  levelAt,
  snapshot,
  snapshotAll,
  batch,
  type Demo,
} from "../../test-support/inventory.js";
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
  it("Choices (status 200): one line answers {data: [InventoryBatchLineResult]}", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const previous = (await stockOf(d, mug, d.main)).on_hand;
    const reply = await batch(d, [
      { product_id: mug, outlet_id: d.main, adjust: { quantity: 2, reason_id: d.reason["Stocktake"] } },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: [
        {
          product_id: mug,
          outlet_id: d.main,
          changed: true,
          previous,
          on_hand: previous + 2,
          delta: 2,
          replayed: false,
        },
      ],
    });
    expect((await levelAt(d, mug, d.main))!.on_hand).toBe(previous + 2);
  });

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

  it("0 lines and 101 lines answer 400 VALIDATION_FAILED naming lines, and write nothing", async () => {
    const d = await demo();
    const ids = await createProducts(d, 51);
    const lines = ids
      .flatMap((product_id) => [d.main, d.harbour].map((outlet_id) => ({ product_id, outlet_id, set: { on_hand: 1 } })))
      .slice(0, 101);
    expect(lines).toHaveLength(101);
    expectError(await batch(d, []), 400, "VALIDATION_FAILED", "lines");
    expectError(await batch(d, lines), 400, "VALIDATION_FAILED", "lines");
    expect(await levelsOf(d, ids[0]!)).toStrictEqual([]);
    expect(await levelsOf(d, ids[50]!)).toStrictEqual([]);
  });

  it("Limits and Errors (Idempotency-Key required): a missing key answers 400 naming Idempotency-Key and writes nothing", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const before = await snapshot(d, mug);
    const reply = await call(d.sim, "POST", "/demo/v1/inventory/batch", {
      body: { lines: [{ product_id: mug, outlet_id: d.main, set: { on_hand: 1 } }] },
    });
    expectError(reply, 400, "VALIDATION_FAILED", "Idempotency-Key");
    expect(await snapshot(d, mug)).toStrictEqual(before);
  });
});

describe("Spec, Inventory rule 2: each line has exactly one of set or adjust, exactly one of product_id or sku, plus outlet_id", () => {
  const ok = (d: Demo) => ({
    product_id: d.product["MUG-ENAMEL"],
    outlet_id: d.main,
    adjust: { quantity: 1, reason_id: d.reason["Stocktake"] },
  });

  it("both set and adjust, or neither, answer 400 naming the line (lines.1); nothing written", async () => {
    const d = await demo();
    const before = await snapshotAll(d, [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]]);
    const base = { product_id: d.product["CAP-BASEBALL"], outlet_id: d.main };
    expectError(
      await batch(d, [
        ok(d),
        { ...base, set: { on_hand: 1 }, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
      ]),
      400,
      "VALIDATION_FAILED",
      "lines.1",
    );
    expectError(await batch(d, [ok(d), base]), 400, "VALIDATION_FAILED", "lines.1");
    expect(await snapshotAll(d, [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]])).toStrictEqual(before);
  });

  it("Choices (naming the line or product_id): both product_id and sku, or neither, answer 400 naming lines.1.product_id; a missing outlet_id names lines.1.outlet_id", async () => {
    const d = await demo();
    const before = await snapshotAll(d, [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]]);
    const cap = d.product["CAP-BASEBALL"];
    expectError(
      await batch(d, [ok(d), { product_id: cap, sku: "CAP-BASEBALL", outlet_id: d.main, set: { on_hand: 1 } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.product_id",
    );
    expectError(
      await batch(d, [ok(d), { outlet_id: d.main, set: { on_hand: 1 } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.product_id",
    );
    expectError(
      await batch(d, [ok(d), { product_id: cap, set: { on_hand: 1 } }]),
      400,
      "VALIDATION_FAILED",
      "lines.1.outlet_id",
    );
    expect(await snapshotAll(d, [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]])).toStrictEqual(before);
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
  type Case = {
    rule: string;
    code: string;
    status: number;
    field: string;
    prepare?: (d: Demo) => Promise<void>;
    line: (d: Demo) => unknown;
  };
  const cases: Case[] = [
    {
      rule: "rule 3 (for example an unknown sku)",
      code: "UNPROCESSABLE",
      status: 422,
      field: "lines.2.sku",
      line: (d) => ({ sku: "NO-SUCH-SKU", outlet_id: d.main, set: { on_hand: 1 } }),
    },
    {
      rule: "rule 2 (never against barcodes)",
      code: "UNPROCESSABLE",
      status: 422,
      field: "lines.2.sku",
      line: (d) => ({ sku: "4006381333931", outlet_id: d.main, set: { on_hand: 1 } }),
    },
    {
      rule: "Choices (an unknown product id in a body)",
      code: "UNPROCESSABLE",
      status: 422,
      field: "lines.2.product_id",
      line: (d) => ({ product_id: NO_SUCH_ID, outlet_id: d.main, set: { on_hand: 1 } }),
    },
    {
      rule: "Choices (an unknown outlet in a body)",
      code: "UNPROCESSABLE",
      status: 422,
      field: "lines.2.outlet_id",
      line: (_d) => ({ sku: "SOCKS-WOOL", outlet_id: NO_SUCH_ID, set: { on_hand: 1 } }),
    },
    {
      rule: "rule 5 INSUFFICIENT_STOCK",
      code: "INSUFFICIENT_STOCK",
      status: 422,
      field: "lines.2.*",
      line: (d) => ({
        sku: "SOCKS-WOOL",
        outlet_id: d.main,
        adjust: { quantity: -1000, reason_id: d.reason["Stocktake"] },
      }),
    },
    {
      rule: "rule 5 REASON_NOT_ALLOWED (disabled reason Theft)",
      code: "REASON_NOT_ALLOWED",
      status: 422,
      field: "lines.2.*",
      line: (d) => ({ sku: "SOCKS-WOOL", outlet_id: d.main, adjust: { quantity: -1, reason_id: d.reason["Theft"] } }),
    },
    {
      rule: "rule 5 REASON_NOT_ALLOWED (system reason sent)",
      code: "REASON_NOT_ALLOWED",
      status: 422,
      field: "lines.2.*",
      line: (d) => ({
        sku: "SOCKS-WOOL",
        outlet_id: d.main,
        set: { on_hand: 1, reason_id: d.reason["Stock set via API"] },
      }),
    },
    {
      rule: "rule 5 REASON_DIRECTION_MISMATCH (Damaged on an increase)",
      code: "REASON_DIRECTION_MISMATCH",
      status: 422,
      field: "lines.2.*",
      line: (d) => ({ sku: "SOCKS-WOOL", outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Damaged"] } }),
    },
    {
      rule: "rule 5 OUTLET_DELETED (a batch writes no lines)",
      code: "OUTLET_DELETED",
      status: 422,
      field: "lines.2.outlet_id",
      // The good lines write at Main Street; the bad line names the deleted Harbour Front.
      prepare: async (d) => {
        expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`)).status).toBe(204);
      },
      line: (d) => ({ sku: "SOCKS-WOOL", outlet_id: d.harbour, set: { on_hand: 1 } }),
    },
    {
      rule: "rule 5 NOT_STOCK_TRACKED",
      code: "NOT_STOCK_TRACKED",
      status: 422,
      field: "lines.2.*",
      line: (d) => ({ sku: "SERVICE-GIFTWRAP", outlet_id: d.main, set: { on_hand: 1 } }),
    },
  ];

  for (const c of cases) {
    it(`${c.rule}: ${c.status} ${c.code} naming ${c.field}, and levels, versions and stock views are unchanged`, async () => {
      const d = await demo();
      await c.prepare?.(d);
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
      expect(reply.status).toBe(c.status);
      expect(reply.json.error.code).toBe(c.code);
      expect(reply.json.error.fields).toHaveLength(1);
      const field: string = reply.json.error.fields[0].field;
      // "lines.2.*": the line is named; the exact nested name is checked in the naming test below.
      if (c.field.endsWith("*")) expect(field.startsWith(c.field.slice(0, -1)), field).toBe(true);
      else expect(field).toBe(c.field);
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

  it("rule 3 (a product and outlet pair only once): the same pair twice by id answers 400 naming the later line", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const before = await snapshot(d, mug);
    const reply = await batch(d, [
      { product_id: mug, outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
      { product_id: mug, outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
    ]);
    expectError(reply, 400, "VALIDATION_FAILED", "lines.1");
    expect(await snapshot(d, mug)).toStrictEqual(before);
  });

  it("rule 3: the same pair once by id and once by sku (other case) answers 400 naming the later line (lines.2); nothing written", async () => {
    const d = await demo();
    const products = [d.product["MUG-ENAMEL"], d.product["CAP-BASEBALL"]];
    const before = await snapshotAll(d, products);
    const reply = await batch(d, [
      { product_id: d.product["MUG-ENAMEL"], outlet_id: d.main, set: { on_hand: 3 } },
      { product_id: d.product["CAP-BASEBALL"], outlet_id: d.main, set: { on_hand: 3 } },
      { sku: "mug-enamel", outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
    ]);
    expectError(reply, 400, "VALIDATION_FAILED", "lines.2");
    expect(await snapshotAll(d, products)).toStrictEqual(before);
  });

  it("rule 3: one product at two outlets and two products at one outlet are different pairs and are accepted", async () => {
    const d = await demo();
    const reply = await batch(d, [
      { sku: "MUG-ENAMEL", outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
      { sku: "MUG-ENAMEL", outlet_id: d.harbour, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
      { sku: "CAP-BASEBALL", outlet_id: d.main, adjust: { quantity: 1, reason_id: d.reason["Stocktake"] } },
    ]);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toHaveLength(3);
  });
});
