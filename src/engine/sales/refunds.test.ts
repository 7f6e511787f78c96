// Tests of refunds and voids, made through the control plane (interfaces.md section 3:
// POST /_sim/stores/{prefix}/sales/{id}/refunds {lines?}, POST .../sales/{id}/void) and read through
// the API, against the spec (retail-api-v1.md): Resources, Sale ("refund is a sale with parent_sale_id
// set"); States, Sale status ("a sale that is refunded later receives a new version and its new
// status"); rule 2 of "What the service does" (integer cents); Errors; and the recorded choices
// (docs/spec-choices.md, "Sales": Refunds, The original after a refund, Voids).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { makeSim } from "../../test-support/sim.js";
import {
  advance,
  allSales,
  control,
  demoRefs,
  expectValidSale,
  getSale,
  makeRefund,
  makeSale,
  makeVoid,
  nameDemoSales,
  UUID,
  type DemoRefs,
  type Sale,
} from "../../test-support/sales.js";

const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(/^[0-9]+$/);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** 3 Canvas Totes at 100 cents at Harbour Front for BOB: subtotal 300, tax 26 (26.25), total 326. */
async function threeTotes(sim: Simulator, refs: DemoRefs): Promise<Sale> {
  const sale = await makeSale(sim, {
    outlet_id: refs.harbourFront,
    customer_id: refs.customer("BOB"),
    lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 3, unit_price: 100 }],
  });
  expect(sale).toMatchObject({ subtotal: 300, tax_total: 26, total: 326, paid_total: 326, status: "completed" });
  return sale;
}

/** Expects the refunds' cents to give back exactly the original's, line by line and in total. */
function expectGivesBackExactly(original: Sale, refunds: Sale[]): void {
  for (const key of ["subtotal", "tax_total", "total", "paid_total"] as const) {
    expect(sum(refunds.map((r) => r[key])), key).toBe(-original[key]);
  }
  for (const line of original.line_items) {
    const back = refunds.flatMap((r) => r.line_items).filter((l) => l.product_id === line.product_id);
    expect(sum(back.map((l) => l.quantity * 1000)), `${line.name} quantity`).toBe(-Math.round(line.quantity * 1000));
    expect(sum(back.map((l) => l.subtotal)), `${line.name} subtotal`).toBe(-line.subtotal);
    expect(sum(back.map((l) => l.tax_total)), `${line.name} tax`).toBe(-line.tax_total);
  }
}

