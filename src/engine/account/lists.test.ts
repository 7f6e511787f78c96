// Tests of the paginated reference-data lists (/outlets, /payment-types, /taxes) against the spec:
// "Endpoints" (common list parameters), "Pagination and polling rules", "Resources" (Outlet,
// PaymentType; the tax record is a recorded choice: {id, name, rate, version}) and "Errors".
// Rows are changed through the store state, since these lists have no public write endpoint.
import { describe, expect, it } from "vitest";
import type { Feed } from "../feed.js";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;

type AnyRow = Record<string, unknown> & { id: string; version: string };
interface ListBody {
  data: AnyRow[];
  next_cursor: string | null;
  has_more: boolean;
}

/** A UUID for test rows, distinct per n. */
const testId = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

interface ListCase {
  readonly path: string;
  readonly feed: (sim: Simulator) => Feed<any>;
  /** A fresh record for a row added by a test. */
  readonly record: (sim: Simulator, id: string, n: number) => Record<string, unknown>;
  /** The same record with a visible change. */
  readonly changed: (record: any, n: number) => Record<string, unknown>;
  /** Every row of the demo fixture (seed 1) as the list returns it, oldest change first. */
  readonly fixture: (sim: Simulator) => Promise<unknown[]>;
  /** A path of another paginated list, for foreign cursors. */
  readonly other: string;
}

const demo = (sim: Simulator) => sim.world.stores.get("demo")!;
const firstTaxId = (sim: Simulator): string => [...demo(sim).taxes.all()][0]!.id;

async function taxIdByName(sim: Simulator, name: string): Promise<string> {
  const reply = await call(sim, "GET", "/demo/v1/taxes");
  const tax = (reply.json.data as AnyRow[]).find((t) => t.name === name);
  expect(tax, `tax ${name} in GET /taxes`).toBeDefined();
  return tax!.id;
}

const version = expect.stringMatching(DECIMAL);
const uuid = expect.stringMatching(UUID);

const CASES: ListCase[] = [
  {
    path: "/demo/v1/outlets",
    feed: (sim) => demo(sim).outlets,
    record: (sim, id, n) => ({
      id,
      name: `Outlet ${n}`,
      timezone: "Europe/London",
      status: "active",
      default_tax_id: firstTaxId(sim),
    }),
    changed: (r, n) => ({
      ...r,
      name: `${r.name} (changed ${n})`,
      status: r.status === "active" ? "inactive" : "active",
    }),
    fixture: async (sim) => {
      const salesTax = await taxIdByName(sim, "Sales Tax");
      return [
        {
          id: uuid,
          name: "Main Street",
          timezone: "America/New_York",
          status: "active",
          default_tax_id: salesTax,
          version,
        },
        {
          id: uuid,
          name: "Harbour Front",
          timezone: "America/Chicago",
          status: "active",
          default_tax_id: salesTax,
          version,
        },
      ];
    },
    other: "/demo/v1/taxes",
  },
  {
    path: "/demo/v1/payment-types",
    feed: (sim) => demo(sim).paymentTypes,
    record: (_sim, id, n) => ({ id, name: `Payment ${n}`, enabled: true }),
    changed: (r, n) => ({ ...r, name: `${r.name} (changed ${n})`, enabled: !r.enabled }),
    fixture: async () => [
      { id: uuid, name: "Cash", enabled: true, version },
      { id: uuid, name: "Card", enabled: true, version },
      { id: uuid, name: "Cheque", enabled: false, version },
    ],
    other: "/demo/v1/outlets",
  },
  {
    path: "/demo/v1/taxes",
    feed: (sim) => demo(sim).taxes,
    record: (_sim, id, n) => ({ id, name: `Tax ${n}`, rate: 0.05 }),
    changed: (r, n) => ({ ...r, name: `${r.name} (changed ${n})`, rate: r.rate === 0.2 ? 0.1 : 0.2 }),
    fixture: async () => [
      { id: uuid, name: "Sales Tax", rate: 0.0875, version },
      { id: uuid, name: "Tax Exempt", rate: 0, version },
    ],
    other: "/demo/v1/payment-types",
  },
];

