import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import { rule, SPEC } from "../rule.js";
import { bodyOf, expectPage, expectRows, pageOf } from "../../shapes.js";

// Pagination and polling rules, checked on lists every target has (outlets, payment types, taxes,
// categories): read-only, so safe on shared data.

const LISTS = ["/outlets", "/payment-types", "/taxes", "/categories"] as const;
/** docs/spec-choices.md, Shapes: the last non-empty page (has_more false) still carries a cursor. */
const LAST_PAGE_CURSOR = "`next_cursor` on the last non-empty page";
/** Spec, Endpoints: "Not shown: ... list/update paths of brands, categories, tags and suppliers": a target may not serve it. */
const NOT_SHOWN: ReadonlySet<string> = new Set(["/categories"]);

async function pageAll(
  ctx: RuleContext,
  list: string,
  limit: number,
): Promise<{ ids: string[]; lastCursor: string | null }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let lastCursor: string | null = null;
  for (let guard = 0; guard < 200; guard++) {
    const reply = await ctx.call(
      "GET",
      `${list}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    ctx.status(reply, 200);
    const { data, next_cursor, has_more } = expectPage<{ id: string }>(
      reply,
      `GET ${list}: {data: [...], next_cursor, has_more}`,
    );
    ids.push(...data.map((r) => r.id));
    // A page with more after it needs a cursor; the last non-empty page may carry one or null
    // (Pagination 2 fixes only the empty page; docs/spec-choices.md, next_cursor on the last non-empty page).
    if (data.length > 0 && has_more)
      ctx.check(
        typeof next_cursor === "string",
        `a cursor after a non-empty page of ${list} with has_more true`,
        JSON.stringify(next_cursor),
      );
    if (next_cursor) lastCursor = String(next_cursor);
    if (!has_more) return { ids, lastCursor };
    ctx.check(data.length === limit, `a full page of ${limit} while has_more is true`, `${data.length} rows`);
    cursor = next_cursor ? String(next_cursor) : null;
  }
  throw new Error(`${list} did not end after 200 pages`);
}

/** Pages of `limit` give exactly the rows of one big page, in its order. */
async function samePages(ctx: RuleContext, list: string, limit: number): Promise<void> {
  const whole = await ctx.call("GET", `${list}?limit=200`);
  if (whole.status === 404 && NOT_SHOWN.has(list)) return;
  ctx.status(whole, 200);
  const expected = expectRows<{ id: string }>(whole, `GET ${list}?limit=200: {data: [...]}`).map((r) => r.id);
  const { ids } = await pageAll(ctx, list, limit);
  ctx.check(
    JSON.stringify(ids) === JSON.stringify(expected),
    `pages of ${limit} of ${list} giving ${JSON.stringify(expected)}`,
    JSON.stringify(ids),
  );
}

export const cursorRules = [
  rule({
    id: "pagination.each-row-once",
    area: "Pagination",
    title: "Paging with any limit visits every row exactly once, in the order of one big page",
    spec: {
      section: SPEC.paging,
      quote: "Rows come oldest change first. cursor is opaque and must be passed back unchanged.",
    },
    cost: 40,
    leniency:
      "The last non-empty page (has_more false) may carry a cursor or null (docs/spec-choices.md: next_cursor on the last non-empty page).",
    async run(ctx) {
      await ctx.property(
        fc.record({ list: fc.constantFrom(...LISTS), limit: fc.integer({ min: 1, max: 5 }) }),
        async ({ list, limit }) => {
          await samePages(ctx, list, limit);
        },
        Math.min(ctx.run.runs, 8),
      );
      // Then every list at a page size of 2, so a defect shows whatever the seed drew.
      for (const list of LISTS) await samePages(ctx, list, 2);
    },
  }),
  rule({
    id: "pagination.empty-page-null-cursor",
    area: "Pagination",
    title: "An empty page returns next_cursor null (the client keeps its cursor)",
    spec: { section: SPEC.paging, quote: "An empty page returns next_cursor: null; keep the cursor already held." },
    cost: 6,
    leniency:
      "The last non-empty page may carry a cursor or null (the spec only fixes the empty page); when both lists end with null, no empty page can be reached read-only and the rule is skipped.",
    choices: [LAST_PAGE_CURSOR],
    async run(ctx) {
      let checked = 0;
      for (const list of LISTS.slice(0, 2)) {
        // One page of 200 holds the whole list: its cursor is the last non-empty page's.
        const { lastCursor } = await pageAll(ctx, list, 200);
        ctx.choice(LAST_PAGE_CURSOR, lastCursor !== null, `the last page of ${list} with a next_cursor`, "null");
        if (lastCursor === null) continue;
        checked += 1;
        const empty = await ctx.call("GET", `${list}?cursor=${encodeURIComponent(lastCursor)}`);
        ctx.status(empty, 200);
        const page = pageOf(empty);
        ctx.check(
          page !== undefined && page.data.length === 0 && page.next_cursor === null && page.has_more === false,
          "{data: [], next_cursor: null, has_more: false}",
          empty.text.slice(0, 200),
        );
      }
      // A target that ends every list with next_cursor null hands out no cursor past the last row, so
      // no empty page can be reached on these read-only lists: nothing was checked.
      if (checked === 0)
        throw new Skip(
          `the last page of ${LISTS.slice(0, 2).join(" and ")} carries next_cursor null, so no cursor reaches an empty page on a read-only list`,
        );
    },
  }),
  rule({
    id: "pagination.limit-range",
    area: "Pagination",
    title: "limit outside 1 to 200 answers 400 VALIDATION_FAILED naming limit; inside it is accepted",
    spec: { section: SPEC.endpoints, quote: "Common to list endpoints: query limit (integer 1 to 200, default 50)" },
    cost: 10,
    async run(ctx) {
      const limits = fc.oneof(
        fc.integer({ min: -1000, max: 0 }),
        fc.integer({ min: 201, max: 100000 }),
        fc.integer({ min: 1, max: 200 }),
      );
      await ctx.property(
        limits,
        async (limit) => {
          const reply = await ctx.call("GET", `/outlets?limit=${limit}`);
          if (limit >= 1 && limit <= 200) ctx.status(reply, 200);
          else ctx.error(reply, 400, "VALIDATION_FAILED", ["limit"]);
        },
        Math.min(ctx.run.runs, 10),
      );
    },
  }),
  rule({
    id: "pagination.unreadable-cursor",
    area: "Pagination",
    title: "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error",
    spec: {
      section: SPEC.paging,
      quote: "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error.",
    },
    cost: 10,
    async run(ctx) {
      await ctx.property(
        fc.stringMatching(/^[!-~]{1,40}$/).map((s) => `zz${s}`),
        async (cursor) => {
          ctx.error(await ctx.call("GET", `/outlets?cursor=${encodeURIComponent(cursor)}`), 400, "VALIDATION_FAILED", [
            "cursor",
          ]);
        },
        Math.min(ctx.run.runs, 10),
      );
    },
  }),
  rule({
    id: "pagination.desc-one-page",
    area: "Pagination",
    title: "order=desc returns one first page only: next_cursor null, has_more false",
    spec: {
      section: SPEC.paging,
      quote:
        "order=desc returns one first page only: no next_cursor, has_more false, and any cursor is only validated.",
    },
    cost: 3,
    async run(ctx) {
      // Payment types: a list every store has whose path the spec shows, and that the API never changes.
      const asc = await ctx.call("GET", "/payment-types?limit=200");
      const desc = await ctx.call("GET", "/payment-types?order=desc&limit=1");
      ctx.status(desc, 200);
      const body = bodyOf(desc);
      ctx.check(
        body?.next_cursor === null && body?.has_more === false,
        "next_cursor null and has_more false",
        JSON.stringify({ next_cursor: body?.next_cursor, has_more: body?.has_more }),
      );
      const ascRows = expectRows<{ id: string }>(asc, "GET /payment-types?limit=200: {data: [...]}");
      const descRows = expectRows<{ id: string }>(desc, "GET /payment-types?order=desc: {data: [...]}");
      const newest = ascRows[ascRows.length - 1]?.id;
      ctx.check(
        descRows[0]?.id === newest,
        `the newest change first (${newest})`,
        JSON.stringify(descRows.map((r) => r.id)),
      );
    },
  }),
  rule({
    id: "pagination.include-deleted-desc",
    area: "Pagination",
    title: "include_deleted=true with order=desc answers 400 VALIDATION_FAILED",
    spec: {
      section: SPEC.paging,
      quote: "include_deleted=true works only with order=asc; with desc it answers 400 VALIDATION_FAILED.",
    },
    cost: 1,
    async run(ctx) {
      ctx.error(await ctx.call("GET", "/outlets?include_deleted=true&order=desc"), 400, "VALIDATION_FAILED");
    },
  }),
];
