import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import { createProduct, freshSku, isUuid, ok2xx, sameId, show } from "../support/catalog.js";
import { ours, Poller } from "../support/feed-poller.js";
import { rule, SPEC } from "../rule.js";
import { errorCode, type FeedRow, pageOf, rowsOf } from "../../shapes.js";

// Pagination on the product list, where the run can make rows of its own: the default and largest
// page size, a last page that is exactly full, and a cursor sent with order=desc. (cursors.ts
// covers the read-only lists: row order, empty pages, limit bounds on /outlets, unreadable cursors.)

interface Page {
  readonly data: FeedRow[];
  readonly next_cursor: string | null;
  readonly has_more: boolean;
}

const enc = encodeURIComponent;

/** The same list request from another cursor (any cursor it had replaced). */
const withCursor = (path: string, cursor: string): string => {
  const [route, query = ""] = path.split("?");
  const params = query.split("&").filter((p) => p !== "" && !p.startsWith("cursor="));
  return `${route}?${[...params, `cursor=${enc(cursor)}`].join("&")}`;
};

/** One page of a list, its shape checked. */
async function listPage(ctx: RuleContext, path: string): Promise<Page> {
  const reply = await ctx.call("GET", path);
  ctx.status(reply, 200);
  const page = pageOf<FeedRow>(reply);
  const { data, next_cursor, has_more } = page ?? {};
  if (!data || typeof has_more !== "boolean" || !(next_cursor === null || typeof next_cursor === "string"))
    throw new Mismatch(`GET ${path}: {data: [...], next_cursor, has_more}`, reply.text.slice(0, 300));
  return { data: [...data], next_cursor, has_more };
}

/**
 * Adds `count` products of ours cheaply: a variant parent and its children in one call (1 to 200 per
 * call, spec Endpoints), or one by one when the target refuses that. Everything made is tracked.
 */
async function addProducts(ctx: RuleContext, count: number): Promise<void> {
  if (count <= 1) {
    if (count === 1) await createProduct(ctx);
    return;
  }
  const parent = await createProduct(ctx, { has_variants: true, variant_attributes: [{ name: "Size", position: 1 }] });
  const attr = parent.variant_attributes?.find((a) => a?.position === 1)?.id;
  if (isUuid(attr)) {
    const variants = Array.from({ length: count - 1 }, (_, i) => ({
      options: [{ attribute_id: attr, value: `v${i + 1}` }],
      sku: ctx.name("variant"),
    }));
    const reply = await ctx.call("POST", `/products/${parent.id}/variants`, { body: { variants } });
    if (reply.status === 402)
      throw new Skip(`the store is at its product limit (402 ${errorCode(reply) ?? ""}): it cannot reach 51 products`);
    if (ok2xx(reply)) {
      const made = rowsOf<{ id?: unknown }>(reply) ?? [];
      for (const child of made) if (isUuid(child?.id)) ctx.track(`/products/${child.id}`);
      // The call's answer is not shown by the spec: children it does not list are found in the list.
      if (made.length < count - 1) await trackChildren(ctx, parent.id);
      return;
    }
  }
  for (let i = 1; i < count; i++) await createProduct(ctx);
}

/** Children of a parent of ours in the first pages of the product list, tracked for the cleanup. */
async function trackChildren(ctx: RuleContext, parentId: string): Promise<void> {
  let cursor: string | null = null;
  for (let pages = 0; pages < 5; pages++) {
    const page = await listPage(ctx, `/products?limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`);
    for (const p of page.data)
      if (
        isUuid(p?.id) &&
        typeof p.variant_parent_id === "string" &&
        p.variant_parent_id.toLowerCase() === parentId.toLowerCase()
      )
        ctx.track(`/products/${p.id}`);
    if (!page.has_more || page.next_cursor === null) return;
    cursor = page.next_cursor;
  }
}

/**
 * Where the product feed ends now: a cursor and the number of rows that follow it (rows after the
 * last cursor the feed gave, when its last page came without one, as spec-choices accepts).
 */
async function feedEnd(ctx: RuleContext): Promise<{ cursor: string | null; after: number; ids: Set<string> }> {
  let cursor = (await Poller.atEnd(ctx, false)).cursor;
  for (let tries = 0; tries < 5; tries++) {
    const page = await listPage(ctx, `/products?limit=200${cursor ? `&cursor=${enc(cursor)}` : ""}`);
    if (page.has_more) {
      ctx.check(typeof page.next_cursor === "string", "a next_cursor while has_more is true", show(page.next_cursor));
      cursor = page.next_cursor;
      continue;
    }
    if (typeof page.next_cursor === "string") return { cursor: page.next_cursor, after: 0, ids: new Set() };
    return { cursor, after: page.data.length, ids: new Set(page.data.map((p) => String(p?.id).toLowerCase())) };
  }
  throw new Skip("the product feed kept growing while the rule looked for its end (other writers)");
}

