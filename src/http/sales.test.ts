// Tests of the sale document and of making sales, against the spec (retail-api-v1.md): Resources,
// Sale; rules 2, 3, 5 and 7 of "What the service does"; the /sales rows of Endpoints; Authentication
// (Scopes); Errors; and the recorded choices (docs/spec-choices.md, "Sales"). Sales are made through
// the control plane (interfaces.md section 3), since the API has no write route for them.
// Refunds and voids: sales-refunds.test.ts. Filters: sales-filters.test.ts. Polling: sales-polling.test.ts.
import { describe, expect, it } from "vitest";
import { call, errorOf, makeSim } from "../test-support/sim.js";
import {
  advance,
  allSales,
  control,
  demoRefs,
  expectCentsAddUp,
  expectSaleShape,
  expectValidSale,
  getSale,
  lineSubtotal,
  lineTax,
  makeSale,
  nameDemoSales,
  UUID,
  type Sale,
} from "../test-support/sales.js";

const START = "2026-01-01T00:00:00.000Z";
const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(/^[0-9]+$/);

describe("Spec, What the service does 3: the sale list and a single sale read return the same full sale document", () => {
  it("every fixture sale: GET /sales/{id} answers exactly the document GET /sales lists", async () => {
    const sim = makeSim();
    const listed = await allSales(sim);
    expect(listed).toHaveLength(9);
    for (const sale of listed) expect(await getSale(sim, sale.id)).toStrictEqual(sale);
  });

  it("a sale made through the control plane: the control answer, GET /sales/{id} and the GET /sales row are the same document", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const made = await makeSale(sim, { outlet_id: refs.harbourFront, customer_id: refs.customer("DEV"), lines: [{ product_id: refs.product("SCARF-KNIT").id, quantity: 2, unit_price: 3600 }] });
    expect(await getSale(sim, made.id)).toStrictEqual(made);
    const listed = await allSales(sim);
    expect(listed.filter((s) => s.id === made.id)).toStrictEqual([made]);
  });
});

describe("Spec, Resources: Sale; Choices, Sales (fields beyond those named)", () => {
  it("the demo fixture: 7 originals (completed ×4, partially_refunded, refunded, voided) at both outlets and 2 refunds", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sales = await allSales(sim);
    const named = nameDemoSales(refs, sales);
    expect(sales.map((s) => s.id).sort()).toEqual(Object.values(named).map((s) => s.id).sort());
    expect(named.alice.status).toBe("completed");
    expect(named.walkIn.status).toBe("completed");
    expect(named.dev.status).toBe("completed");
    expect(named.erin.status).toBe("completed");
    expect(named.bob.status).toBe("partially_refunded");
    expect(named.carmen.status).toBe("refunded");
    expect(named.voided.status).toBe("voided");
    // A refund is a completed sale (choice) of the same outlet and customer.
    for (const [refund, original] of [[named.bobRefund, named.bob], [named.carmenRefund, named.carmen]] as const) {
      expect(refund.status).toBe("completed");
      expect(refund.parent_sale_id).toBe(original.id);
      expect(refund.outlet_id).toBe(original.outlet_id);
      expect(refund.customer_id).toBe(original.customer_id);
    }
    expect(sales.filter((s) => s.parent_sale_id !== null).map((s) => s.id).sort()).toEqual([named.bobRefund.id, named.carmenRefund.id].sort());
    expect(named.alice.outlet_id).toBe(refs.mainStreet);
    expect(named.bob.outlet_id).toBe(refs.harbourFront);
    expect(new Set(sales.map((s) => s.outlet_id))).toEqual(new Set([refs.mainStreet, refs.harbourFront]));
  });

  it("every fixture sale carries exactly the named fields (id, status, completed_at, outlet_id, customer_id, parent_sale_id, version, total, tax_total, paid_total) and the chosen ones, each with its type; money in integer cents", async () => {
    const sim = makeSim();
    for (const sale of await allSales(sim)) expectSaleShape(sale);
  });

  it("Choices, Sales: the cents add up for every fixture sale (total = subtotal + tax_total, paid_total = sum of payments, line total = subtotal + tax_total, taxes sum the lines)", async () => {
    const sim = makeSim();
    for (const sale of await allSales(sim)) expectCentsAddUp(sale);
  });

  it("Choices, Sales (Amounts): every fixture original's lines are quantity × unit price and subtotal × 8.75%, each rounded half away from zero", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const originals = (await allSales(sim)).filter((s) => s.parent_sale_id === null);
    expect(originals).toHaveLength(7);
    const wrong: string[] = [];
    for (const sale of originals) {
      expect(sale.taxes).toStrictEqual([{ tax_id: refs.salesTax.id, name: "Sales Tax", rate: 0.0875, amount: sale.tax_total }]);
      for (const line of sale.line_items) {
        expect(line.tax_id).toBe(refs.salesTax.id);
        const subtotal = lineSubtotal(line.quantity, line.unit_price);
        const tax = lineTax(subtotal, 0.0875);
        if (line.subtotal !== subtotal || line.tax_total !== tax) {
          wrong.push(`${line.name}: ${line.quantity} × ${line.unit_price} = ${line.subtotal} (expected ${subtotal}), tax ${line.tax_total} (expected ${tax})`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the fixture's refund of one pair of BOB's socks gives back exactly 1800 + 158 (157.5 rounded half away from zero) cents", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const { bob, bobRefund } = nameDemoSales(refs, await allSales(sim));
    const socks = refs.product("SOCKS-WOOL");
    const sold = bob.line_items.find((l) => l.product_id === socks.id)!;
    expect(bobRefund.line_items).toStrictEqual([
      { id: uuid, product_id: socks.id, name: "Wool Socks", quantity: -1, unit_price: sold.unit_price, subtotal: -1800, tax_id: refs.salesTax.id, tax_total: -158, total: -1958 },
    ]);
    expect(bobRefund).toMatchObject({ subtotal: -1800, tax_total: -158, total: -1958, paid_total: -1958 });
  });

  it("Spec, What the service does 5: created_at, completed_at and paid_at are UTC ending in Z, at the fixture's hours before the start", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const named = nameDemoSales(refs, await allSales(sim));
    const hoursBefore = (h: number) => new Date(Date.parse(START) - h * 3_600_000).toISOString();
    const expected: Record<keyof typeof named, number> = { alice: 72, walkIn: 60, bob: 50, bobRefund: 30, carmen: 40, carmenRefund: 20, dev: 26, voided: 12, erin: 3 };
    for (const [name, hours] of Object.entries(expected) as [keyof typeof named, number][]) {
      const sale = named[name];
      expect(sale.completed_at, name).toBe(hoursBefore(hours));
      expect(sale.created_at, name).toBe(hoursBefore(hours));
      expect(sale.payments.map((p) => p.paid_at), name).toEqual([hoursBefore(hours)]);
    }
  });

  it("Spec, Resources (version increases with every change): versions are decimal strings, distinct per sale", async () => {
    const sim = makeSim();
    const sales = await allSales(sim);
    for (const sale of sales) expect(sale.version).toMatch(/^[0-9]+$/);
    expect(new Set(sales.map((s) => s.version)).size).toBe(sales.length);
  });

  it("Choices, Sales (walk-in default): fixture sales without a customer belong to the walk-in customer", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const named = nameDemoSales(refs, await allSales(sim));
    expect(named.walkIn.customer_id).toBe(refs.walkIn);
    expect(named.voided.customer_id).toBe(refs.walkIn);
  });
});

