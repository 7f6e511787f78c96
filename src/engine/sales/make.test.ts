// Tests of making sales through the control plane (interfaces.md section 3: POST
// /_sim/stores/{prefix}/sales), against the spec (retail-api-v1.md): Resources, Sale; rule 2 of "What
// the service does" (integer cents); States (open sales); Errors; and the recorded choices
// (docs/spec-choices.md, "Sales": amounts rounded half away from zero, the walk-in default, parked
// sales; "Control plane and fixtures": success statuses).
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import {
  advance,
  allSales,
  control,
  demoRefs,
  expectValidSale,
  getSale,
  lineSubtotal,
  lineTax,
  makeSale,
  UUID,
} from "../../test-support/sales.js";
import { errorOf } from "../../test-support/errors.js";

const START = "2026-01-01T00:00:00.000Z";
const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(/^[0-9]+$/);

describe("interfaces.md 3: POST /_sim/stores/{prefix}/sales makes a completed sale; Choices, Sales (Amounts)", () => {
  it("3 × 1999 cents at Main Street (8.75%): subtotal 5997, tax 525 (524.7375), total 6522; the whole document exactly", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const tote = refs.product("TOTE-CANVAS");
    const now = await advance(sim, 3600);
    expect(now).toBe("2026-01-01T01:00:00.000Z");
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: tote.id, quantity: 3, unit_price: 1999 }],
    });
    expect(sale).toStrictEqual({
      id: uuid,
      status: "completed",
      outlet_id: refs.mainStreet,
      customer_id: refs.walkIn,
      parent_sale_id: null,
      created_at: now,
      completed_at: now,
      subtotal: 5997,
      discount_total: 0,
      tax_total: 525,
      total: 6522,
      paid_total: 6522,
      line_items: [
        {
          id: uuid,
          product_id: tote.id,
          name: "Canvas Tote",
          quantity: 3,
          unit_price: 1999,
          subtotal: 5997,
          tax_id: refs.salesTax.id,
          tax_total: 525,
          total: 6522,
        },
      ],
      discounts: [],
      adjustments: [],
      taxes: [{ tax_id: refs.salesTax.id, name: "Sales Tax", rate: 0.0875, amount: 525 }],
      payments: [{ id: uuid, payment_type_id: uuid, amount: 6522, paid_at: now }],
      version,
    });
    expect(await getSale(sim, sale.id)).toStrictEqual(sale);
    // A new sale is the latest change of the feed.
    const listed = await allSales(sim);
    expect(listed[listed.length - 1]).toStrictEqual(sale);
    expect(BigInt(sale.version)).toBeGreaterThan(BigInt(listed[listed.length - 2]!.version));
  });

  it.each([
    // [unit_price, quantity, subtotal, tax]: half cents round away from zero, also where binary floating point lands below the half.
    [5400, 1, 5400, 473], // 472.5
    [5800, 1, 5800, 508], // 507.5
    [1800, 1, 1800, 158], // 157.5
    [3400, 1, 3400, 298], // 297.5
    [200, 1, 200, 18], // 17.5
    [1800, 3, 5400, 473], // 472.5
    [100, 1, 100, 9], // 8.75
    [400, 1, 400, 35], // exact
  ])(
    "unit price %i × %s: subtotal %i, tax %i (rounded half away from zero)",
    async (unitPrice, quantity, subtotal, tax) => {
      const sim = makeSim();
      const refs = await demoRefs(sim);
      const sale = await makeSale(sim, {
        outlet_id: refs.harbourFront,
        lines: [{ product_id: refs.product("SOCKS-WOOL").id, quantity, unit_price: unitPrice }],
      });
      expect(sale.line_items).toStrictEqual([
        {
          id: uuid,
          product_id: refs.product("SOCKS-WOOL").id,
          name: "Wool Socks",
          quantity,
          unit_price: unitPrice,
          subtotal,
          tax_id: refs.salesTax.id,
          tax_total: tax,
          total: subtotal + tax,
        },
      ]);
      expect(sale).toMatchObject({ subtotal, tax_total: tax, total: subtotal + tax, paid_total: subtotal + tax });
      expectValidSale(sale);
    },
  );

  it("a fractional quantity: 2.5 kg at 1999 cents is 4998 (4997.5), tax 437 (437.325), total 5435; the quantity reads back as 2.5", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const beans = refs.product("COFFEE-BEANS");
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: beans.id, quantity: 2.5, unit_price: 1999 }],
    });
    expect(sale.line_items).toStrictEqual([
      {
        id: uuid,
        product_id: beans.id,
        name: "Coffee Beans (kg)",
        quantity: 2.5,
        unit_price: 1999,
        subtotal: 4998,
        tax_id: refs.salesTax.id,
        tax_total: 437,
        total: 5435,
      },
    ]);
    expect(sale).toMatchObject({ subtotal: 4998, tax_total: 437, total: 5435, paid_total: 5435 });
    expect(await getSale(sim, sale.id)).toStrictEqual(sale);
    expectValidSale(sale);
  });

  it("a quantity with three decimals: 0.333 kg at 1000 cents is 333, tax 29 (29.1375)", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const beans = refs.product("COFFEE-BEANS");
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: beans.id, quantity: 0.333, unit_price: 1000 }],
    });
    expect(sale.line_items[0]).toMatchObject({ quantity: 0.333, subtotal: 333, tax_total: 29, total: 362 });
    expectValidSale(sale);
  });

  it("several lines with a named customer at Harbour Front: each line rounded on its own, the totals their sums", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const cap = refs.product("CAP-BASEBALL");
    const mug = refs.product("MUG-ENAMEL");
    const beans = refs.product("COFFEE-BEANS");
    const sale = await makeSale(sim, {
      outlet_id: refs.harbourFront,
      customer_id: refs.customer("ALICE"),
      lines: [
        { product_id: cap.id, quantity: 2, unit_price: 2100 }, // 4200, tax 367.5 → 368
        { product_id: mug.id, quantity: 1, unit_price: 333 }, // 333, tax 29.1375 → 29
        { product_id: beans.id, quantity: 1.25, unit_price: 999 }, // 1248.75 → 1249, tax 109.2875 → 109
      ],
    });
    expect(sale.customer_id).toBe(refs.customer("ALICE"));
    expect(sale.outlet_id).toBe(refs.harbourFront);
    expect(
      sale.line_items.map((l) => [l.product_id, l.quantity, l.unit_price, l.subtotal, l.tax_total, l.total]),
    ).toEqual([
      [cap.id, 2, 2100, 4200, 368, 4568],
      [mug.id, 1, 333, 333, 29, 362],
      [beans.id, 1.25, 999, 1249, 109, 1358],
    ]);
    expect(sale).toMatchObject({ subtotal: 5782, tax_total: 506, total: 6288, paid_total: 6288 });
    expect(sale.taxes).toStrictEqual([{ tax_id: refs.salesTax.id, name: "Sales Tax", rate: 0.0875, amount: 506 }]);
    expect(sale.payments).toStrictEqual([{ id: uuid, payment_type_id: uuid, amount: 6288, paid_at: START }]);
    expectValidSale(sale);
  });

  it("Choices, Sales (walk-in default): a sale without customer_id belongs to the walk-in customer; with one, to that customer", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const line = { product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 };
    const walkIn = await makeSale(sim, { outlet_id: refs.mainStreet, lines: [line] });
    expect(walkIn.customer_id).toBe(refs.walkIn);
    expect((await getSale(sim, walkIn.id)).customer_id).toBe(refs.walkIn);
    const erin = await makeSale(sim, { outlet_id: refs.mainStreet, customer_id: refs.customer("ERIN"), lines: [line] });
    expect(erin.customer_id).toBe(refs.customer("ERIN"));
  });

  it("Choices, Control plane (success status of control creates: 201 for keys, faults, sales, refunds and clients): a sale answers 201", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const reply = await control(sim, "POST", "/stores/demo/sales", {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 }],
    });
    expect(reply.status).toBe(201);
    expect(reply.json.status).toBe("completed");
  });

  it("every sale the tests make passes the document checks (shape and cents)", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const products = ["TOTE-CANVAS", "BOTTLE-STEEL", "COFFEE-BEANS", "GIFTCARD", "SERVICE-GIFTWRAP"].map(
      (sku) => refs.product(sku).id,
    );
    for (let i = 0; i < 12; i++) {
      const sale = await makeSale(sim, {
        outlet_id: i % 2 ? refs.mainStreet : refs.harbourFront,
        lines: products.slice(0, 1 + (i % products.length)).map((id, j) => ({
          product_id: id,
          quantity: [1, 2.5, 0.125, 3, 7][j]!,
          unit_price: 101 * (i + 1) + 37 * j,
        })),
      });
      expectValidSale(sale);
      for (const line of sale.line_items) {
        expect(line.subtotal).toBe(lineSubtotal(line.quantity, line.unit_price));
        expect(line.tax_total).toBe(lineTax(line.subtotal, 0.0875));
      }
    }
  });
});

