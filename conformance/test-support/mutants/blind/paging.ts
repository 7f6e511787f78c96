import type { SimRequest } from "../../../../src/http/types.js";
import type { Mutant } from "../base.js";
import { json, params, sub, withJson, withQuery } from "./util.js";

// Blind mutants of list paging: cursors, has_more, limits, order and include_deleted.

const LIST =
  /^\/(products|brands|categories|tags|suppliers|customers|customer-groups|sales|outlets|payment-types|taxes)$/;
const isList = (req: SimRequest): boolean => req.method === "GET" && LIST.test(sub(req) ?? "");
const limitOf = (req: SimRequest): number => Number(params(req).get("limit") ?? 50);

export const pagingMutants: readonly Mutant[] = [
  {
    name: "blind.cursor-repeats-last-row",
    breaks:
      'Pagination 1: "Rows come oldest change first." with paging by cursor (the next page starts with the last row of the page before: >= instead of >)',
    caughtBy: ["pagination.each-row-once", "pagination.empty-page-null-cursor"],
    wrap: (next) => async (req) => {
      const q = params(req);
      const cursor = q.get("cursor");
      if (!isList(req) || !cursor) return next(req);
      let decoded: { l?: unknown; s?: unknown } | undefined;
      try {
        decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        return next(req);
      }
      if (typeof decoded?.s !== "number" || decoded.s < 1) return next(req);
      q.set("cursor", Buffer.from(JSON.stringify({ ...decoded, s: decoded.s - 1 })).toString("base64url"));
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.has-more-on-full-last-page",
    breaks:
      'Endpoints: "Response: {data: [...], next_cursor: string or null, has_more: boolean}" (has_more is "the page is full", true on a full last page)',
    caughtBy: ["pagination.has-more-exactly-full"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!isList(req) || params(req).get("order") === "desc" || res.status !== 200) return res;
      const b = json(res);
      if (!Array.isArray(b?.data) || b.has_more !== false || b.data.length === 0 || b.data.length !== limitOf(req))
        return res;
      return withJson(res, { ...b, has_more: true });
    },
  },
  {
    name: "blind.desc-reports-more",
    breaks:
      'Pagination 3: "order=desc returns one first page only: no next_cursor, has_more false" (has_more true when the page is full)',
    caughtBy: ["pagination.desc-one-page", "pagination.desc-validates-cursor"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!isList(req) || params(req).get("order") !== "desc" || res.status !== 200) return res;
      const b = json(res);
      if (!Array.isArray(b?.data) || b.data.length !== limitOf(req)) return res;
      return withJson(res, { ...b, has_more: true });
    },
  },
  {
    name: "blind.limit-201-accepted",
    breaks: 'Endpoints: "query limit (integer 1 to 200, default 50)" (the bound check is > 201: 201 is served as 200)',
    caughtBy: ["pagination.limit-range-and-default"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (!isList(req) || q.get("limit") !== "201") return next(req);
      q.set("limit", "200");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.default-limit-25",
    breaks: 'Limits: "List limit | 1 to 200, default 50" (the default page is 25 rows)',
    caughtBy: ["pagination.limit-range-and-default"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (!isList(req) || q.has("limit")) return next(req);
      q.set("limit", "25");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.include-deleted-desc-accepted",
    breaks:
      'Pagination 4: "include_deleted=true works only with order=asc; with desc it answers 400 VALIDATION_FAILED." (desc silently drops include_deleted)',
    caughtBy: ["pagination.include-deleted-desc"],
    wrap: (next) => async (req) => {
      const q = params(req);
      if (!isList(req) || sub(req) === "/sales" || q.get("order") !== "desc" || !q.has("include_deleted"))
        return next(req);
      q.delete("include_deleted");
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.bad-cursor-without-field",
    breaks: 'Pagination 1: "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error." (no fields)',
    caughtBy: ["pagination.unreadable-cursor", "pagination.desc-validates-cursor"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const b = json(res);
      if (!isList(req) || res.status !== 400 || !b?.error?.fields?.some((f: { field: string }) => f.field === "cursor"))
        return res;
      return withJson(res, { error: { code: b.error.code, message: "Bad request." } });
    },
  },
  {
    name: "blind.tombstone-without-version",
    breaks: 'Resources, Tombstone: "{id, deleted_at, version}" (tombstones carry no version)',
    caughtBy: ["catalog.product-delete", "catalog.feed-model", "customers.delete-tombstone"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!isList(req) || params(req).get("include_deleted") !== "true" || res.status !== 200) return res;
      const b = json(res);
      if (!Array.isArray(b?.data)) return res;
      return withJson(res, {
        ...b,
        data: b.data.map((r: any) => (r && "deleted_at" in r ? { id: r.id, deleted_at: r.deleted_at } : r)),
      });
    },
  },
];
