// Tests of the sale document, reads by id and the scope of the sales routes, against the spec
// (retail-api-v1.md): Resources, Sale; rules 2, 3, 5 and 7 of "What the service does"; the /sales rows
// of Endpoints; Authentication (Scopes); Errors; and the recorded choices (docs/spec-choices.md,
// "Sales"). Making sales through the control plane: make.test.ts. Refunds and voids:
// refunds.test.ts. Filters: filters.test.ts. Polling: polling.test.ts.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import {
  allSales,
  demoRefs,
  expectCentsAddUp,
  expectSaleShape,
  getSale,
  lineSubtotal,
  lineTax,
  makeSale,
  nameDemoSales,
  UUID,
  type Sale,
} from "../../test-support/sales.js";

const START = "2026-01-01T00:00:00.000Z";
const uuid = expect.stringMatching(UUID);

describe("Spec, What the service does 3: the sale list and a single sale read return the same full sale document", () => {
  it("a sale made through the control plane: the control answer, GET /sales/{id} and the GET /sales row are the same document", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const made = await makeSale(sim, {
      outlet_id: refs.harbourFront,
      customer_id: refs.customer("DEV"),
      lines: [{ product_id: refs.product("SCARF-KNIT").id, quantity: 2, unit_price: 3600 }],
    });
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
    expect(sales.map((s) => s.id).sort()).toEqual(
      Object.values(named)
        .map((s) => s.id)
        .sort(),
    );
    expect(named.alice.status).toBe("completed");
    expect(named.walkIn.status).toBe("completed");
    expect(named.dev.status).toBe("completed");
    expect(named.erin.status).toBe("completed");
    expect(named.bob.status).toBe("partially_refunded");
    expect(named.carmen.status).toBe("refunded");
    expect(named.voided.status).toBe("voided");
    // A refund is a completed sale (choice) of the same outlet and customer.
    for (const [refund, original] of [
      [named.bobRefund, named.bob],
      [named.carmenRefund, named.carmen],
    ] as const) {
      expect(refund.status).toBe("completed");
      expect(refund.parent_sale_id).toBe(original.id);
      expect(refund.outlet_id).toBe(original.outlet_id);
      expect(refund.customer_id).toBe(original.customer_id);
    }
    expect(
      sales
        .filter((s) => s.parent_sale_id !== null)
        .map((s) => s.id)
        .sort(),
    ).toEqual([named.bobRefund.id, named.carmenRefund.id].sort());
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
      expect(sale.taxes).toStrictEqual([
        { tax_id: refs.salesTax.id, name: "Sales Tax", rate: 0.0875, amount: sale.tax_total },
      ]);
      for (const line of sale.line_items) {
        expect(line.tax_id).toBe(refs.salesTax.id);
        const subtotal = lineSubtotal(line.quantity, line.unit_price);
        const tax = lineTax(subtotal, 0.0875);
        if (line.subtotal !== subtotal || line.tax_total !== tax) {
          wrong.push(
            `${line.name}: ${line.quantity} × ${line.unit_price} = ${line.subtotal} (expected ${subtotal}), tax ${line.tax_total} (expected ${tax})`,
          );
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
      {
        id: uuid,
        product_id: socks.id,
        name: "Wool Socks",
        quantity: -1,
        unit_price: sold.unit_price,
        subtotal: -1800,
        tax_id: refs.salesTax.id,
        tax_total: -158,
        total: -1958,
      },
    ]);
    expect(bobRefund).toMatchObject({ subtotal: -1800, tax_total: -158, total: -1958, paid_total: -1958 });
  });

  it("Spec, What the service does 5: created_at, completed_at and paid_at are UTC ending in Z, at the fixture's hours before the start", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const named = nameDemoSales(refs, await allSales(sim));
    const hoursBefore = (h: number) => new Date(Date.parse(START) - h * 3_600_000).toISOString();
    const expected: Record<keyof typeof named, number> = {
      alice: 72,
      walkIn: 60,
      bob: 50,
      bobRefund: 30,
      carmen: 40,
      carmenRefund: 20,
      dev: 26,
      voided: 12,
      erin: 3,
    };
    for (const [name, hours] of Object.entries(expected) as [keyof typeof named, number][]) {
      const sale = named[name];
      expect(sale.completed_at, name).toBe(hoursBefore(hours));
      expect(sale.created_at, name).toBe(hoursBefore(hours));
      expect(
        sale.payments.map((p) => p.paid_at),
        name,
      ).toEqual([hoursBefore(hours)]);
    }
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
    expectNotFound(
      await call(makeSim(), "GET", "/demo/v1/sales/00000000-0000-4000-8000-000000000001", { key: "sales:read" }),
    );
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

  it.each([
    "none",
    "catalog:read",
    "catalog:write",
    "inventory:read",
    "inventory:write",
    "customers:read",
    "customers:write",
  ])("the key `%s` (without sales:read) answers 403 INSUFFICIENT_SCOPE on both routes", async (key) => {
    const sim = makeSim();
    const [sale] = await allSales(sim);
    for (const path of ["/demo/v1/sales", `/demo/v1/sales/${sale!.id}`, "/demo/v1/sales?status=completed"]) {
      const reply = await call(sim, "GET", path, { key });
      expect(reply.status, path).toBe(403);
      expect(reply.json).toStrictEqual({ error: { code: "INSUFFICIENT_SCOPE", message: expect.any(String) } });
    }
  });

  // POST /sales, PATCH and DELETE /sales/{id}: the rule sales.read-only (404 NOT_FOUND in its strict part).
  it.each([
    ["PUT", "/demo/v1/sales/{id}"],
    ["POST", "/demo/v1/sales/{id}/refunds"],
    ["POST", "/demo/v1/sales/{id}/void"],
  ])(
    "Spec, What the service does (sales and refunds, read only): %s %s is no route (404 NOT_FOUND, even for the full key) and changes nothing",
    async (method, path) => {
      const sim = makeSim();
      const refs = await demoRefs(sim);
      const before = await allSales(sim);
      const reply = await call(sim, method, path.replace("{id}", before[0]!.id), {
        key: "full",
        body: {
          outlet_id: refs.mainStreet,
          lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 100 }],
        },
      });
      expect(reply.status).toBe(404);
      expect(reply.json).toStrictEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
      expect(await allSales(sim)).toStrictEqual(before);
    },
  );
});
