// Tests of the GET /sales filters against the spec (retail-api-v1.md): the /sales row of Endpoints
// (completed_from, completed_to, status, outlet_id, customer_id, parent_sale_id), "Sales list rules"
// 1 to 4, "Pagination and polling rules" 1, "Errors" (VALIDATION_FAILED for a bad query parameter),
// and the recorded choices (docs/spec-choices.md: "Sales" filters, "Requests" unknown and repeated
// query parameters). Rows come in feed order (oldest change first), which in the demo fixture is
// alice, walkIn, bobRefund, bob, dev, carmenRefund, carmen, voided, erin (time order).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim } from "../../test-support/sim.js";
import {
  allSales,
  control,
  demoRefs,
  listSales,
  makeRefund,
  makeSale,
  nameDemoSales,
  type DemoRefs,
  type DemoSales,
  type Sale,
} from "../../test-support/sales.js";
import { expectError } from "../../test-support/errors.js";

async function setup(): Promise<{ sim: Simulator; refs: DemoRefs; fx: DemoSales; all: Sale[] }> {
  const sim = makeSim();
  const refs = await demoRefs(sim);
  const all = await allSales(sim);
  return { sim, refs, fx: nameDemoSales(refs, all), all };
}

const ids = (sales: Sale[]) => sales.map((s) => s.id);

const get = (sim: Simulator, query: string) => call(sim, "GET", `/demo/v1/sales?${query}`, { key: "sales:read" });

describe("Spec, Sales list rules 1: completed_from and completed_to filter completed_at, UTC ending in Z, both ends inclusive", () => {
  it("the fixture: from DEV's completed_at to CARMEN's refund's completed_at returns exactly those two, both boundary rows included", async () => {
    const { sim, fx } = await setup();
    expect(fx.dev.completed_at).toBe("2025-12-30T22:00:00.000Z");
    expect(fx.carmenRefund.completed_at).toBe("2025-12-31T04:00:00.000Z");
    const exact = await allSales(sim, { completed_from: "2025-12-30T22:00:00Z", completed_to: "2025-12-31T04:00:00Z" });
    expect(ids(exact)).toEqual(ids([fx.dev, fx.carmenRefund]));
    const withMillis = await allSales(sim, {
      completed_from: "2025-12-30T22:00:00.000Z",
      completed_to: "2025-12-31T04:00:00.000Z",
    });
    expect(withMillis).toStrictEqual(exact);
  });

  it("sales made at set instants (with milliseconds): from = to = an instant returns exactly the sale completed then", async () => {
    const { sim, refs, all } = await setup();
    const made: Sale[] = [];
    for (const at of ["2026-01-01T01:00:00.250Z", "2026-01-01T01:00:00.500Z", "2026-01-01T01:00:00.750Z"]) {
      expect((await control(sim, "POST", "/clock", { set: at })).json).toEqual({ now: at });
      made.push(
        await makeSale(sim, {
          outlet_id: refs.mainStreet,
          lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 }],
        }),
      );
      expect(made[made.length - 1]!.completed_at).toBe(at);
    }
    const [t1, t2, t3] = made as [Sale, Sale, Sale];
    expect(ids(await allSales(sim, { completed_from: t2.completed_at, completed_to: t2.completed_at }))).toEqual([
      t2.id,
    ]);
    expect(ids(await allSales(sim, { completed_from: t2.completed_at }))).toEqual([t2.id, t3.id]);
    expect(ids(await allSales(sim, { completed_to: t2.completed_at }))).toEqual([...ids(all), t1.id, t2.id]);
    expect(
      ids(
        await allSales(sim, { completed_from: "2026-01-01T01:00:00.251Z", completed_to: "2026-01-01T01:00:00.749Z" }),
      ),
    ).toEqual([t2.id]);
  });

  it("the filter is on completed_at, not on the last change: CARMEN's sale, refunded on 31 December, is left out from 31 December on", async () => {
    const { sim, fx } = await setup();
    expect(ids(await allSales(sim, { completed_from: "2025-12-31T00:00:00Z" }))).toEqual(
      ids([fx.carmenRefund, fx.voided, fx.erin]),
    );
  });

  it("completed_from after completed_to is no error, just an empty page", async () => {
    const { sim } = await setup();
    expect(
      await listSales(sim, { completed_from: "2025-12-31T00:00:00Z", completed_to: "2025-12-30T00:00:00Z" }),
    ).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });

  const refusedTimes = [
    "2025-12-30T23:00:00+01:00",
    "2025-12-30T17:00:00-05:00",
    "2025-12-30T22:00:00+00:00",
    "2025-12-30T22:00:00",
    "2025-12-30",
    "yesterday",
  ];
  for (const field of ["completed_from", "completed_to"]) {
    it.each(refusedTimes)(
      `${field}=%s (URL-encoded; an offset, no zone or no time) answers 400 VALIDATION_FAILED naming ${field}`,
      async (value) => {
        const { sim } = await setup();
        expectError(await get(sim, `${field}=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", field);
      },
    );
  }

  // Found by the fuzzer: impossible instants were once ignored (no filter) or rolled over into other dates.
  const impossible = [
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2025-02-29T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T23:60:00Z",
    "2026-01-01T23:59:60Z",
    "2026-04-31T12:00:00Z",
  ];
  for (const field of ["completed_from", "completed_to"]) {
    it.each(impossible)(
      `${field}=%s (no such instant) answers 400 VALIDATION_FAILED naming ${field}, never a page`,
      async (value) => {
        const { sim } = await setup();
        expectError(await get(sim, `${field}=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", field);
      },
    );
  }

  it("real edge instants are accepted: 29 February of a leap year, 23:59:59.999, the first millisecond of a year", async () => {
    const { sim } = await setup();
    for (const value of ["2024-02-29T00:00:00Z", "2025-12-31T23:59:59.999Z", "2026-01-01T00:00:00.000Z"]) {
      expect((await get(sim, `completed_from=${encodeURIComponent(value)}`)).status).toBe(200);
    }
  });

  it("the offset is refused even when it names the same instant as a valid Z time (+01:00 spelled %2B01:00)", async () => {
    const { sim, fx } = await setup();
    expect(
      ids(await allSales(sim, { completed_from: "2025-12-30T22:00:00Z", completed_to: "2025-12-30T22:00:00Z" })),
    ).toEqual([fx.dev.id]);
    expectError(
      await get(sim, "completed_from=2025-12-30T23:00:00%2B01:00"),
      400,
      "VALIDATION_FAILED",
      "completed_from",
    );
    expectError(await get(sim, "completed_to=2025-12-30T23:00:00%2B01:00"), 400, "VALIDATION_FAILED", "completed_to");
  });
});

