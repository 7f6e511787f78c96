// Tests of polling GET /sales for changes, the way an SDK would, against the spec (retail-api-v1.md):
// "Pagination and polling rules" 1 to 3, rule 4 of "What the service does" (every list pages with a
// cursor and supports polling), States, Sale status ("a sale that is refunded later receives a new
// version and its new status"), Events (changes are detected by cursor polling), and the recorded
// choices (docs/spec-choices.md: "Shapes" cursor and next_cursor on the last non-empty page; "Sales":
// the original after a refund moves to the end of the feed; parked sales are never listed). Time only
// moves through POST /_sim/clock.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim } from "../../test-support/sim.js";
import {
  advance,
  allSales,
  control,
  demoRefs,
  expectValidSale,
  getSale,
  listSales,
  makeRefund,
  makeSale,
  makeVoid,
  nameDemoSales,
  type ListBody,
  type Sale,
} from "../../test-support/sales.js";
import { expectError } from "../../test-support/errors.js";

const ids = (sales: Sale[]) => sales.map((s) => s.id);

interface Drained {
  rows: Sale[];
  pages: ListBody[];
  /** The cursor an SDK holds afterwards: the last non-null next_cursor (rule 2: keep it on an empty page). */
  cursor: string | undefined;
}

/** The SDK loop: poll from `cursor` until has_more is false, keeping the cursor when a page gives none. */
async function drain(sim: Simulator, cursor: string | undefined, limit: number): Promise<Drained> {
  const rows: Sale[] = [];
  const pages: ListBody[] = [];
  for (let guard = 0; guard < 100; guard++) {
    const page = await listSales(sim, { limit: String(limit), ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page);
    rows.push(...page.data);
    cursor = page.next_cursor ?? cursor;
    if (!page.has_more) return { rows, pages, cursor };
  }
  throw new Error("the feed never ended");
}

describe("Spec, Pagination and polling rules 1: paging through /sales with limit=2 from the start", () => {
  it("collects every sale exactly once, oldest change first (versions rising), in pages of 2, 2, 2, 2, 1 with has_more true until the last", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const all = await allSales(sim);
    const fx = nameDemoSales(refs, all);
    const { rows, pages, cursor } = await drain(sim, undefined, 2);
    expect(pages.map((p) => p.data.length)).toEqual([2, 2, 2, 2, 1]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, true, true, false]);
    for (const page of pages) expect(page.next_cursor).toEqual(expect.any(String));
    expect(ids(rows)).toEqual(
      ids([fx.alice, fx.walkIn, fx.bobRefund, fx.bob, fx.dev, fx.carmenRefund, fx.carmen, fx.voided, fx.erin]),
    );
    expect(new Set(ids(rows)).size).toBe(9);
    expect(rows).toStrictEqual(all);
    const versions = rows.map((s) => BigInt(s.version));
    for (let i = 1; i < versions.length; i++) expect(versions[i]! > versions[i - 1]!, `version ${i}`).toBe(true);
    // Choices, Shapes: the last non-empty page still gives a cursor to hold.
    expect(cursor).toBe(pages[pages.length - 1]!.next_cursor);
    for (const sale of rows) expectValidSale(sale);
  });

  it("oldest change first in time too: along the fixture's feed, each row's last change (completed_at, or an original's latest refund) never goes back in time", async () => {
    const sim = makeSim();
    const rows = (await drain(sim, undefined, 2)).rows;
    const changedAt = (sale: Sale): string => {
      const refunds = rows.filter((r) => r.parent_sale_id === sale.id).map((r) => r.completed_at);
      return [sale.completed_at, ...refunds].sort().at(-1)!;
    };
    // A voided row's void time is not in the document; it is left out of the comparison.
    const timeline = rows
      .filter((s) => s.status !== "voided")
      .map((s) => `${changedAt(s)} ${s.parent_sale_id === null ? s.status : "refund"} ${s.id}`);
    const byTime = [...timeline].sort((a, b) =>
      a.slice(0, 24) < b.slice(0, 24) ? -1 : a.slice(0, 24) > b.slice(0, 24) ? 1 : 0,
    );
    expect(timeline).toEqual(byTime);
  });

  it("limit 1 to 200 is accepted; 0, 201 and non-digits answer 400 VALIDATION_FAILED naming limit", async () => {
    const sim = makeSim();
    expect((await listSales(sim, { limit: "1" })).data).toHaveLength(1);
    expect((await listSales(sim, { limit: "200" })).data).toHaveLength(9);
    for (const limit of ["0", "201", "two", "-1", "1.5"]) {
      const reply = await call(sim, "GET", `/demo/v1/sales?limit=${limit}`, { key: "sales:read" });
      expect(reply.status, limit).toBe(400);
      expect(reply.json.error.code).toBe("VALIDATION_FAILED");
      expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["limit"]);
    }
  });
});

