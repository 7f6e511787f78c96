import { fail, ok, type Result } from "../kernel/result.js";
import { invalid, type ApiError } from "../contract/errors.js";
import { decodeCursor, encodeCursor } from "../kernel/cursor.js";
import { iso } from "../kernel/clock.js";
import { versionOf, type Feed, type Page, type PageQuery, type Row, type SlotList } from "./feed.js";

/** What listFeed pages: a Feed, or a narrower source such as the one row a SKU lookup finds. */
export interface Pageable<T> {
  readonly name: string;
  page(query: PageQuery<T>): Page<T>;
}

/** At most one row (or none), paged by the same rules as a whole feed: for exact lookups in O(1). */
export function singleRow<T>(name: string, row: Row<T> | undefined): Pageable<T> {
  return {
    name,
    page: (q) => {
      const visible = row && (q.includeDeleted || row.deletedAt === null) && (!q.filter || q.filter(row));
      const after = q.order === "desc" || (row !== undefined && row.seq > q.afterSeq);
      return { rows: visible && after && q.limit > 0 ? [row] : [], hasMore: false, visited: row ? 1 : 0 };
    },
  };
}

/** A feed paged through some of its index lists (undefined: the whole feed); cursors stay the feed's. */
export function through<T>(feed: Feed<T>, sources: SlotList<T>[] | undefined): Pageable<T> {
  return sources === undefined ? feed : { name: feed.name, page: (q) => feed.page({ ...q, sources }) };
}

/** The list parameters common to every list endpoint, after validation (spec, Endpoints). */
export interface ListParams {
  readonly limit: number;
  readonly cursor?: string;
  readonly order: "asc" | "desc";
  readonly includeDeleted: boolean;
}

export interface ListPage<O> {
  readonly data: O[];
  readonly next_cursor: string | null;
  readonly has_more: boolean;
}

export function listParams(query: Record<string, unknown>): ListParams {
  return {
    limit: typeof query.limit === "number" ? query.limit : 50,
    cursor: typeof query.cursor === "string" ? query.cursor : undefined,
    order: query.order === "desc" ? "desc" : "asc",
    includeDeleted: query.include_deleted === true,
  };
}

/** Spec, Resources: Tombstone, the shape of a deleted product or customer in a list with include_deleted. */
export interface Tombstone {
  readonly id: string;
  readonly deleted_at: string;
  readonly version: string;
}

/**
 * rule catalog.product-delete: on products and customers deleted rows are tombstones `{id, deleted_at, version}`.
 * rule catalog.taxonomy-deleted-rows: other lists return deleted rows in their normal shape, without a marker.
 */
export function withTombstones<T, O>(present: (row: Row<T>) => O): (row: Row<T>) => O | Tombstone {
  return (row) =>
    row.deletedAt === null ? present(row) : { id: row.id, deleted_at: iso(row.deletedAt), version: versionOf(row) };
}

/**
 * What a list operation's handler answers: where the rows come from and how each is presented.
 * The pipeline pages it with the request's list parameters and the operation's declaration
 * (tombstones or not), so no handler applies those rules itself.
 */
export interface Listing<O> {
  page(params: ListParams, tombstones: boolean): Result<ListPage<O | Tombstone>, ApiError>;
}

/** A listing over a feed (or a narrower source), with an optional filter every row must pass. */
export function listing<T, O>(
  source: Pageable<T>,
  present: (row: Row<T>) => O,
  filter?: (row: Row<T>) => boolean,
): Listing<O> {
  return {
    page: (params, tombstones) =>
      listFeed<T, O | Tombstone>(source, params, tombstones ? withTombstones(present) : present, filter),
  };
}

/** Pages a feed by every rule under "Pagination and polling rules" of the spec. */
export function listFeed<T, O>(
  feed: Pageable<T>,
  params: ListParams,
  present: (row: Row<T>) => O,
  filter?: (row: Row<T>) => boolean,
): Result<ListPage<O>, ApiError> {
  // rule pagination.include-deleted-desc: include_deleted=true works only with order=asc.
  if (params.includeDeleted && params.order === "desc") {
    return fail(invalid("include_deleted", "include_deleted=true works only with order=asc"));
  }
  let afterSeq = 0;
  if (params.cursor !== undefined) {
    // rule pagination.unreadable-cursor: an unreadable cursor answers 400 with a `cursor` field error.
    // rule pagination.desc-validates-cursor: with desc the cursor is only validated: a readable one still gives the first page.
    const seq = decodeCursor(feed.name, params.cursor);
    if (seq === undefined)
      return fail(invalid("cursor", "is not a cursor of this list; pass next_cursor back unchanged"));
    afterSeq = seq;
  }
  const page = feed.page({
    afterSeq,
    limit: params.limit,
    order: params.order,
    includeDeleted: params.includeDeleted,
    filter,
  });
  const last = page.rows[page.rows.length - 1];
  return ok({
    data: page.rows.map(present),
    // rule pagination.empty-page-null-cursor: an empty page returns next_cursor null; desc has no next_cursor either.
    next_cursor: params.order === "asc" && last ? encodeCursor(feed.name, last.seq) : null,
    has_more: page.hasMore,
  });
}