describe("Spec, Sales list rules 2: status accepts completed, partially_refunded, refunded, voided; open answers 400", () => {
  it.each<[string, (fx: DemoSales) => Sale[]]>([
    ["completed", (fx) => [fx.alice, fx.walkIn, fx.bobRefund, fx.dev, fx.carmenRefund, fx.erin]],
    ["partially_refunded", (fx) => [fx.bob]],
    ["refunded", (fx) => [fx.carmen]],
    ["voided", (fx) => [fx.voided]],
  ])(
    "status=%s returns exactly the fixture sales with that status (refunds are completed sales)",
    async (status, expected) => {
      const { sim, fx } = await setup();
      const page = await listSales(sim, { status, limit: "200" });
      expect(ids(page.data)).toEqual(ids(expected(fx)));
      expect(page.data).toStrictEqual(expected(fx));
      expect(page.has_more).toBe(false);
    },
  );

  it("a sale's status filter follows its status: once partly refunded, it leaves status=completed and joins status=partially_refunded", async () => {
    const { sim, refs, fx } = await setup();
    await makeRefund(sim, fx.alice.id, [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1 }]);
    expect(ids(await allSales(sim, { status: "completed" }))).not.toContain(fx.alice.id);
    expect(ids(await allSales(sim, { status: "partially_refunded" }))).toEqual([fx.bob.id, fx.alice.id]);
  });

  it.each(["open", "OPEN", "Completed", "cancelled", ""])(
    "status=%s answers 400 VALIDATION_FAILED naming status",
    async (status) => {
      const { sim } = await setup();
      expectError(await get(sim, `status=${status}`), 400, "VALIDATION_FAILED", "status");
    },
  );
});

describe("Spec, Sales list rules 3: include_deleted on sales answers 400 VALIDATION_FAILED", () => {
  // include_deleted=true: the rule sales.include-deleted-refused (naming include_deleted in its strict part).
  it.each([
    "include_deleted=false",
    "include_deleted=true&order=asc",
    "include_deleted=false&order=desc",
    "include_deleted=yes",
  ])("%s answers 400 naming include_deleted", async (query) => {
    const { sim } = await setup();
    expectError(await get(sim, query), 400, "VALIDATION_FAILED", "include_deleted");
  });
});

