import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../kernel/cursor.js";
import { Feed } from "./feed.js";

function feedOf(n: number) {
  let seq = 0;
  const feed = new Feed<{ n: number }>("things", { nextSeq: () => ++seq });
  for (let i = 0; i < n; i++) feed.put(`id-${i}`, { n: i });
  return feed;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("Spec, Pagination and polling rules 1: rows come oldest change first", () => {
  it("a change gives the row a new version and moves it to the end", () => {
    const feed = feedOf(3);
    const before = feed.row("id-0")!.seq;
    feed.put("id-0", { n: 100 });
    expect(feed.row("id-0")!.seq).toBeGreaterThan(before);
    const page = feed.page({ afterSeq: 0, limit: 10, order: "asc", includeDeleted: false });
    expect(ids(page.rows)).toEqual(["id-1", "id-2", "id-0"]);
    expect(page.hasMore).toBe(false);
  });

  it("paging after a sequence number sees each row once, even after many changes and compaction", () => {
    const feed = feedOf(50);
    for (let round = 0; round < 60; round++) for (let i = 0; i < 50; i += 2) feed.put(`id-${i}`, { n: round });
    const seen: string[] = [];
    let after = 0;
    for (;;) {
      const page = feed.page({ afterSeq: after, limit: 7, order: "asc", includeDeleted: false });
      seen.push(...ids(page.rows));
      if (page.rows.length === 0) break;
      after = page.rows[page.rows.length - 1]!.seq;
    }
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
    expect(seen.slice(0, 25)).toEqual(Array.from({ length: 25 }, (_, i) => `id-${2 * i + 1}`));
  });

  it("has_more is true only when another matching row follows", () => {
    const feed = feedOf(4);
    expect(feed.page({ afterSeq: 0, limit: 4, order: "asc", includeDeleted: false }).hasMore).toBe(false);
    expect(feed.page({ afterSeq: 0, limit: 3, order: "asc", includeDeleted: false }).hasMore).toBe(true);
    expect(
      feed.page({ afterSeq: 0, limit: 3, order: "asc", includeDeleted: false, filter: (r) => r.value.n < 3 }).hasMore,
    ).toBe(false);
  });
});

describe("Spec, Pagination and polling rules 3 and 4: desc and include_deleted", () => {
  it("desc returns the newest first, one page, has_more false", () => {
    const feed = feedOf(5);
    const page = feed.page({ afterSeq: 0, limit: 2, order: "desc", includeDeleted: false });
    expect(ids(page.rows)).toEqual(["id-4", "id-3"]);
    expect(page.hasMore).toBe(false);
  });

  it("a deleted row is hidden unless include_deleted, and then it is at the end of the feed", () => {
    const feed = feedOf(3);
    feed.markDeleted("id-0", 123);
    expect(ids(feed.page({ afterSeq: 0, limit: 10, order: "asc", includeDeleted: false }).rows)).toEqual([
      "id-1",
      "id-2",
    ]);
    expect(ids(feed.page({ afterSeq: 0, limit: 10, order: "asc", includeDeleted: true }).rows)).toEqual([
      "id-1",
      "id-2",
      "id-0",
    ]);
    expect(feed.live("id-0")).toBeUndefined();
    expect(feed.row("id-0")!.deletedAt).toBe(123);
    expect(feed.markDeleted("id-0", 456)).toBeUndefined();
  });
});

describe("Spec, Pagination and polling rules 1: the cursor is opaque; an unreadable one is refused", () => {
  it("round-trips for its own list only", () => {
    const cursor = encodeCursor("outlets", 42);
    expect(decodeCursor("outlets", cursor)).toBe(42);
    expect(decodeCursor("taxes", cursor)).toBeUndefined();
  });

  it.each([
    "",
    "!!!",
    "abc",
    Buffer.from('{"l":"outlets","s":-1}').toString("base64url"),
    Buffer.from('{"l":"outlets","s":1.5}').toString("base64url"),
    Buffer.from('{"l":"outlets"}').toString("base64url"),
    Buffer.from("[1]").toString("base64url"),
    `${encodeCursor("outlets", 4)}A`,
  ])("%j is unreadable", (cursor) => {
    expect(decodeCursor("outlets", cursor)).toBeUndefined();
  });
});

describe("Spec, Pagination and polling rules 1 (docs/performance.md): a page costs the same deep in a large feed as at the start of a small one (rows visited, not time)", () => {
  it("a page of 50 visits 51 slots at 1,000 rows and at 100,000 rows, from the start or from a deep cursor", () => {
    const small = feedOf(1_000);
    const large = feedOf(100_000);
    const first = (f: Feed<{ n: number }>, afterSeq: number) =>
      f.page({ afterSeq, limit: 50, order: "asc", includeDeleted: false });
    expect(first(small, 0).visited).toBe(51);
    expect(first(large, 0).visited).toBe(51);
    const deep = large.row("id-90000")!.seq;
    const page = first(large, deep);
    expect(page.visited).toBe(51);
    expect(page.rows[0]!.id).toBe("id-90001");
    expect(large.page({ afterSeq: 0, limit: 50, order: "desc", includeDeleted: false }).visited).toBe(50);
  });

  it("rewriting rows does not make pages dearer for long: stale slots are compacted", () => {
    const feed = feedOf(10_000);
    for (let round = 0; round < 3; round++) for (let i = 0; i < 10_000; i++) feed.put(`id-${i}`, { n: round });
    expect(feed.page({ afterSeq: 0, limit: 50, order: "asc", includeDeleted: false }).visited).toBe(51);
  });
});

describe("Spec, Pagination and polling rules 4 (docs/performance.md): a page without include_deleted walks no deleted rows", () => {
  /** 50 live rows, then 100,000 rows deleted (moved to the end of the feed), then `after` more live rows. */
  function withDeleted(after: number) {
    let seq = 0;
    const feed = new Feed<{ n: number }>("customers", { nextSeq: () => ++seq });
    for (let i = 0; i < 50; i++) feed.put(`live-${i}`, { n: i });
    for (let i = 0; i < 100_000; i++) feed.put(`gone-${i}`, { n: i });
    for (let i = 0; i < 100_000; i++) feed.markDeleted(`gone-${i}`, i);
    for (let i = 0; i < after; i++) feed.put(`late-${i}`, { n: i });
    return feed;
  }
  const page = (feed: Feed<{ n: number }>, afterSeq: number, order: "asc" | "desc", includeDeleted = false) =>
    feed.page({ afterSeq, limit: 50, order, includeDeleted });

  it("with 100,000 deleted rows at the end of the feed, the first page visits 50 slots asc and 50 desc", () => {
    const feed = withDeleted(0);
    const asc = page(feed, 0, "asc");
    expect(asc.rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => `live-${i}`));
    expect([asc.hasMore, asc.visited]).toEqual([false, 50]);
    const desc = page(feed, 0, "desc");
    expect(desc.rows[0]!.id).toBe("live-49");
    expect(desc.visited).toBe(50);
  });

  it("with 100,000 deleted rows between two runs of live rows, a page crossing them visits 51 slots; with include_deleted it pages the tombstones", () => {
    const feed = withDeleted(60);
    const first = page(feed, 0, "asc");
    expect([first.hasMore, first.visited]).toEqual([true, 51]);
    const second = page(feed, first.rows[49]!.seq, "asc");
    expect(second.rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => `late-${i}`));
    expect([second.hasMore, second.visited]).toEqual([true, 51]);
    expect(page(feed, 0, "desc").visited).toBe(50);
    const tombstones = page(feed, first.rows[49]!.seq, "asc", true);
    expect(tombstones.rows.map((r) => r.id)).toEqual(Array.from({ length: 50 }, (_, i) => `gone-${i}`));
    expect(tombstones.visited).toBe(51);
  });
});