describe("Spec, Pagination and polling rules 2 (an empty page returns next_cursor null; keep the cursor already held) and States, Sale status", () => {
  it("the SDK loop: caught up, a poll is empty; after a new sale and a refund of an old one, the held cursor returns exactly the new sale, the refund and the original with its new status and higher version, once each, in change order", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const first = await drain(sim, undefined, 2);
    const fx = nameDemoSales(refs, first.rows);
    const held = first.cursor!;
    expect(held).toEqual(expect.any(String));

    // Caught up: an empty page, next_cursor null, has_more false; the SDK keeps its cursor.
    for (let i = 0; i < 2; i++) {
      expect(await listSales(sim, { limit: "2", cursor: held })).toStrictEqual({
        data: [],
        next_cursor: null,
        has_more: false,
      });
    }

    await advance(sim, 600);
    const sale = await makeSale(sim, {
      outlet_id: refs.mainStreet,
      customer_id: refs.customer("DEV"),
      lines: [{ product_id: refs.product("SCARF-KNIT").id, quantity: 1, unit_price: 3600 }],
    });
    await advance(sim, 600);
    const refund = await makeRefund(sim, fx.alice.id, [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1 }]);

    const next = await drain(sim, held, 2);
    expect(next.pages.map((p) => [p.data.length, p.has_more])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(ids(next.rows)).toEqual([sale.id, refund.id, fx.alice.id]);
    const [seenSale, seenRefund, seenAlice] = next.rows as [Sale, Sale, Sale];
    expect(seenSale).toStrictEqual(sale);
    expect(seenRefund).toStrictEqual(refund);
    expect(seenRefund.parent_sale_id).toBe(fx.alice.id);
    expect(seenAlice).toStrictEqual({ ...fx.alice, status: "partially_refunded", version: seenAlice.version });
    expect(BigInt(seenAlice.version)).toBeGreaterThan(BigInt(fx.alice.version));
    expect(BigInt(seenAlice.version)).toBeGreaterThan(BigInt(seenRefund.version));
    expect(BigInt(seenRefund.version)).toBeGreaterThan(BigInt(seenSale.version));
    expect(BigInt(seenSale.version)).toBeGreaterThan(BigInt(first.rows.at(-1)!.version));
    expect(await getSale(sim, fx.alice.id)).toStrictEqual(seenAlice);

    // Caught up again from the new cursor.
    expect(next.cursor).not.toBe(held);
    expect(await listSales(sim, { limit: "2", cursor: next.cursor! })).toStrictEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });
  });

  it("refunding the rest later shows the original again, now refunded, with a still higher version", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const first = await drain(sim, undefined, 50);
    const fx = nameDemoSales(refs, first.rows);
    await advance(sim, 3600);
    const rest = await makeRefund(sim, fx.bob.id);
    const next = await drain(sim, first.cursor, 50);
    expect(ids(next.rows)).toEqual([rest.id, fx.bob.id]);
    expect(next.rows[1]!.status).toBe("refunded");
    expect(BigInt(next.rows[1]!.version)).toBeGreaterThan(BigInt(fx.bob.version));
  });

  it("a void shows up in the poll as the voided sale with a higher version; a parked sale never does", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const first = await drain(sim, undefined, 50);
    const fx = nameDemoSales(refs, first.rows);
    await advance(sim, 60);
    const parked = await control(sim, "POST", "/stores/demo/sales", {
      outlet_id: refs.mainStreet,
      lines: [{ product_id: refs.product("TOTE-CANVAS").id, quantity: 1, unit_price: 3400 }],
      parked: true,
    });
    expect(parked.status).toBeLessThan(300);
    expect(await listSales(sim, { cursor: first.cursor! })).toStrictEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });
    await advance(sim, 60);
    const voided = await makeVoid(sim, fx.dev.id);
    const next = await drain(sim, first.cursor, 50);
    expect(next.rows).toStrictEqual([voided]);
    expect(voided.status).toBe("voided");
    expect(BigInt(voided.version)).toBeGreaterThan(BigInt(fx.dev.version));
  });

  it("a sale changed while an SDK is paging is seen again, once more, after its change", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const page1 = await listSales(sim, { limit: "2" });
    const fx = nameDemoSales(refs, await allSales(sim));
    expect(ids(page1.data)).toEqual([fx.alice.id, fx.walkIn.id]);
    await advance(sim, 60);
    const refund = await makeRefund(sim, fx.walkIn.id);
    const rest = await drain(sim, page1.next_cursor!, 2);
    expect(ids(rest.rows)).toEqual(
      ids([fx.bobRefund, fx.bob, fx.dev, fx.carmenRefund, fx.carmen, fx.voided, fx.erin, refund]).concat(fx.walkIn.id),
    );
    expect(rest.rows.at(-1)!.status).toBe("refunded");
    expect(new Set(ids(rest.rows)).size).toBe(rest.rows.length);
  });
});