/** Whether every id of `ids` is in the pages that follow `page` (up to five pages of 200). */
async function follow(ctx: RuleContext, page: Page, ids: ReadonlySet<string>): Promise<boolean> {
  const found = new Set<string>();
  for (let pages = 0; pages < 5 && page.has_more && typeof page.next_cursor === "string"; pages++) {
    page = await listPage(ctx, withCursor("/products?limit=200", page.next_cursor));
    for (const p of ours(page.data, ids)) found.add(p.id.toLowerCase());
    if (found.size === ids.size) return true;
  }
  return false;
}

/**
 * A page after which no row follows must say has_more false. A server that says true is followed
 * once: an empty next page shows it wrong; rows there were written meanwhile by someone else.
 */
async function expectLastPage(ctx: RuleContext, path: string, page: Page, what: string): Promise<void> {
  if (!page.has_more) return;
  ctx.check(
    typeof page.next_cursor === "string",
    `${what}: has_more false (no row follows it)`,
    `has_more true with next_cursor ${show(page.next_cursor)}`,
  );
  const next = await listPage(ctx, withCursor(path, page.next_cursor as string));
  if (next.data.length > 0)
    throw new Skip(
      `rows followed the exactly full page when it was read again (${next.data.length}): another writer changed the list meanwhile`,
    );
  throw new Mismatch(
    `${what}: has_more false (no row follows it)`,
    `has_more true, and the page after it is empty: ${show(next)}`,
  );
}

