// Tests of paging and polling the reference-data lists (/outlets, /payment-types, /taxes) against the spec:
// "Pagination and polling rules" 1 to 4 (order, cursors, polling from the held cursor, order=desc,
// include_deleted) and "Errors" (an unreadable cursor answers 400 VALIDATION_FAILED naming cursor).
// Rows are changed through the store state, since these lists have no public write endpoint.
import { describe, expect, it } from "vitest";
import { makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import {
  type AnyRow,
  type ListBody,
  testId,
  version,
  CASES,
  get,
  page,
  walk,
  addRows,
  change,
  big,
  expectAscending,
  unreadableCursors,
} from "../../test-support/lists.js";

for (const c of CASES) {
  const list = c.path.replace("/demo/v1", "");

  describe(`GET ${list}`, () => {
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
    });

    describe("Spec, Pagination and polling rules 2: polling from the held cursor", () => {
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
  });
}