describe("Spec, Resources: Sale (a refund is a sale with parent_sale_id set); Choices, Sales (Refunds)", () => {
  it("a partial refund is a completed sale with parent_sale_id, the original's outlet and customer, negative quantities and amounts, paid back with the original's payment type", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const now = await advance(sim, 7200);
    const refund = await makeRefund(sim, sale.id, [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1 }]);
    expect(refund).toStrictEqual({
      id: uuid,
      status: "completed",
      outlet_id: refs.harbourFront,
      customer_id: refs.customer("BOB"),
      parent_sale_id: sale.id,
      created_at: now,
      completed_at: now,
      subtotal: -100,
      discount_total: 0,
      tax_total: -9,
      total: -109,
      paid_total: -109,
      line_items: [
        {
          id: uuid,
          product_id: refs.product("TOTE-CANVAS").id,
          name: "Canvas Tote",
          quantity: -1,
          unit_price: 100,
          subtotal: -100,
          tax_id: refs.salesTax.id,
          tax_total: -9,
          total: -109,
        },
      ],
      discounts: [],
      adjustments: [],
      taxes: [{ tax_id: refs.salesTax.id, name: "Sales Tax", rate: 0.0875, amount: -9 }],
      payments: [{ id: uuid, payment_type_id: sale.payments[0]!.payment_type_id, amount: -109, paid_at: now }],
      version,
    });
    expect(refund.id).not.toBe(sale.id);
    expect(refund.line_items[0]!.id).not.toBe(sale.line_items[0]!.id);
    expect(await getSale(sim, refund.id)).toStrictEqual(refund);
    expectValidSale(refund);
  });

  it("Spec, States (a sale refunded later receives a new version and its new status): the original becomes partially_refunded, with a higher version, and moves to the end of the feed after its refund", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: refs.product("MUG-ENAMEL").id, quantity: 1, unit_price: 2400 }],
    });
    await advance(sim, 60);
    const refund = await makeRefund(sim, sale.id, [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1 }]);
    const after = await getSale(sim, sale.id);
    expect(after).toStrictEqual({ ...sale, status: "partially_refunded", version: after.version });
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(sale.version));
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(refund.version));
    const listed = await allSales(sim);
    expect(listed.slice(-2)).toStrictEqual([refund, after]);
    expect(listed.filter((s) => s.id === sale.id)).toHaveLength(1);
  });

  it("3 units at 100 cents (tax 26 of 26.25) refunded one at a time: -109, -109, then the rest -108; statuses partially_refunded, partially_refunded, refunded; not a cent lost or made", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const tote = refs.product("TOTE-CANVAS").id;
    const sale = await threeTotes(sim, refs);
    const statuses: string[] = [];
    const versions: bigint[] = [BigInt(sale.version)];
    const refunds: Sale[] = [];
    for (const lines of [[{ product_id: tote, quantity: 1 }], [{ product_id: tote, quantity: 1 }], undefined]) {
      await advance(sim, 600);
      refunds.push(await makeRefund(sim, sale.id, lines));
      const original = await getSale(sim, sale.id);
      statuses.push(original.status);
      versions.push(BigInt(original.version));
    }
    expect(statuses).toEqual(["partially_refunded", "partially_refunded", "refunded"]);
    expect(versions).toEqual([...versions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(versions).size).toBe(4);
    expect(refunds.map((r) => [r.subtotal, r.tax_total, r.total, r.paid_total])).toEqual([
      [-100, -9, -109, -109],
      [-100, -9, -109, -109],
      [-100, -8, -108, -108],
    ]);
    expect(refunds.map((r) => r.line_items.map((l) => l.quantity))).toEqual([[-1], [-1], [-1]]);
    expectGivesBackExactly(sale, refunds);
    for (const refund of refunds) {
      expect(refund.parent_sale_id).toBe(sale.id);
      expectValidSale(refund);
      expect(await getSale(sim, refund.id)).toStrictEqual(refund);
    }
  });

  it("refunding what is left by naming it (lines with the quantity left) also gives back exactly what is left and makes the sale refunded", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const tote = refs.product("TOTE-CANVAS").id;
    const sale = await threeTotes(sim, refs);
    const first = await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 1 }]);
    expect([first.subtotal, first.tax_total, first.total]).toEqual([-100, -9, -109]);
    expect((await getSale(sim, sale.id)).status).toBe("partially_refunded");
    const last = await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 2 }]);
    expect(last.line_items.map((l) => l.quantity)).toEqual([-2]);
    expect([last.subtotal, last.tax_total, last.total]).toEqual([-200, -17, -217]);
    expect((await getSale(sim, sale.id)).status).toBe("refunded");
    expectGivesBackExactly(sale, [first, last]);
  });

  it("a fractional quantity: 1 kg at 1000 cents (tax 88 of 87.5) refunded 0.333, 0.333, then the rest (0.334): -362, -362, -364", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const beans = refs.product("COFFEE-BEANS").id;
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: beans, quantity: 1, unit_price: 1000 }],
    });
    expect([sale.subtotal, sale.tax_total, sale.total]).toEqual([1000, 88, 1088]);
    const refunds = [
      await makeRefund(sim, sale.id, [{ product_id: beans, quantity: 0.333 }]),
      await makeRefund(sim, sale.id, [{ product_id: beans, quantity: 0.333 }]),
      await makeRefund(sim, sale.id),
    ];
    expect(refunds.map((r) => r.line_items.map((l) => l.quantity))).toEqual([[-0.333], [-0.333], [-0.334]]);
    expect(refunds.map((r) => [r.subtotal, r.tax_total, r.total])).toEqual([
      [-333, -29, -362],
      [-333, -29, -362],
      [-334, -30, -364],
    ]);
    expect((await getSale(sim, sale.id)).status).toBe("refunded");
    expectGivesBackExactly(sale, refunds);
    for (const refund of refunds) expectValidSale(refund);
  });

  it("a refund without lines of a sale with several lines refunds every line, exactly the negation of the original", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      customer_id: refs.customer("ALICE"),
      lines: [
        { product_id: refs.product("CAP-BASEBALL").id, quantity: 2, unit_price: 2100 },
        { product_id: refs.product("MUG-ENAMEL").id, quantity: 3, unit_price: 333 },
        { product_id: refs.product("COFFEE-BEANS").id, quantity: 1.25, unit_price: 999 },
      ],
    });
    const refund = await makeRefund(sim, sale.id);
    expect(
      refund.line_items.map((l) => [l.product_id, l.quantity, l.unit_price, l.subtotal, l.tax_total, l.total]),
    ).toEqual(
      sale.line_items.map((l) => [l.product_id, -l.quantity, l.unit_price, -l.subtotal, -l.tax_total, -l.total]),
    );
    expect([refund.subtotal, refund.tax_total, refund.total, refund.paid_total]).toEqual([
      -sale.subtotal,
      -sale.tax_total,
      -sale.total,
      -sale.paid_total,
    ]);
    expect((await getSale(sim, sale.id)).status).toBe("refunded");
    expectValidSale(refund);
  });

  it("the fixture's partially refunded sale (BOB): refunding the rest makes it refunded, and its two refunds give back exactly what it took", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const { bob, bobRefund } = nameDemoSales(refs, await allSales(sim));
    const rest = await makeRefund(sim, bob.id);
    expect(rest.parent_sale_id).toBe(bob.id);
    const after = await getSale(sim, bob.id);
    expect(after.status).toBe("refunded");
    expect(BigInt(after.version)).toBeGreaterThan(BigInt(bob.version));
    expectGivesBackExactly(bob, [bobRefund, rest]);
    expectValidSale(rest);
  });

  it("Choices, Sales (paid back with the original's payment type): refunding ERIN's card sale pays back by card", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const { erin } = nameDemoSales(refs, await allSales(sim));
    expect(erin.payments.map((p) => p.payment_type_id)).toEqual([refs.paymentType("Card")]);
    const refund = await makeRefund(sim, erin.id);
    expect(refund.payments).toStrictEqual([
      { id: uuid, payment_type_id: refs.paymentType("Card"), amount: -erin.total, paid_at: refund.completed_at },
    ]);
  });

  it("a refund is completed now (the simulator clock); the original keeps its completed_at", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const now = await advance(sim, 86_400 + 1);
    expect(now).toBe("2026-01-02T00:00:01.000Z");
    const refund = await makeRefund(sim, sale.id);
    expect(refund.completed_at).toBe(now);
    expect(refund.created_at).toBe(now);
    expect((await getSale(sim, sale.id)).completed_at).toBe(sale.completed_at);
  });

  it("Choices, Control plane (success status of control creates: 201 for keys, faults, sales, refunds and clients): a refund answers 201", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/refunds`, {});
    expect(reply.status).toBe(201);
    expect(reply.json.parent_sale_id).toBe(sale.id);
  });
});

describe("Refund refusals (Errors: 422 UNPROCESSABLE cannot be carried out, 409 CONFLICT rule, 404 NOT_FOUND, 400 VALIDATION_FAILED)", () => {
  async function expectUnchanged(sim: Simulator, before: Sale[]): Promise<void> {
    expect(await allSales(sim)).toStrictEqual(before);
  }

  it("refunding more than was sold answers 422 UNPROCESSABLE naming lines.0.quantity, and nothing changes", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/refunds`, {
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 4 }],
    });
    expect(reply.status).toBe(422);
    expect(reply.json).toStrictEqual({
      error: {
        code: "UNPROCESSABLE",
        message: expect.any(String),
        fields: [{ field: "lines.0.quantity", message: expect.any(String) }],
      },
    });
    await expectUnchanged(sim, before);
  });

  it("refunding more than is left after a partial refund answers 422 UNPROCESSABLE, and nothing changes", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const tote = refs.product("TOTE-CANVAS").id;
    const sale = await threeTotes(sim, refs);
    await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 2 }]);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/refunds`, {
      lines: [{ product_id: tote, quantity: 1.001 }],
    });
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe("UNPROCESSABLE");
    expect(reply.json.error.fields).toStrictEqual([{ field: "lines.0.quantity", message: expect.any(String) }]);
    await expectUnchanged(sim, before);
    // Exactly what is left still works.
    await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 1 }]);
    expect((await getSale(sim, sale.id)).status).toBe("refunded");
  });

  it("refunding a product the sale does not have answers 422 UNPROCESSABLE, and nothing changes", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const before = await allSales(sim);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/refunds`, {
      lines: [{ product_id: refs.product("MUG-ENAMEL").id, quantity: 1 }],
    });
    expect(reply.status).toBe(422);
    expect(reply.json.error.code).toBe("UNPROCESSABLE");
    await expectUnchanged(sim, before);
  });

  it.each([
    ["without lines", undefined],
    ["with a line", "line"],
  ])(
    "refunding a refunded sale (the fixture's CARMEN) %s answers 409 CONFLICT, and nothing changes",
    async (_name, withLine) => {
      const sim = makeSim();
      const refs = await demoRefs(sim);
      const before = await allSales(sim);
      const { carmen } = nameDemoSales(refs, before);
      const body = withLine ? { lines: [{ product_id: refs.product("MUG-ENAMEL").id, quantity: 1 }] } : {};
      const reply = await control(sim, "POST", `/stores/demo/sales/${carmen.id}/refunds`, body);
      expect(reply.status).toBe(409);
      expect(reply.json).toStrictEqual({ error: { code: "CONFLICT", message: expect.any(String) } });
      await expectUnchanged(sim, before);
    },
  );

  it("refunding a sale refunded through the control plane answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    await makeRefund(sim, sale.id);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/refunds`, {});
    expect(reply.status).toBe(409);
    expect(reply.json.error.code).toBe("CONFLICT");
  });

  it("refunding a voided sale (the fixture's, and one voided by a test) answers 409 CONFLICT, and nothing changes", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    await makeVoid(sim, sale.id);
    const before = await allSales(sim);
    const { voided } = nameDemoSales(
      refs,
      before.filter((s) => s.id !== sale.id),
    );
    for (const id of [voided.id, sale.id]) {
      const reply = await control(sim, "POST", `/stores/demo/sales/${id}/refunds`, {});
      expect(reply.status).toBe(409);
      expect(reply.json).toStrictEqual({ error: { code: "CONFLICT", message: expect.any(String) } });
    }
    await expectUnchanged(sim, before);
  });

  it("refunding an unknown sale answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    const reply = await control(sim, "POST", "/stores/demo/sales/00000000-0000-4000-8000-000000000001/refunds", {});
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe("NOT_FOUND");
  });

  it.each<[string, (product: string) => unknown]>([
    ["lines empty", () => ({ lines: [] })],
    ["quantity 0", (p) => ({ lines: [{ product_id: p, quantity: 0 }] })],
    ["quantity negative", (p) => ({ lines: [{ product_id: p, quantity: -1 }] })],
    ["product_id not a UUID", () => ({ lines: [{ product_id: "TOTE-CANVAS", quantity: 1 }] })],
    ["an unknown property", (p) => ({ lines: [{ product_id: p, quantity: 1 }], reason: "damaged" })],
  ])("a refund body with %s answers 400 VALIDATION_FAILED, and nothing changes", async (_name, body) => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const before = await allSales(sim);
    const reply = await control(
      sim,
      "POST",
      `/stores/demo/sales/${sale.id}/refunds`,
      body(refs.product("TOTE-CANVAS").id),
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
    await expectUnchanged(sim, before);
  });
});