describe("Spec, Pagination and polling rules 1 (an unreadable cursor answers 400 with a cursor field error)", () => {
  it("a made-up, an edited and another list's cursor each answer 400 VALIDATION_FAILED naming cursor", async () => {
    const sim = makeSim();
    const page = await listSales(sim, { limit: "2" });
    const outlets = await call(sim, "GET", "/demo/v1/outlets?limit=1");
    expect(outlets.json.next_cursor).toEqual(expect.any(String));
    for (const cursor of [
      "not-a-cursor",
      `${page.next_cursor}x`,
      page.next_cursor!.slice(0, -2),
      outlets.json.next_cursor as string,
    ]) {
      expectError(
        await call(sim, "GET", `/demo/v1/sales?cursor=${encodeURIComponent(cursor)}`, { key: "sales:read" }),
        400,
        "VALIDATION_FAILED",
        "cursor",
      );
    }
  });
});

describe("Spec, Pagination and polling rules 3: order=desc returns one first page only, newest change first", () => {
  it("desc lists the newest change first: the asc feed reversed", async () => {
    const sim = makeSim();
    const asc = await allSales(sim);
    const desc = await listSales(sim, { order: "desc", limit: "200" });
    expect(desc).toStrictEqual({ data: [...asc].reverse(), next_cursor: null, has_more: false });
  });

  it("desc with limit=2 returns the two newest and no more: next_cursor null, has_more false", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const fx = nameDemoSales(refs, await allSales(sim));
    const page = await listSales(sim, { order: "desc", limit: "2" });
    expect(ids(page.data)).toEqual([fx.erin.id, fx.voided.id]);
    expect(page.next_cursor).toBeNull();
    expect(page.has_more).toBe(false);
  });

  it("desc after a refund starts with the original and then its refund", async () => {
    const sim = makeSim();
    const refs = await demoRefs(sim);
    const fx = nameDemoSales(refs, await allSales(sim));
    await advance(sim, 60);
    const refund = await makeRefund(sim, fx.dev.id);
    const page = await listSales(sim, { order: "desc", limit: "3" });
    expect(ids(page.data)).toEqual([fx.dev.id, refund.id, fx.erin.id]);
    expect(page.data[0]!.status).toBe("refunded");
  });

  it("with desc, a cursor is only validated: a valid one gives the same first page, an unreadable one answers 400 naming cursor", async () => {
    const sim = makeSim();
    const held = (await listSales(sim, { limit: "3" })).next_cursor!;
    const plain = await listSales(sim, { order: "desc", limit: "4" });
    expect(await listSales(sim, { order: "desc", limit: "4", cursor: held })).toStrictEqual(plain);
    expectError(
      await call(sim, "GET", "/demo/v1/sales?order=desc&cursor=garbage", { key: "sales:read" }),
      400,
      "VALIDATION_FAILED",
      "cursor",
    );
  });

  it("order other than asc or desc answers 400 VALIDATION_FAILED naming order", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/sales?order=newest", { key: "sales:read" });
    expect(reply.status).toBe(400);
    expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["order"]);
  });
});