describe("Spec, Errors (NOT_FOUND: missing, other store's, non-UUID id): GET /sales/{id}", () => {
  const expectNotFound = (reply: { status: number; json: any }) => {
    expect(reply.status).toBe(404);
    expect(reply.json).toStrictEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
  };

  it("an unknown UUID answers 404 NOT_FOUND", async () => {
    expectNotFound(await call(makeSim(), "GET", "/demo/v1/sales/00000000-0000-4000-8000-000000000001", { key: "sales:read" }));
  });

  it("a non-UUID id answers 404 NOT_FOUND", async () => {
    expectNotFound(await call(makeSim(), "GET", "/demo/v1/sales/not-a-uuid", { key: "sales:read" }));
  });

  it("another store's credential cannot read a demo sale, and the other store does not list it", async () => {
    const sim = makeSim();
    const [sale] = await allSales(sim);
    expectNotFound(await call(sim, "GET", `/other/v1/sales/${sale!.id}`, { key: "full" }));
    const other = await call(sim, "GET", "/other/v1/sales?limit=200", { key: "full" });
    expect(other.status).toBe(200);
    expect((other.json.data as Sale[]).map((s) => s.id)).not.toContain(sale!.id);
  });

  it("Choices, Routes (UUIDs match case-insensitively): the upper-case id reads the same document", async () => {
    const sim = makeSim();
    const [sale] = await allSales(sim);
    const reply = await call(sim, "GET", `/demo/v1/sales/${sale!.id.toUpperCase()}`, { key: "sales:read" });
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({ data: sale });
  });
});

