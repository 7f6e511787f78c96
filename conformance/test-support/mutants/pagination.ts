import { API, mapJson, type Mutant } from "./base.js";
import { param, setQuery } from "./support.js";

// Broken pagination (spec, Endpoints: Pagination and polling rules): page sizes, has_more, cursors.

/** A list: an API path that ends in a collection name, not an id. */
const LIST = /^\/[^/]+\/v1\/(?:[a-z-]+\/)*[a-z-]+$/;

export const paginationMutants: readonly Mutant[] = [
  {
    name: "empty-page-keeps-cursor",
    breaks: "Pagination 2: an empty page returns next_cursor null",
    caughtBy: ["pagination.empty-page-null-cursor"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) =>
        Array.isArray(b?.data) && b.data.length === 0 && "next_cursor" in b ? { ...b, next_cursor: "stale" } : b,
      ),
  },
  {
    name: "cursor-skips-a-row",
    breaks: "Pagination 1: paging visits every row once",
    caughtBy: ["pagination.each-row-once"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) =>
        req.query.includes("cursor=") && Array.isArray(b?.data) && b.data.length > 1
          ? { ...b, data: b.data.slice(1) }
          : b,
      ),
  },
  {
    name: "limit-capped-at-50",
    breaks: "Limits: list limit is 1 to 200 (this one silently serves at most 50 rows a page)",
    caughtBy: ["pagination.limit-range-and-default"],
    wrap: (next) => async (req) => {
      const limit = Number(param(req.query, "limit"));
      if (req.method !== "GET" || !LIST.test(req.path) || !(limit > 50 && limit <= 200)) return next(req);
      return next({ ...req, query: setQuery(req.query, "limit", "50") });
    },
  },
  {
    name: "has-more-when-page-full",
    breaks:
      "Endpoints: has_more says whether rows follow (this one says true on every full page, the last one included)",
    caughtBy: ["pagination.has-more-exactly-full"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !API.test(req.path) || param(req.query, "order") === "desc") return res;
      const limit = Number(param(req.query, "limit") ?? 50);
      return mapJson(res, (b) =>
        Array.isArray(b?.data) && b.has_more === false && b.data.length === limit && typeof b.next_cursor === "string"
          ? { ...b, has_more: true }
          : b,
      );
    },
  },
  {
    name: "desc-ignores-cursor",
    breaks:
      "Pagination 3: with order=desc any cursor is only validated (this one never reads it, so an unreadable one passes)",
    caughtBy: ["pagination.desc-validates-cursor"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !API.test(req.path) || param(req.query, "order") !== "desc") return next(req);
      return next({ ...req, query: setQuery(req.query, "cursor", undefined) });
    },
  },
];