describe("interfaces.md 3 (bad input gets 400 with the spec's error envelope): sale bodies", () => {
  const ZERO_UUID = "00000000-0000-4000-8000-000000000009";

  it.each<[string, (r: { outlet: string; product: string }) => unknown, string]>([
    ["lines left out", (r) => ({ outlet_id: r.outlet }), "lines"],
    ["lines empty", (r) => ({ outlet_id: r.outlet, lines: [] }), "lines"],
    ["outlet_id left out", (r) => ({ lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }), "outlet_id"],
    [
      "outlet_id not a UUID",
      (r) => ({ outlet_id: "main-street", lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }),
      "outlet_id",
    ],
    [
      "quantity 0",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 0, unit_price: 100 }] }),
      "lines.0.quantity",
    ],
    [
      "quantity negative",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: -1, unit_price: 100 }] }),
      "lines.0.quantity",
    ],
    [
      "quantity with 4 decimals",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1.0005, unit_price: 100 }] }),
      "lines.0.quantity",
    ],
    [
      "quantity as a string",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: "1", unit_price: 100 }] }),
      "lines.0.quantity",
    ],
    [
      "unit_price a decimal (19.99)",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: 19.99 }] }),
      "lines.0.unit_price",
    ],
    [
      "unit_price negative",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: -100 }] }),
      "lines.0.unit_price",
    ],
    [
      "unit_price left out",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1 }] }),
      "lines.0.unit_price",
    ],
    [
      "product_id not a UUID",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: "TOTE-CANVAS", quantity: 1, unit_price: 100 }] }),
      "lines.0.product_id",
    ],
    [
      "customer_id not a UUID",
      (r) => ({
        outlet_id: r.outlet,
        customer_id: "BOB",
        lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }],
      }),
      "customer_id",
    ],
    [
      "an unknown property",
      (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }], discount: 5 }),
      "discount",
    ],
  ])("%s: 400 VALIDATION_FAILED naming the field, and no sale is made", async (_name, body, field) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const before = await allSales(sim);
    const reply = await control(
      sim,
      "POST",
      "/stores/demo/sales",
      body({ outlet: refs.mainStreet, product: refs.product("TOTE-CANVAS").id }),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
    expect(reply.json.error.message).toEqual(expect.any(String));
    expect((reply.json.error.fields as { field: string }[]).map((f) => f.field)).toContain(field);
    expect(await allSales(sim)).toStrictEqual(before);
  });

  it("a body that is not JSON: 400 VALIDATION_FAILED", async () => {
    const sim = makeSim();
    const reply = await control(sim, "POST", "/stores/demo/sales", "{not json");
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
  });

  it.each<[string, (r: { outlet: string; product: string; customer: string }) => unknown, string]>([
    [
      "an unknown outlet",
      (r) => ({ outlet_id: ZERO_UUID, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }),
      "outlet_id",
    ],
    [
      "an unknown product",
      (r) => ({
        outlet_id: r.outlet,
        lines: [
          { product_id: r.product, quantity: 1, unit_price: 100 },
          { product_id: ZERO_UUID, quantity: 1, unit_price: 100 },
        ],
      }),
      "lines.1.product_id",
    ],
    [
      "an unknown customer",
      (r) => ({
        outlet_id: r.outlet,
        customer_id: ZERO_UUID,
        lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }],
      }),
      "customer_id",
    ],
  ])(
    "Spec, Errors (UNPROCESSABLE: referenced thing not found): %s answers 422 naming the field, and no sale is made",
    async (_name, body, field) => {
      const sim = makeSim();
      const refs = await demoRefs(sim);
      const before = await allSales(sim);
      const reply = await control(
        sim,
        "POST",
        "/stores/demo/sales",
        body({ outlet: refs.mainStreet, product: refs.product("TOTE-CANVAS").id, customer: refs.customer("BOB") }),
      );
      expect(reply.status).toBe(422);
      expect(reply.json).toStrictEqual({
        error: { code: "UNPROCESSABLE", message: expect.any(String), fields: [{ field, message: expect.any(String) }] },
      });
      expect(await allSales(sim)).toStrictEqual(before);
    },
  );

  it("a deleted outlet answers 422 UNPROCESSABLE on outlet_id", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    expect((await control(sim, "DELETE", `/stores/demo/outlets/${refs.harbourFront}`)).status).toBe(204);
    const reply = await control(sim, "POST", "/stores/demo/sales", {
      outlet_id: refs.harbourFront,
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }],
    });
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe("UNPROCESSABLE");
    expect(reply.json.error.fields).toStrictEqual([{ field: "outlet_id", message: expect.any(String) }]);
  });

  it("an erased (deleted) customer answers 422 UNPROCESSABLE on customer_id", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    expect(
      (await call(sim, "DELETE", `/demo/v1/customers/${refs.customer("DEV")}`, { key: "customers:write" })).status,
    ).toBe(204);
    const reply = await control(sim, "POST", "/stores/demo/sales", {
      outlet_id: refs.mainStreet,
      customer_id: refs.customer("DEV"),
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }],
    });
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe("UNPROCESSABLE");
    expect(reply.json.error.fields).toStrictEqual([{ field: "customer_id", message: expect.any(String) }]);
  });
});

describe("Spec, States (open is never returned and cannot be requested); Choices, Sales (parked sales)", () => {
  it("a parked sale (parked: true) is never listed, by any filter, and GET /sales/{id} answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", "/stores/demo/sales", {
      outlet_id: refs.mainStreet,
      customer_id: refs.customer("ALICE"),
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 }],
      parked: true,
    });
    expect(reply.status).toBeLessThan(300);
    expect(reply.json.id).toMatch(UUID);
    expect(reply.json.status).toBe("open");
    const id = reply.json.id as string;
    expect(await allSales(sim)).toStrictEqual(before);
    for (const query of <Record<string, string>[]>[
      { customer_id: refs.customer("ALICE") },
      { outlet_id: refs.mainStreet },
      { status: "completed" },
      { completed_from: START },
      { order: "desc" },
    ]) {
      expect(
        (await allSales(sim, query)).map((s) => s.id),
        JSON.stringify(query),
      ).not.toContain(id);
    }
    const read = await call(sim, "GET", `/demo/v1/sales/${id}`, { key: "sales:read" });
    expect(read.status).toBe(404);
    expect(errorOf(read)).toStrictEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });
});