export const pagingLimitRules: Rule[] = [
  rule({
    id: "pagination.limit-range-and-default",
    area: "Pagination",
    title:
      "A page without limit holds 50 rows, limit=200 up to 200; limit 0 and 201 answer 400 VALIDATION_FAILED naming limit",
    spec: { section: SPEC.limits, quote: "List limit | 1 to 200, default 50" },
    cost: 60,
    leniency:
      "The rows are the store's products; only when it has 50 or fewer does the rule add its own (one variant parent with children, or one by one). Row order and next_cursor are not judged here.",
    async run(ctx) {
      let whole = await listPage(ctx, "/products?limit=200");
      // A few more than 51, and again if needed: another writer may delete some of the store's products meanwhile.
      for (let tries = 0; whole.data.length <= 50 && !whole.has_more && tries < 3; tries++) {
        await addProducts(ctx, 56 - whole.data.length);
        whole = await listPage(ctx, "/products?limit=200");
      }
      // More than 50 rows exist now: a page of 200 holds them all, or 200 of them when more follow.
      ctx.check(
        whole.data.length > 50 && whole.data.length <= 200,
        "GET /products?limit=200 with more than 50 products: more than 50 rows, at most 200",
        `${whole.data.length} rows, has_more ${whole.has_more}`,
      );
      if (whole.has_more)
        ctx.check(
          whole.data.length === 200,
          "GET /products?limit=200: 200 rows while has_more is true",
          `${whole.data.length} rows`,
        );
      const first = await listPage(ctx, "/products");
      ctx.check(
        first.data.length === 50 && first.has_more === true,
        "GET /products without limit, with more than 50 products: 50 rows and has_more true (default 50)",
        `${first.data.length} rows, has_more ${first.has_more}`,
      );
      for (const limit of [0, 201])
        ctx.error(await ctx.call("GET", `/products?limit=${limit}`), 400, "VALIDATION_FAILED", ["limit"]);
    },
  }),

  rule({
    id: "pagination.has-more-exactly-full",
    area: "Pagination",
    title: "A last page that is exactly full says has_more false; a full page that rows follow says true",
    spec: {
      section: SPEC.endpoints,
      quote: "Response: {data: [...], next_cursor: string or null, has_more: boolean}.",
    },
    cost: 20,
    leniency:
      "has_more is read by its name: whether rows follow the page when it is served. A last page's next_cursor may be a cursor or null (docs/spec-choices.md). When a server says true, the next page is read once: rows there were written by someone else meanwhile (skipped), an empty page fails. Rows of others before ours (ours found on the pages after) are another writer's: the rule reads again.",
    async run(ctx) {
      // An exact SKU lookup holds one live product: a page of limit=1 is exactly full and last.
      const sku = await freshSku(ctx);
      const product = await createProduct(ctx, { sku });
      const lookup = `/products?sku=${enc(sku)}&limit=1`;
      const one = await listPage(ctx, lookup);
      ctx.check(
        one.data.length === 1 && sameId(one.data[0]?.id, product.id),
        `GET ${lookup}: the one product ${product.id}`,
        show(one.data.map((p) => p?.id)),
      );
      await expectLastPage(ctx, lookup, one, `GET ${lookup}, one product for a limit of 1`);

      // The product feed from its end, then three rows of ours: a page of exactly the rows left is last.
      // On a shared store another writer may change rows in between: the page then holds rows that were
      // not there at the end, or lacks some that were; the rule tries again, and skips when it never
      // finds the list still.
      let end: Awaited<ReturnType<typeof feedEnd>>;
      let made: string[];
      let full: Page;
      let rows: number;
      let tries = 0;
      const at = (limit: number) => `/products?limit=${limit}${end.cursor ? `&cursor=${enc(end.cursor)}` : ""}`;
      for (;;) {
        end = await feedEnd(ctx);
        made = [];
        for (let i = 0; i < 3; i++) made.push((await createProduct(ctx)).id.toLowerCase());
        rows = end.after + made.length;
        if (rows > 200)
          throw new Skip(
            `the feed's last page came without a cursor and holds ${end.after} rows: too many to page exactly`,
          );
        full = await listPage(ctx, at(rows));
        const mine = new Set(made);
        const others = full.data.map((p) => String(p?.id).toLowerCase()).filter((id) => !mine.has(id));
        const still = others.length === end.ids.size && others.every((id) => end.ids.has(id));
        if (still) break;
        // Rows of others and none of ours: others wrote at least as many rows as the page holds, when
        // ours follow it; a page that ours never follow is judged below.
        if (ours(full.data, mine).length === 0 && !(await follow(ctx, full, mine))) break;
        if (++tries === 3)
          throw new Skip(
            "another writer kept changing the product list while the rule read it (3 tries): the rows after the feed's end were never the same twice",
          );
      }
      const ids = new Set(made);
      ctx.check(
        full.data.length === rows && ours(full.data.slice(-made.length), ids).length === made.length,
        `GET ${at(rows)}: the ${rows} rows left, ending with ours ${show(made)}`,
        show(full.data.map((p) => p?.id)),
      );
      await expectLastPage(ctx, at(rows), full, `GET ${at(rows)}, exactly the ${rows} rows left`);
      const short = await listPage(ctx, at(rows - 1));
      ctx.check(
        short.data.length === rows - 1 && short.has_more === true && typeof short.next_cursor === "string",
        `GET ${at(rows - 1)}, one row short of the ${rows} left: ${rows - 1} rows, has_more true and a cursor`,
        show({ rows: short.data.length, has_more: short.has_more, next_cursor: short.next_cursor }),
      );
    },
  }),

  rule({
    id: "pagination.desc-validates-cursor",
    area: "Pagination",
    title:
      "With order=desc a cursor is only validated: an unreadable one answers 400 naming cursor, a valid one still gives the first page",
    spec: {
      section: SPEC.paging,
      quote:
        "order=desc returns one first page only: no next_cursor, has_more false, and any cursor is only validated.",
    },
    cost: 14,
    async run(ctx) {
      const { list, cursor } = await issuedCursor(ctx);
      await ctx.property(
        fc.stringMatching(/^[!-~]{1,40}$/).map((s) => `zz${s}`),
        async (bad) => {
          ctx.error(await ctx.call("GET", `${list}?order=desc&limit=2&cursor=${enc(bad)}`), 400, "VALIDATION_FAILED", [
            "cursor",
          ]);
        },
        Math.min(ctx.run.runs, 5),
      );
      const firstPage = () => listPage(ctx, `${list}?order=desc&limit=2`);
      const before = await firstPage();
      const given = await listPage(ctx, `${list}?order=desc&limit=2&cursor=${enc(cursor)}`);
      ctx.check(
        given.next_cursor === null && given.has_more === false,
        `order=desc with a valid cursor: next_cursor null and has_more false`,
        show({ next_cursor: given.next_cursor, has_more: given.has_more }),
      );
      const idsOf = (p: Page) => JSON.stringify(p.data.map((r) => String(r?.id).toLowerCase()));
      if (idsOf(given) === idsOf(before)) return;
      // Someone may have written in between: the first page read again decides.
      const after = await firstPage();
      ctx.check(
        idsOf(given) === idsOf(after),
        `GET ${list}?order=desc&limit=2 with a valid cursor: the first page ${idsOf(after)}, the cursor only validated`,
        idsOf(given),
      );
    },
  }),
];

/** A cursor a list issued (a first page of one row): the product list, else a reference list, else two products of ours. */
async function issuedCursor(ctx: RuleContext): Promise<{ list: string; cursor: string }> {
  for (const list of ["/products", "/categories", "/outlets", "/payment-types"]) {
    const page = await listPage(ctx, `${list}?limit=1`);
    if (typeof page.next_cursor === "string") return { list, cursor: page.next_cursor };
  }
  await createProduct(ctx);
  await createProduct(ctx);
  const page = await listPage(ctx, "/products?limit=1");
  ctx.check(
    typeof page.next_cursor === "string",
    "GET /products?limit=1 with two products: a next_cursor",
    show(page.next_cursor),
  );
  return { list: "/products", cursor: page.next_cursor as string };
}