describe("interfaces.md 3: POST /_sim/stores/{prefix}/sales makes a completed sale; Choices, Sales (Amounts)", () => {
  it("3 × 1999 cents at Main Street (8.75%): subtotal 5997, tax 525 (524.7375), total 6522; the whole document exactly", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const tote = refs.product("TOTE-CANVAS");
    const now = await advance(sim, 3600);
    expect(now).toBe("2026-01-01T01:00:00.000Z");
    const sale = await makeSale(sim, { outlet_id: refs.mainStreet, lines: [{ product_id: tote.id, quantity: 3, unit_price: 1999 }] });
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
        { id: uuid, product_id: tote.id, name: "Canvas Tote", quantity: 3, unit_price: 1999, subtotal: 5997, tax_id: refs.salesTax.id, tax_total: 525, total: 6522 },
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
  ])("unit price %i × %s: subtotal %i, tax %i (rounded half away from zero)", async (unitPrice, quantity, subtotal, tax) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await makeSale(sim, { outlet_id: refs.harbourFront, lines: [{ product_id: refs.product("SOCKS-WOOL").id, quantity, unit_price: unitPrice }] });
    expect(sale.line_items).toStrictEqual([
      { id: uuid, product_id: refs.product("SOCKS-WOOL").id, name: "Wool Socks", quantity, unit_price: unitPrice, subtotal, tax_id: refs.salesTax.id, tax_total: tax, total: subtotal + tax },
    ]);
    expect(sale).toMatchObject({ subtotal, tax_total: tax, total: subtotal + tax, paid_total: subtotal + tax });
    expectValidSale(sale);
  });

  it("a fractional quantity: 2.5 kg at 1999 cents is 4998 (4997.5), tax 437 (437.325), total 5435; the quantity reads back as 2.5", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const beans = refs.product("COFFEE-BEANS");
    const sale = await makeSale(sim, { outlet_id: refs.mainStreet, lines: [{ product_id: beans.id, quantity: 2.5, unit_price: 1999 }] });
    expect(sale.line_items).toStrictEqual([
      { id: uuid, product_id: beans.id, name: "Coffee Beans (kg)", quantity: 2.5, unit_price: 1999, subtotal: 4998, tax_id: refs.salesTax.id, tax_total: 437, total: 5435 },
    ]);
    expect(sale).toMatchObject({ subtotal: 4998, tax_total: 437, total: 5435, paid_total: 5435 });
    expect(await getSale(sim, sale.id)).toStrictEqual(sale);
    expectValidSale(sale);
  });

  it("a quantity with three decimals: 0.333 kg at 1000 cents is 333, tax 29 (29.1375)", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const beans = refs.product("COFFEE-BEANS");
    const sale = await makeSale(sim, { outlet_id: refs.mainStreet, lines: [{ product_id: beans.id, quantity: 0.333, unit_price: 1000 }] });
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
    expect(sale.line_items.map((l) => [l.product_id, l.quantity, l.unit_price, l.subtotal, l.tax_total, l.total])).toEqual([
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

  it("Choices, Control plane (success status of control creates: 201 only for keys and faults, 200 otherwise): a sale answers 200", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const reply = await control(sim, "POST", "/stores/demo/sales", { outlet_id: refs.mainStreet, lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 }] });
    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe("completed");
  });

  it("every sale the tests make passes the document checks (shape and cents)", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const products = ["TOTE-CANVAS", "BOTTLE-STEEL", "COFFEE-BEANS", "GIFTCARD", "SERVICE-GIFTWRAP"].map((sku) => refs.product(sku).id);
    for (let i = 0; i < 12; i++) {
      const sale = await makeSale(sim, {
        outlet_id: i % 2 ? refs.mainStreet : refs.harbourFront,
        lines: products.slice(0, 1 + (i % products.length)).map((id, j) => ({ product_id: id, quantity: [1, 2.5, 0.125, 3, 7][j]!, unit_price: 101 * (i + 1) + 37 * j })),
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
    ["outlet_id not a UUID", (r) => ({ outlet_id: "main-street", lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }), "outlet_id"],
    ["quantity 0", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 0, unit_price: 100 }] }), "lines.0.quantity"],
    ["quantity negative", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: -1, unit_price: 100 }] }), "lines.0.quantity"],
    ["quantity with 4 decimals", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1.0005, unit_price: 100 }] }), "lines.0.quantity"],
    ["quantity as a string", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: "1", unit_price: 100 }] }), "lines.0.quantity"],
    ["unit_price a decimal (19.99)", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: 19.99 }] }), "lines.0.unit_price"],
    ["unit_price negative", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: -100 }] }), "lines.0.unit_price"],
    ["unit_price left out", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1 }] }), "lines.0.unit_price"],
    ["product_id not a UUID", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: "TOTE-CANVAS", quantity: 1, unit_price: 100 }] }), "lines.0.product_id"],
    ["customer_id not a UUID", (r) => ({ outlet_id: r.outlet, customer_id: "BOB", lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }), "customer_id"],
    ["an unknown property", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }], discount: 5 }), "discount"],
  ])("%s: 400 VALIDATION_FAILED naming the field, and no sale is made", async (_name, body, field) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", "/stores/demo/sales", body({ outlet: refs.mainStreet, product: refs.product("TOTE-CANVAS").id }));
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
    ["an unknown outlet", (r) => ({ outlet_id: ZERO_UUID, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }), "outlet_id"],
    ["an unknown product", (r) => ({ outlet_id: r.outlet, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }, { product_id: ZERO_UUID, quantity: 1, unit_price: 100 }] }), "lines.1.product_id"],
    ["an unknown customer", (r) => ({ outlet_id: r.outlet, customer_id: ZERO_UUID, lines: [{ product_id: r.product, quantity: 1, unit_price: 100 }] }), "customer_id"],
  ])("Spec, Errors (UNPROCESSABLE: referenced thing not found): %s answers 422 naming the field, and no sale is made", async (_name, body, field) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", "/stores/demo/sales", body({ outlet: refs.mainStreet, product: refs.product("TOTE-CANVAS").id, customer: refs.customer("BOB") }));
    expect(reply.status).toBe(422);
    expect(reply.json).toStrictEqual({ error: { code: "UNPROCESSABLE", message: expect.any(String), fields: [{ field, message: expect.any(String) }] } });
    expect(await allSales(sim)).toStrictEqual(before);
  });

  it("a deleted outlet answers 422 UNPROCESSABLE on outlet_id", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    expect((await control(sim, "DELETE", `/stores/demo/outlets/${refs.harbourFront}`)).status).toBe(204);
    const reply = await control(sim, "POST", "/stores/demo/sales", { outlet_id: refs.harbourFront, lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }] });
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe("UNPROCESSABLE");
    expect(reply.json.error.fields).toStrictEqual([{ field: "outlet_id", message: expect.any(String) }]);
  });

  it("an erased (deleted) customer answers 422 UNPROCESSABLE on customer_id", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    expect((await call(sim, "DELETE", `/demo/v1/customers/${refs.customer("DEV")}`, { key: "customers:write" })).status).toBe(204);
    const reply = await control(sim, "POST", "/stores/demo/sales", { outlet_id: refs.mainStreet, customer_id: refs.customer("DEV"), lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }] });
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
    for (const query of [{ customer_id: refs.customer("ALICE") }, { outlet_id: refs.mainStreet }, { status: "completed" }, { completed_from: START }, { order: "desc" }]) {
      expect((await allSales(sim, query)).map((s) => s.id), JSON.stringify(query)).not.toContain(id);
    }
    const read = await call(sim, "GET", `/demo/v1/sales/${id}`, { key: "sales:read" });
    expect(read.status).toBe(404);
    expect(errorOf(read)).toStrictEqual({ code: "NOT_FOUND", message: expect.any(String) });
  });
});