describe("Voids (interfaces.md 3: POST .../sales/{id}/void; Choices, Sales: only a completed sale without refunds)", () => {
  it("a void makes the sale voided with a new, higher version at the end of the feed; everything else stays", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: refs.product("MUG-ENAMEL").id, quantity: 1, unit_price: 2400 }],
    });
    await advance(sim, 300);
    const voided = await makeVoid(sim, sale.id);
    expect(voided).toStrictEqual({ ...sale, status: "voided", version: voided.version });
    expect(BigInt(voided.version)).toBeGreaterThan(BigInt(sale.version));
    expect(await getSale(sim, sale.id)).toStrictEqual(voided);
    const listed = await allSales(sim);
    expect(listed[listed.length - 1]).toStrictEqual(voided);
    expect(listed.filter((s) => s.id === sale.id)).toHaveLength(1);
    expectValidSale(voided);
  });

  it("Choices, Control plane (success status: 200 except keys and faults): a void answers 200 with the voided sale", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/void`);
    expect(reply.status).toBe(200);
    expect(reply.json.status).toBe("voided");
  });

  it.each(["bob", "carmen", "voided"] as const)(
    "voiding the fixture's %s sale (partially refunded, refunded, voided) answers 409 CONFLICT, and nothing changes",
    async (name) => {
      const sim = makeSim();
      const refs = await demoRefs(sim);
      const before = await allSales(sim);
      const sale = nameDemoSales(refs, before)[name];
      const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/void`);
      expect(reply.status).toBe(409);
      expect(reply.json).toStrictEqual({ error: { code: "CONFLICT", message: expect.any(String) } });
      expect(await allSales(sim)).toStrictEqual(before);
    },
  );

  it("voiding a sale after a partial refund answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const sale = await threeTotes(sim, refs);
    await makeRefund(sim, sale.id, [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1 }]);
    const reply = await control(sim, "POST", `/stores/demo/sales/${sale.id}/void`);
    expect(reply.status).toBe(409);
    expect(reply.json.error.code).toBe("CONFLICT");
    expect((await getSale(sim, sale.id)).status).toBe("partially_refunded");
  });

  it("voiding an unknown sale answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    const reply = await control(sim, "POST", "/stores/demo/sales/00000000-0000-4000-8000-000000000001/void");
    expect(reply.status).toBe(404);
    expect(reply.json.error.code).toBe("NOT_FOUND");
  });
});