describe("Spec, Sales list rules 4 and the /sales filters outlet_id, customer_id, parent_sale_id", () => {
  it("customer_id returns exactly that customer's sales and refunds (the walk-in customer's too)", async () => {
    const { sim, refs, fx } = await setup();
    expect(ids(await allSales(sim, { customer_id: refs.customer("BOB") }))).toEqual(ids([fx.bobRefund, fx.bob]));
    expect(ids(await allSales(sim, { customer_id: refs.walkIn }))).toEqual(ids([fx.walkIn, fx.voided]));
    expect(ids(await allSales(sim, { customer_id: refs.customer("ERIN") }))).toEqual([fx.erin.id]);
  });

  it("parent_sale_id of a sale refunded three times returns its three refunds, oldest first, and nothing else", async () => {
    const { sim, refs } = await setup();
    const tote = refs.product("TOTE-CANVAS").id;
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: tote, quantity: 3, unit_price: 100 }],
    });
    const other = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: tote, quantity: 1, unit_price: 100 }],
    });
    const refunds = [
      await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 1 }]),
      await makeRefund(sim, other.id),
      await makeRefund(sim, sale.id, [{ product_id: tote, quantity: 1 }]),
    ];
    const third = await makeRefund(sim, sale.id);
    expect(await allSales(sim, { parent_sale_id: sale.id })).toStrictEqual([refunds[0], refunds[2], third]);
    expect(await allSales(sim, { parent_sale_id: other.id })).toStrictEqual([refunds[1]]);
  });

  it("filters combine: outlet_id, status and customer_id together return the rows matching all of them", async () => {
    const { sim, refs, fx } = await setup();
    expect(ids(await allSales(sim, { outlet_id: refs.harbourFront, status: "completed" }))).toEqual(
      ids([fx.bobRefund, fx.dev, fx.erin]),
    );
    expect(ids(await allSales(sim, { outlet_id: refs.mainStreet, customer_id: refs.customer("BOB") }))).toEqual([]);
    expect(ids(await allSales(sim, { customer_id: refs.customer("BOB"), status: "partially_refunded" }))).toEqual([
      fx.bob.id,
    ]);
    expect(
      ids(
        await allSales(sim, {
          parent_sale_id: fx.carmen.id,
          completed_from: "2025-12-31T04:00:00Z",
          completed_to: "2025-12-31T04:00:00Z",
        }),
      ),
    ).toEqual([fx.carmenRefund.id]);
  });

  it("a filtered list pages with its cursor: status=completed with limit=2 gives the six completed rows in three pages", async () => {
    const { sim, fx } = await setup();
    const seen: Sale[] = [];
    let cursor: string | undefined;
    const pages: number[] = [];
    for (;;) {
      const page = await listSales(sim, { status: "completed", limit: "2", ...(cursor ? { cursor } : {}) });
      seen.push(...page.data);
      pages.push(page.data.length);
      if (!page.has_more) break;
      cursor = page.next_cursor!;
    }
    expect(pages).toEqual([2, 2, 2]);
    expect(ids(seen)).toEqual(ids([fx.alice, fx.walkIn, fx.bobRefund, fx.dev, fx.carmenRefund, fx.erin]));
  });

  it.each(["outlet_id", "customer_id", "parent_sale_id"])(
    "%s with an unknown UUID returns an empty page (next_cursor null, has_more false)",
    async (field) => {
      const { sim } = await setup();
      expect(await listSales(sim, { [field]: "00000000-0000-4000-8000-0000000000ff" })).toStrictEqual({
        data: [],
        next_cursor: null,
        has_more: false,
      });
    },
  );

  it.each([
    ["outlet_id", "main-street"],
    ["customer_id", "BOB"],
    ["parent_sale_id", "12345"],
    ["outlet_id", ""],
  ])("%s=%s (not a UUID) answers 400 VALIDATION_FAILED naming the parameter", async (field, value) => {
    const { sim } = await setup();
    expectError(await get(sim, `${field}=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", field);
  });

  it.each(["sale_status=completed", "created_from=2025-12-30T00:00:00Z", "deleted=true"])(
    "Choices, Requests (unknown query parameters): %s answers 400 naming the parameter",
    async (query) => {
      const { sim } = await setup();
      expectError(await get(sim, query), 400, "VALIDATION_FAILED", query.split("=")[0]!);
    },
  );

  it("Choices, Requests (a parameter given twice): status twice answers 400 naming status", async () => {
    const { sim } = await setup();
    expectError(await get(sim, "status=completed&status=voided"), 400, "VALIDATION_FAILED", "status");
  });
});