/** GET with a raw query string (already encoded), so odd values reach the server as written. */
const get = (sim: Simulator, path: string, query = ""): Promise<Reply> =>
  call(sim, "GET", query ? `${path}?${query}` : path);

async function page(sim: Simulator, path: string, query = ""): Promise<ListBody> {
  const reply = await get(sim, path, query);
  expect(reply.status, `GET ${path}?${query}: ${reply.text}`).toBe(200);
  return reply.json as ListBody;
}

/** Pages through the list with `limit` until has_more is false; returns every page. */
async function walk(sim: Simulator, path: string, limit: number, from?: string): Promise<ListBody[]> {
  const pages: ListBody[] = [];
  let cursor = from;
  for (let i = 0; i < 500; i++) {
    const body = await page(sim, path, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(body);
    if (!body.has_more) return pages;
    expect(body.next_cursor).toEqual(expect.any(String));
    cursor = body.next_cursor!;
  }
  throw new Error("walk did not end");
}

function addRows(sim: Simulator, c: ListCase, count: number, base = 1): string[] {
  const ids: string[] = [];
  for (let n = base; n < base + count; n++) {
    const id = testId(n);
    c.feed(sim).put(id, c.record(sim, id, n));
    ids.push(id);
  }
  return ids;
}

function change(sim: Simulator, c: ListCase, id: string, n: number): void {
  const feed = c.feed(sim);
  feed.put(id, c.changed(feed.row(id)!.value, n));
}

const big = (v: string): bigint => BigInt(v);

function expectAscending(rows: AnyRow[]): void {
  for (let i = 1; i < rows.length; i++)
    expect(big(rows[i]!.version) > big(rows[i - 1]!.version), `row ${i} newer than row ${i - 1}`).toBe(true);
}

/** Cursors a client could send that the service never issued for this list. */
function unreadableCursors(valid: string, foreign: string): Record<string, string> {
  const last = valid.at(-1) === "A" ? "B" : "A";
  return {
    garbage: "not a cursor!",
    "plain word": "abc",
    "tampered (last character changed)": valid.slice(0, -1) + last,
    "tampered (truncated)": valid.slice(0, -4),
    "tampered (padded as standard base64)": `${valid}==`,
    "base64 of some other JSON": Buffer.from(JSON.stringify({ hello: "world" }), "utf8").toString("base64url"),
    "base64 of bytes that are not JSON": Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString("base64url"),
    "cursor of another list": foreign,
  };
}

for (const c of CASES) {
  const list = c.path.replace("/demo/v1", "");

  describe(`GET ${list}`, () => {
    describe("Spec, Resources and rule 7 of What the service does: list shape and every field", () => {
      it(`returns {data, next_cursor, has_more} with every fixture row in full, exactly`, async () => {
        const sim = makeSim();
        const reply = await get(sim, c.path);
        expect(reply.status).toBe(200);
        expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
        expect(Object.keys(reply.json).sort()).toEqual(["data", "has_more", "next_cursor"]);
        expect(reply.json).toStrictEqual({
          data: await c.fixture(sim),
          next_cursor: expect.any(String),
          has_more: false,
        });
      });

      it("gives every row a distinct UUID id and a decimal-string version", async () => {
        const sim = makeSim();
        const { data } = await page(sim, c.path);
        for (const row of data) {
          expect(row.id).toMatch(UUID);
          expect(typeof row.version).toBe("string");
          expect(row.version).toMatch(DECIMAL);
        }
        expect(new Set(data.map((r) => r.id)).size).toBe(data.length);
      });
    });

    describe("Spec, Endpoints and Limits: limit is an integer 1 to 200, default 50", () => {
      it("defaults to 50 rows a page", async () => {
        const sim = makeSim();
        addRows(sim, c, 60);
        const body = await page(sim, c.path);
        expect(body.data).toHaveLength(50);
        expect(body.has_more).toBe(true);
        expect(body.next_cursor).toEqual(expect.any(String));
        expect(await page(sim, c.path, "limit=50")).toStrictEqual(body);
      });

      it("accepts limit=1 and limit=200", async () => {
        const sim = makeSim();
        addRows(sim, c, 205);
        const one = await page(sim, c.path, "limit=1");
        expect(one.data).toHaveLength(1);
        expect(one.has_more).toBe(true);
        const max = await page(sim, c.path, "limit=200");
        expect(max.data).toHaveLength(200);
        expect(max.has_more).toBe(true);
        expect(max.data[0]).toStrictEqual(one.data[0]);
      });

      for (const value of ["0", "201", "-1", "1.5", "abc", "", "1e2", "+5", " 5"]) {
        it(`refuses limit=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field limit`, async () => {
          const sim = makeSim();
          expectError(await get(sim, c.path, `limit=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", "limit");
        });
      }
    });

    describe("Choices: list parameters are validated strictly (Spec, Errors: query parameter invalid)", () => {
      it("refuses an unknown query parameter with 400 VALIDATION_FAILED naming it", async () => {
        const sim = makeSim();
        expectError(await get(sim, c.path, "colour=red"), 400, "VALIDATION_FAILED", "colour");
      });

      it("refuses a parameter given twice with 400 VALIDATION_FAILED", async () => {
        const sim = makeSim();
        expectError(await get(sim, c.path, "limit=1&limit=2"), 400, "VALIDATION_FAILED", "limit");
        expectError(await get(sim, c.path, "order=asc&order=asc"), 400, "VALIDATION_FAILED", "order");
      });

      for (const value of ["sideways", "DESC", ""]) {
        it(`refuses order=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field order`, async () => {
          const sim = makeSim();
          expectError(await get(sim, c.path, `order=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", "order");
        });
      }

      for (const value of ["yes", "1", "TRUE", ""]) {
        it(`refuses include_deleted=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field include_deleted`, async () => {
          const sim = makeSim();
          expectError(
            await get(sim, c.path, `include_deleted=${encodeURIComponent(value)}`),
            400,
            "VALIDATION_FAILED",
            "include_deleted",
          );
        });
      }

      it("treats order=asc as the default order", async () => {
        const sim = makeSim();
        addRows(sim, c, 3);
        expect(await page(sim, c.path, "order=asc")).toStrictEqual(await page(sim, c.path));
      });
    });

    describe("Spec, Pagination and polling rules 1: rows come oldest change first; the cursor pages through", () => {
      it("with limit=1 visits every row exactly once, oldest change first, has_more true until the last page", async () => {
        const sim = makeSim();
        const fixture = await page(sim, c.path);
        const added = addRows(sim, c, 3);
        const pages = await walk(sim, c.path, 1);
        const total = fixture.data.length + added.length;
        expect(pages).toHaveLength(total);
        pages.forEach((p, i) => {
          expect(p.data).toHaveLength(1);
          expect(p.has_more).toBe(i < total - 1);
          expect(p.next_cursor).toEqual(expect.any(String));
        });
        const rows = pages.map((p) => p.data[0]!);
        expect(rows.map((r) => r.id)).toEqual([...fixture.data.map((r) => r.id), ...added]);
        expect(rows.slice(0, fixture.data.length)).toStrictEqual(fixture.data);
        expectAscending(rows);
      });

      it("orders by latest change, not by creation: a changed row moves behind the others", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        const first = before.data[0]!;
        change(sim, c, first.id, 1);
        const rows = (await walk(sim, c.path, 1)).map((p) => p.data[0]!);
        expect(rows.map((r) => r.id)).toEqual([...before.data.slice(1).map((r) => r.id), first.id]);
        expect(rows).toHaveLength(before.data.length);
        expectAscending(rows);
      });

      it("pages of limit=2 cover an odd number of rows once each", async () => {
        const sim = makeSim();
        const fixture = await page(sim, c.path);
        const added = addRows(sim, c, fixture.data.length % 2 === 0 ? 5 : 4);
        const pages = await walk(sim, c.path, 2);
        const ids = pages.flatMap((p) => p.data.map((r) => r.id));
        expect(ids).toEqual([...fixture.data.map((r) => r.id), ...added]);
        expect(pages.at(-1)!.data).toHaveLength(1);
        expect(pages.slice(0, -1).every((p) => p.data.length === 2 && p.has_more)).toBe(true);
      });

      it("a row changed while a client pages shows up again later, once, with its new version", async () => {
        const sim = makeSim();
        addRows(sim, c, 3);
        const firstPage = await page(sim, c.path, "limit=1");
        const seen = firstPage.data[0]!;
        change(sim, c, seen.id, 7);
        const rest = (await walk(sim, c.path, 1, firstPage.next_cursor!)).flatMap((p) => p.data);
        const again = rest.filter((r) => r.id === seen.id);
        expect(again).toHaveLength(1);
        expect(rest.at(-1)!.id).toBe(seen.id);
        expect(big(again[0]!.version) > big(seen.version)).toBe(true);
      });

      it("the last non-empty page has has_more false but a non-null next_cursor", async () => {
        const sim = makeSim();
        const body = await page(sim, c.path);
        expect(body.has_more).toBe(false);
        expect(body.data.length).toBeGreaterThan(0);
        expect(typeof body.next_cursor).toBe("string");
        expect(body.next_cursor!.length).toBeGreaterThan(0);
      });
    });

    describe("Spec, Pagination and polling rules 2: polling from the held cursor", () => {
      it("an empty page answers next_cursor null and has_more false", async () => {
        const sim = makeSim();
        const last = await page(sim, c.path);
        const reply = await get(sim, c.path, `cursor=${encodeURIComponent(last.next_cursor!)}`);
        expect(reply.status).toBe(200);
        expect(reply.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
      });

      it("rows changed after polling appear exactly once on the next poll, with higher versions, and the held cursor stays usable", async () => {
        const sim = makeSim();
        const initial = await page(sim, c.path);
        const held = initial.next_cursor!;
        // Kept cursor: polling twice with nothing new is empty both times.
        expect(await page(sim, c.path, `cursor=${encodeURIComponent(held)}`)).toStrictEqual({
          data: [],
          next_cursor: null,
          has_more: false,
        });
        expect(await page(sim, c.path, `cursor=${encodeURIComponent(held)}`)).toStrictEqual({
          data: [],
          next_cursor: null,
          has_more: false,
        });

        const [a, b] = initial.data as [AnyRow, AnyRow];
        change(sim, c, a.id, 1);
        change(sim, c, a.id, 2); // changed twice: still one row on the poll
        change(sim, c, b.id, 3);
        const [added] = addRows(sim, c, 1, 50);

        const poll = await page(sim, c.path, `cursor=${encodeURIComponent(held)}`);
        expect(poll.has_more).toBe(false);
        expect(poll.next_cursor).toEqual(expect.any(String));
        expect(poll.data.map((r) => r.id)).toEqual([a.id, b.id, added]);
        const feed = c.feed(sim);
        expect(poll.data[0]).toStrictEqual({ ...feed.row(a.id)!.value, version });
        expect(poll.data[0]!.name).toBe(`${a.name} (changed 1) (changed 2)`);
        expect(big(poll.data[0]!.version) > big(a.version)).toBe(true);
        expect(big(poll.data[1]!.version) > big(b.version)).toBe(true);
        // biome-ignore lint/complexity/useMathMinMax: versions are bigint, which Math.max does not take
        const maxBefore = initial.data.map((r) => big(r.version)).reduce((x, y) => (x > y ? x : y));
        expect(poll.data.every((r) => big(r.version) > maxBefore)).toBe(true);
        expectAscending(poll.data);

        // The next poll from the new cursor is empty again.
        expect(await page(sim, c.path, `cursor=${encodeURIComponent(poll.next_cursor!)}`)).toStrictEqual({
          data: [],
          next_cursor: null,
          has_more: false,
        });
      });

      it("the changed row carries its new field values in full", async () => {
        const sim = makeSim();
        const initial = await page(sim, c.path);
        const target = initial.data[0]!;
        const feed = c.feed(sim);
        const next = c.changed(feed.row(target.id)!.value, 9);
        feed.put(target.id, next);
        const poll = await page(sim, c.path, `cursor=${encodeURIComponent(initial.next_cursor!)}`);
        expect(poll.data).toStrictEqual([{ ...next, version }]);
      });
    });

    describe("Spec, Pagination and polling rules 3: order=desc returns one first page only", () => {
      it("returns newest change first, with next_cursor null and has_more false", async () => {
        const sim = makeSim();
        const asc = await page(sim, c.path);
        change(sim, c, asc.data[0]!.id, 1);
        const ascNow = (await page(sim, c.path)).data;
        const reply = await get(sim, c.path, "order=desc");
        expect(reply.status).toBe(200);
        expect(reply.json).toStrictEqual({ data: [...ascNow].reverse(), next_cursor: null, has_more: false });
        expect(reply.json.data[0].id).toBe(asc.data[0]!.id);
      });

      it("has has_more false and next_cursor null even when more rows exist", async () => {
        const sim = makeSim();
        const added = addRows(sim, c, 4);
        const body = await page(sim, c.path, "order=desc&limit=2");
        expect(body).toStrictEqual({ data: expect.any(Array), next_cursor: null, has_more: false });
        expect(body.data.map((r) => r.id)).toEqual([added[3], added[2]]);
        expect(big(body.data[0]!.version) > big(body.data[1]!.version)).toBe(true);
      });

      it("defaults to 50 rows with order=desc too", async () => {
        const sim = makeSim();
        addRows(sim, c, 60);
        const body = await page(sim, c.path, "order=desc");
        expect(body.data).toHaveLength(50);
        expect(body.data[0]!.id).toBe(testId(60));
        expect(body.has_more).toBe(false);
        expect(body.next_cursor).toBeNull();
      });

      it("accepts a valid cursor but ignores it", async () => {
        const sim = makeSim();
        addRows(sim, c, 3);
        const first = await page(sim, c.path, "limit=2");
        const without = await page(sim, c.path, "order=desc");
        const withCursor = await get(sim, c.path, `order=desc&cursor=${encodeURIComponent(first.next_cursor!)}`);
        expect(withCursor.status).toBe(200);
        expect(withCursor.json).toStrictEqual(without);
        const atEnd = (await walk(sim, c.path, 50)).at(-1)!.next_cursor!;
        expect(await page(sim, c.path, `order=desc&limit=1&cursor=${encodeURIComponent(atEnd)}`)).toStrictEqual(
          await page(sim, c.path, "order=desc&limit=1"),
        );
      });

      it("still refuses an unreadable cursor with 400 on field cursor", async () => {
        const sim = makeSim();
        const foreign = (await page(sim, c.other)).next_cursor!;
        expectError(await get(sim, c.path, "order=desc&cursor=garbage%21"), 400, "VALIDATION_FAILED", "cursor");
        expectError(
          await get(sim, c.path, `order=desc&cursor=${encodeURIComponent(foreign)}`),
          400,
          "VALIDATION_FAILED",
          "cursor",
        );
      });
    });

    describe("Spec, Pagination and polling rules 4: include_deleted", () => {
      it("include_deleted=true with order=desc answers 400 VALIDATION_FAILED on field include_deleted", async () => {
        const sim = makeSim();
        expectError(
          await get(sim, c.path, "order=desc&include_deleted=true"),
          400,
          "VALIDATION_FAILED",
          "include_deleted",
        );
        expectError(
          await get(sim, c.path, "include_deleted=true&order=desc&limit=1"),
          400,
          "VALIDATION_FAILED",
          "include_deleted",
        );
      });

      it("include_deleted=false with order=desc is accepted (only true is refused)", async () => {
        const sim = makeSim();
        const reply = await get(sim, c.path, "order=desc&include_deleted=false");
        expect(reply.status).toBe(200);
        expect(reply.json).toStrictEqual(await page(sim, c.path, "order=desc"));
      });

      it("hides deleted rows by default and with include_deleted=false", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        const gone = before.data[0]!;
        c.feed(sim).markDeleted(gone.id, sim.world.env.clock.now());
        for (const query of ["", "include_deleted=false", "order=desc"]) {
          const body = await page(sim, c.path, query);
          expect(
            body.data.map((r) => r.id),
            query,
          ).not.toContain(gone.id);
          expect(body.data, query).toHaveLength(before.data.length - 1);
        }
        // A poll without include_deleted shows no row for the deletion.
        expect(await page(sim, c.path, `cursor=${encodeURIComponent(before.next_cursor!)}`)).toStrictEqual({
          data: [],
          next_cursor: null,
          has_more: false,
        });
      });

      it("include_deleted=true returns deleted rows in normal shape, no marker, at the position of their deletion", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        const gone = before.data[0]!;
        c.feed(sim).markDeleted(gone.id, sim.world.env.clock.now());
        const body = await page(sim, c.path, "include_deleted=true");
        expect(body.data).toHaveLength(before.data.length);
        expect(body.data.at(-1)!.id).toBe(gone.id);
        const { version: oldVersion, ...rest } = gone;
        expect(body.data.at(-1)).toStrictEqual({ ...rest, version });
        expect(Object.keys(body.data.at(-1)!).sort()).toEqual(Object.keys(gone).sort());
        expect(big(body.data.at(-1)!.version) > big(oldVersion)).toBe(true);
        expectAscending(body.data);
      });

      it("a poll with include_deleted=true reports the deletion once", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path, "include_deleted=true");
        const gone = before.data[1]!;
        c.feed(sim).markDeleted(gone.id, sim.world.env.clock.now());
        const poll = await page(sim, c.path, `include_deleted=true&cursor=${encodeURIComponent(before.next_cursor!)}`);
        expect(poll.data.map((r) => r.id)).toEqual([gone.id]);
        expect(poll.has_more).toBe(false);
        expect(
          await page(sim, c.path, `include_deleted=true&cursor=${encodeURIComponent(poll.next_cursor!)}`),
        ).toStrictEqual({
          data: [],
          next_cursor: null,
          has_more: false,
        });
      });

      it("paging with include_deleted=true and limit=1 visits live and deleted rows once each", async () => {
        const sim = makeSim();
        const added = addRows(sim, c, 3);
        c.feed(sim).markDeleted(added[0]!, sim.world.env.clock.now());
        const all = await page(sim, c.path, "include_deleted=true&limit=200");
        const ids: string[] = [];
        let cursor: string | null = null;
        for (let i = 0; i < 20; i++) {
          const p: ListBody = await page(
            sim,
            c.path,
            `include_deleted=true&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          );
          ids.push(...p.data.map((r) => r.id));
          if (!p.has_more) break;
          cursor = p.next_cursor;
        }
        expect(ids).toEqual(all.data.map((r) => r.id));
        expect(ids.at(-1)).toBe(added[0]);
      });
    });

    describe("Spec, Pagination and polling rules 1 and Errors: an unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error", () => {
      it("refuses every unreadable cursor, in asc and with include_deleted", async () => {
        const sim = makeSim();
        addRows(sim, c, 2);
        const valid = (await page(sim, c.path, "limit=1")).next_cursor!;
        const foreign = (await page(sim, c.other, "limit=1")).next_cursor!;
        expect(foreign).not.toBe(valid);
        for (const [what, cursor] of Object.entries(unreadableCursors(valid, foreign))) {
          const reply = await get(sim, c.path, `cursor=${encodeURIComponent(cursor)}`);
          expect(reply.status, what).toBe(400);
          expect(reply.json, what).toStrictEqual({
            error: {
              code: "VALIDATION_FAILED",
              message: expect.any(String),
              fields: [{ field: "cursor", message: expect.any(String) }],
            },
          });
        }
        expectError(
          await get(sim, c.path, `include_deleted=true&cursor=${encodeURIComponent(foreign)}`),
          400,
          "VALIDATION_FAILED",
          "cursor",
        );
      });

      it("refuses an empty cursor", async () => {
        const sim = makeSim();
        expectError(await get(sim, c.path, "cursor="), 400, "VALIDATION_FAILED", "cursor");
      });

      it("accepts the same cursor passed back unchanged, any number of times", async () => {
        const sim = makeSim();
        addRows(sim, c, 2);
        const cursor = (await page(sim, c.path, "limit=1")).next_cursor!;
        const a = await page(sim, c.path, `limit=1&cursor=${encodeURIComponent(cursor)}`);
        const b = await page(sim, c.path, `limit=1&cursor=${encodeURIComponent(cursor)}`);
        expect(a).toStrictEqual(b);
        expect(a.data).toHaveLength(1);
      });
    });

    describe("Spec, Resources: version is a string that increases with every change to the row", () => {
      it("versions are decimal strings that rise with every change and deletion", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        const target = before.data[0]!;
        const seen: bigint[] = [big(target.version)];
        for (let n = 1; n <= 3; n++) {
          change(sim, c, target.id, n);
          const row = (await page(sim, c.path)).data.find((r) => r.id === target.id)!;
          expect(row.version).toMatch(DECIMAL);
          seen.push(big(row.version));
        }
        c.feed(sim).markDeleted(target.id, sim.world.env.clock.now());
        const deleted = (await page(sim, c.path, "include_deleted=true")).data.find((r) => r.id === target.id)!;
        expect(deleted.version).toMatch(DECIMAL);
        seen.push(big(deleted.version));
        for (let i = 1; i < seen.length; i++) expect(seen[i]! > seen[i - 1]!, `change ${i}`).toBe(true);
      });

      it("versions stay plain decimal integers (no sign, no leading zeros) and keep rising as they gain digits", async () => {
        const sim = makeSim();
        // Enough changes that versions cross a power of ten whatever the fixture's starting point.
        const [id] = addRows(sim, c, 1);
        const versions: string[] = [];
        for (let n = 1; n <= 120; n++) {
          change(sim, c, id!, n);
          if (n % 10 === 0) versions.push((await page(sim, c.path, "order=desc&limit=1")).data[0]!.version);
        }
        for (const v of versions) expect(v).toMatch(/^(0|[1-9][0-9]*)$/);
        for (let i = 1; i < versions.length; i++) expect(big(versions[i]!) > big(versions[i - 1]!)).toBe(true);
      });

      it("a row left alone keeps its version", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        change(sim, c, before.data[0]!.id, 1);
        const after = await page(sim, c.path);
        for (const row of before.data.slice(1))
          expect(after.data.find((r) => r.id === row.id)!.version).toBe(row.version);
      });
    });
  });
}

describe("Spec, Pagination and polling rules 1: each list has its own cursors", () => {
  it("a cursor of one list is unreadable on each other list (400, field cursor)", async () => {
    const sim = makeSim();
    const cursors = new Map<string, string>();
    for (const c of CASES) cursors.set(c.path, (await page(sim, c.path, "limit=1")).next_cursor!);
    for (const target of CASES) {
      for (const [source, cursor] of cursors) {
        if (source === target.path) continue;
        const reply = await get(sim, target.path, `cursor=${encodeURIComponent(cursor)}`);
        expect(reply.status, `${source} cursor on ${target.path}`).toBe(400);
        expect(errorOf(reply)).toStrictEqual({
          code: "VALIDATION_FAILED",
          message: expect.any(String),
          fields: [{ field: "cursor", message: expect.any(String) }],
        });
      }
    }
  });
});

describe("Spec, Pagination and polling rules 1: a cursor belongs to the list and store that issued it", () => {
  it("a cursor of store other's outlets is unreadable on demo's outlets (400, field cursor)", async () => {
    const sim = makeSim();
    const other = await call(sim, "GET", "/other/v1/outlets?limit=1");
    expect(other.status).toBe(200);
    expect(typeof other.json.next_cursor).toBe("string");
    const reply = await call(sim, "GET", `/demo/v1/outlets?cursor=${other.json.next_cursor}`);
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
    expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["cursor"]);
  });
});