describe("Spec, Pagination and polling rules 1 (docs/architecture.md, State): a secondary index pages exactly what the filtered feed pages (no full-collection scan)", () => {
  type Thing = { key: string | null; n: number };
  const op = fc.oneof(
    fc.record({
      kind: fc.constant("put" as const),
      id: fc.integer({ min: 0, max: 40 }),
      key: fc.constantFrom("a", "b", "c", "d", null),
    }),
    fc.record({ kind: fc.constant("delete" as const), id: fc.integer({ min: 0, max: 40 }) }),
  );

  it.each([
    ["short histories", 0, 300, 200],
    ["long histories (lists compacted)", 2_500, 3_000, 20],
  ])(
    "for any history of writes, moves between keys and deletes (%s), paging through some keys' lists equals paging the feed with the key filter",
    (_, minLength, maxLength, numRuns) => {
      fc.assert(
        fc.property(
          fc.array(op, { minLength, maxLength }),
          fc.subarray(["a", "b", "c", "d"], { minLength: 1 }),
          fc.integer({ min: 1, max: 7 }),
          fc.constantFrom("asc" as const, "desc" as const),
          fc.boolean(),
          (ops, keys, limit, order, includeDeleted) => {
            let seq = 0;
            const feed = new Feed<Thing>("things", { nextSeq: () => ++seq });
            const index = feed.index((t) => t.key);
            ops.forEach((o, n) => {
              if (o.kind === "put") feed.put(`id-${o.id}`, { key: o.key, n });
              else feed.markDeleted(`id-${o.id}`, n);
            });
            const filter = (row: { value: Thing }) => row.value.key !== null && keys.includes(row.value.key);
            const sources = keys.flatMap((k) => index.bucket(k) ?? []);
            const includeDel = order === "asc" && includeDeleted;
            let after = 0;
            for (let guard = 0; guard < 100; guard++) {
              const q = { afterSeq: after, limit, order, includeDeleted: includeDel, filter };
              const whole = feed.page(q);
              const narrow = feed.page({ ...q, sources });
              expect(ids(narrow.rows)).toEqual(ids(whole.rows));
              expect(narrow.hasMore).toBe(whole.hasMore);
              expect(narrow.visited).toBeLessThanOrEqual(sources.reduce((sum, list) => sum + list.length, 0));
              if (order === "desc" || !whole.hasMore) break;
              after = whole.rows[whole.rows.length - 1]!.seq;
            }
          },
        ),
        { numRuns },
      );
    },
  );

  it("a key's page visits its own rows only: 51 slots for a page of 50, among 100,000 rows of other keys", () => {
    let seq = 0;
    const feed = new Feed<Thing>("things", { nextSeq: () => ++seq });
    const index = feed.index((t) => t.key);
    // One row in 1,000 has the key "rare", spread over the whole feed.
    for (let i = 0; i < 100_000; i++) feed.put(`id-${i}`, { key: i % 1_000 === 0 ? "rare" : `k${i % 7}`, n: i });
    const rare = index.bucket("rare")!;
    const filter = (row: { value: Thing }) => row.value.key === "rare";
    const first = feed.page({ afterSeq: 0, limit: 50, order: "asc", includeDeleted: false, filter, sources: [rare] });
    expect(first.rows).toHaveLength(50);
    expect(first.visited).toBe(51);
    expect(first.rows[49]!.id).toBe("id-49000");
    const next = feed.page({
      afterSeq: first.rows[49]!.seq,
      limit: 50,
      order: "asc",
      includeDeleted: false,
      filter,
      sources: [rare],
    });
    expect(ids(next.rows)).toEqual(Array.from({ length: 50 }, (_, i) => `id-${(50 + i) * 1_000}`));
    expect(next.visited).toBe(50);
    expect(next.hasMore).toBe(false);
    // The same page from the whole feed walks some 50,000 slots: the index is what keeps it cheap.
    expect(feed.page({ afterSeq: 0, limit: 50, order: "asc", includeDeleted: false, filter }).visited).toBeGreaterThan(
      49_000,
    );
  });

  it("moving rows between keys leaves stale slots that are compacted away", () => {
    let seq = 0;
    const feed = new Feed<Thing>("things", { nextSeq: () => ++seq });
    const index = feed.index((t) => t.key);
    for (let i = 0; i < 5_000; i++) feed.put(`id-${i}`, { key: "a", n: i });
    for (let i = 0; i < 4_990; i++) feed.put(`id-${i}`, { key: "b", n: i });
    expect(index.bucket("a")!.length).toBe(10);
    expect(index.bucket("a")!.end).toBeLessThan(2_600);
    const page = feed.page({
      afterSeq: 0,
      limit: 50,
      order: "asc",
      includeDeleted: false,
      filter: (r) => r.value.key === "a",
      sources: [index.bucket("a")!],
    });
    expect(ids(page.rows)).toEqual(Array.from({ length: 10 }, (_, i) => `id-${4_990 + i}`));
    expect(page.visited).toBe(10);
    // A key whose rows have all moved away is dropped: keys come and go without piling up.
    for (let i = 4_990; i < 5_000; i++) feed.put(`id-${i}`, { key: "b", n: i });
    expect(index.bucket("a")).toBeUndefined();
    expect([...index.keys()]).toEqual(["b"]);
  });
});