describe("Spec, Authentication (Scopes: sales:read views sales and refunds; no sales:write scope exists)", () => {
  it.each(["sales:read", "read", "full"])("the key `%s` reads GET /sales and GET /sales/{id}", async (key) => {
    const sim = makeSim();
    const list = await call(sim, "GET", "/demo/v1/sales", { key });
    expect(list.status).toBe(200);
    expect(list.json.data).toHaveLength(9);
    const one = await call(sim, "GET", `/demo/v1/sales/${list.json.data[0].id}`, { key });
    expect(one.status).toBe(200);
    expect(one.json).toStrictEqual({ data: list.json.data[0] });
  });

  it.each(["none", "catalog:read", "catalog:write", "inventory:read", "inventory:write", "customers:read", "customers:write"])(
    "the key `%s` (without sales:read) answers 403 INSUFFICIENT_SCOPE on both routes",
    async (key) => {
      const sim = makeSim();
      const [sale] = await allSales(sim);
      for (const path of ["/demo/v1/sales", `/demo/v1/sales/${sale!.id}`, "/demo/v1/sales?status=completed"]) {
        const reply = await call(sim, "GET", path, { key });
        expect(reply.status, path).toBe(403);
        expect(reply.json).toStrictEqual({ error: { code: "INSUFFICIENT_SCOPE", message: expect.any(String) } });
      }
    },
  );

  it.each([
    ["POST", "/demo/v1/sales"],
    ["PUT", "/demo/v1/sales/{id}"],
    ["PATCH", "/demo/v1/sales/{id}"],
    ["DELETE", "/demo/v1/sales/{id}"],
    ["POST", "/demo/v1/sales/{id}/refunds"],
    ["POST", "/demo/v1/sales/{id}/void"],
  ])("Spec, What the service does (sales and refunds, read only): %s %s is no route (404 NOT_FOUND, even for the full key) and changes nothing", async (method, path) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const before = await allSales(sim);
    const reply = await call(sim, method, path.replace("{id}", before[0]!.id), {
      key: "full",
      body: { outlet_id: refs.mainStreet, lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }] },
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toStrictEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    expect(await allSales(sim)).toStrictEqual(before);
  });
});
