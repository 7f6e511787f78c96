import { describe, expect, it } from "vitest";
import { encodeCursor } from "../kernel/cursor.js";
import { Feed } from "./feed.js";
import { listFeed, listParams, withTombstones } from "./listing.js";

function feedOf(n: number) {
  let seq = 100;
  const feed = new Feed<{ name: string }>("things", { nextSeq: () => ++seq });
  for (let i = 0; i < n; i++) feed.put(`00000000-0000-4000-8000-00000000000${i}`, { name: `t${i}` });
  return feed;
}
const present = (row: { id: string; value: { name: string } }) => ({ id: row.id, name: row.value.name });

describe("Spec, Pagination and polling rules 4: tombstones on products and customers", () => {
  it("deleted rows appear as {id, deleted_at, version} with include_deleted; live rows in full", () => {
    const feed = feedOf(2);
    const deleted = feed.markDeleted("00000000-0000-4000-8000-000000000000", Date.parse("2026-02-03T04:05:06Z"))!;
    const page = listFeed(feed, listParams({ include_deleted: true }), withTombstones(present));
    expect(page).toEqual({
      ok: true,
      value: {
        data: [
          { id: "00000000-0000-4000-8000-000000000001", name: "t1" },
          {
            id: "00000000-0000-4000-8000-000000000000",
            deleted_at: "2026-02-03T04:05:06.000Z",
            version: String(deleted.seq),
          },
        ],
        next_cursor: encodeCursor("things", deleted.seq),
        has_more: false,
      },
    });
  });
});

describe("Spec, Pagination and polling rules 1-4 on the generic list", () => {
  it("defaults: limit 50, asc, live rows only", () => {
    expect(listParams({})).toEqual({ limit: 50, cursor: undefined, order: "asc", includeDeleted: false });
  });

  it("rule 4: include_deleted with desc answers VALIDATION_FAILED on include_deleted", () => {
    const result = listFeed(feedOf(1), listParams({ include_deleted: true, order: "desc" }), present);
    expect(result).toEqual({
      ok: false,
      error: {
        code: "VALIDATION_FAILED",
        message: "include_deleted: include_deleted=true works only with order=asc",
        fields: [{ field: "include_deleted", message: "include_deleted=true works only with order=asc" }],
      },
    });
  });

  it("rule 3: desc validates the cursor and ignores it", () => {
    const feed = feedOf(3);
    const good = listFeed(feed, listParams({ order: "desc", cursor: encodeCursor("things", 101), limit: 2 }), present);
    expect(good.ok && good.value).toEqual({
      data: [
        present(feed.row("00000000-0000-4000-8000-000000000002")!),
        present(feed.row("00000000-0000-4000-8000-000000000001")!),
      ],
      next_cursor: null,
      has_more: false,
    });
    const bad = listFeed(feed, listParams({ order: "desc", cursor: "nope" }), present);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.fields).toEqual([
      { field: "cursor", message: "is not a cursor of this list; pass next_cursor back unchanged" },
    ]);
  });
});
