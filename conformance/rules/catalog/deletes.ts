import fc from "fast-check";
import { Skip, type Reply, type RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  bySku,
  createProduct,
  createTaxon,
  expectError,
  expectNewVersion,
  freshSku,
  isUuid,
  type Kind,
  ok2xx,
  otherProducts,
  patchProduct,
  readProduct,
  sameId,
  show,
  trackCreated,
} from "../support/catalog.js";
import { ours, Poller } from "../support/feed-poller.js";
import { expectTombstone } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";

// Delete rules: products (soft delete, tombstones, refusals), brands, categories, tags, suppliers and
// their effects on products; duplicate brand and tag names.

function expectNoContent(ctx: RuleContext, reply: Reply, what: string): void {
  ctx.check(
    reply.status === 204 && reply.text === "",
    `${what}: 204 with no body`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
}

/** The id of Other Products, read off a product the category delete moved (cached per run). */
async function expectOtherProducts(ctx: RuleContext, categoryId: unknown, what: string): Promise<void> {
  ctx.check(isUuid(categoryId), `${what}: a category_id`, show(categoryId));
  const known = otherProducts.get(ctx.run);
  if (known && sameId(known, categoryId)) return;
  const reply = await ctx.call("GET", `/categories/${categoryId}`);
  ctx.check(
    reply.status === 200 && reply.json?.data?.name === "Other Products",
    `${what}: the system category named Other Products`,
    `GET /categories/${categoryId}: status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  otherProducts.set(ctx.run, categoryId as string);
}

interface KindSpec {
  readonly kind: Kind;
  readonly quote: string;
  /** The product body referring to `ids` (first: the row deleted). */
  readonly link: (ids: string[]) => Record<string, unknown>;
  /** The ids a product refers to. */
  readonly linked: (p: any) => string[];
}

const KINDS: readonly KindSpec[] = [
  {
    kind: "brands",
    quote: "brand | removed; products that used it get no brand",
    link: (ids) => ({ brand_id: ids[0] }),
    linked: (p) => (p.brand_id === null ? [] : [p.brand_id]),
  },
  {
    kind: "categories",
    quote: "category | removed; products move to Other Products",
    link: (ids) => ({ category_id: ids[0] }),
    linked: (p) => [p.category_id],
  },
  {
    kind: "tags",
    quote: "tag | removed from every product carrying it",
    link: (ids) => ({ tags: ids.map((id) => ({ id })) }),
    linked: (p) => (p.tags as any[]).map((t) => t.id),
  },
  {
    kind: "suppliers",
    quote: "supplier | removed from every product carrying it",
    link: (ids) => ({
      suppliers: ids.map((supplier_id, i) => ({ supplier_id, is_primary: i === 0, supplier_code: null })),
    }),
    linked: (p) => (p.suppliers as any[]).map((s) => s.supplier_id),
  },
];

/** Spec, Delete rules: a brand, category, tag or supplier delete and its effect on the products using it. */
function taxonomyDeleteRule({ kind, quote, link, linked }: KindSpec): Rule {
  const one = kind === "categories" ? "category" : kind.slice(0, -1);
  const multi = kind === "tags" || kind === "suppliers";
  return rule({
    id: `catalog.${one}-delete`,
    area: "Catalog",
    title: `Deleting a ${one} answers 204, then 404; each product using it gets a new version and ${kind === "brands" ? "no brand" : kind === "categories" ? "the category Other Products" : `loses the ${one}`}`,
    spec: { section: SPEC.deletes, quote },
    cost: 30,
    leniency: kind === "suppliers" ? "GET /suppliers/{id} is not in the spec: after the delete 404 or 405." : undefined,
    async run(ctx) {
      await createTaxon(ctx, kind); // skips here, before any case, when the target cannot create one
      const arb = fc.record({ carriers: fc.integer({ min: 1, max: 2 }), keepOther: fc.boolean() });
      await ctx.property(
        arb,
        async ({ carriers, keepOther }) => {
          const sku = await freshSku(ctx);
          const doomed = await createTaxon(ctx, kind);
          const kept = await createTaxon(ctx, kind);
          const users: any[] = [];
          for (let i = 0; i < carriers; i++) {
            users.push(
              await createProduct(ctx, {
                ...(i === 0 ? { sku } : {}),
                ...link(multi && keepOther ? [doomed.id, kept.id] : [doomed.id]),
              }),
            );
          }
          const bystander = await createProduct(ctx, link([kept.id]));
          for (const u of users)
            ctx.check(
              linked(u).some((id) => sameId(id, doomed.id)),
              `a product using ${one} ${doomed.id}`,
              show(linked(u)),
            );

          expectNoContent(ctx, await ctx.call("DELETE", `/${kind}/${doomed.id}`), `DELETE /${kind}/{id}`);
          for (const u of users) {
            const after = await readProduct(ctx, u.id);
            expectNewVersion(ctx, after.version, [u.version], `a product that used the deleted ${one}`);
            const now = linked(after);
            ctx.check(!now.some((id) => sameId(id, doomed.id)), `the deleted ${one} gone from the product`, show(now));
            if (kind === "brands") ctx.check(after.brand_id === null, "brand_id null", show(after.brand_id));
            if (kind === "categories")
              await expectOtherProducts(ctx, after.category_id, "the product's category after the delete");
            if (multi)
              ctx.check(
                now.length === (keepOther ? 1 : 0) && (!keepOther || sameId(now[0], kept.id)),
                `the other ${one} kept: ${keepOther ? kept.id : "none"}`,
                show(now),
              );
          }
          const other = await readProduct(ctx, bystander.id);
          ctx.check(
            linked(other).some((id) => sameId(id, kept.id)),
            `a product of another ${one} keeps it`,
            show(linked(other)),
          );
          const read = await ctx.call("GET", `/${kind}/${doomed.id}`);
          ctx.check(
            read.status === 404 || (kind === "suppliers" && read.status === 405),
            `GET /${kind}/{deleted id}: 404`,
            `status ${read.status}`,
          );
          expectError(
            ctx,
            await ctx.call("DELETE", `/${kind}/${doomed.id}`),
            404,
            "NOT_FOUND",
            undefined,
            `DELETE /${kind}/{deleted id}`,
          );
        },
        Math.min(ctx.run.runs, 3),
      );
    },
  });
}

export const deleteRules: Rule[] = [
  rule({
    id: "catalog.product-delete",
    area: "Catalog",
    title:
      "A deleted product answers 404 and leaves the list; with include_deleted it comes back once as a tombstone {id, deleted_at, version}",
    spec: {
      section: SPEC.states,
      quote:
        "Soft deletion: a deleted product, brand, category, tag, supplier or customer is hidden from reads, and its id then answers NOT_FOUND.",
    },
    cost: 50,
    leniency: "A tombstone may carry further fields.",
    async run(ctx) {
      const arb = fc.record({ updates: fc.integer({ min: 0, max: 2 }), price: fc.integer({ min: 0, max: 99_999 }) });
      await ctx.property(
        arb,
        async ({ updates, price }) => {
          const withDeleted = await Poller.atEnd(ctx, true);
          const live = await Poller.atEnd(ctx, false);
          const sku = await freshSku(ctx);
          let p = await createProduct(ctx, { sku, retail_price: price });
          for (let i = 0; i < updates; i++) p = await patchProduct(ctx, p.id, { retail_price: price + i + 1 });
          expectNoContent(ctx, await ctx.call("DELETE", `/products/${p.id}`), "DELETE /products/{id}");
          expectError(
            ctx,
            await ctx.call("GET", `/products/${p.id}`),
            404,
            "NOT_FOUND",
            undefined,
            "GET /products/{deleted id}",
          );
          expectError(
            ctx,
            await ctx.call("PATCH", `/products/${p.id}`, { body: { name: ctx.name("zombie") } }),
            404,
            "NOT_FOUND",
            undefined,
            "PATCH /products/{deleted id}",
          );
          expectError(
            ctx,
            await ctx.call("DELETE", `/products/${p.id}`),
            404,
            "NOT_FOUND",
            undefined,
            "DELETE /products/{deleted id}",
          );
          const found = await bySku(ctx, sku);
          ctx.check(found.length === 0, `GET /products?sku=${sku}: the deleted product not listed`, show(found));
          const ids = new Set([p.id.toLowerCase()]);
          const rows = ours(await withDeleted.poll(ctx), ids);
          ctx.check(
            rows.length === 1,
            "include_deleted=true: the product polled once, as its latest state",
            show(rows),
          );
          expectTombstone(ctx, rows[0], p.id, "include_deleted=true");
          expectNewVersion(ctx, rows[0].version, [p.version], "the tombstone");
          ctx.check(
            new Date(rows[0].deleted_at).getTime() >= new Date(p.created_at).getTime(),
            "deleted_at not before created_at",
            show({ created_at: p.created_at, deleted_at: rows[0].deleted_at }),
          );
          const hidden = ours(await live.poll(ctx), ids);
          ctx.check(hidden.length === 0, "without include_deleted: the deleted product never polled", show(hidden));
          withDeleted.save(ctx);
          live.save(ctx);
        },
        Math.min(ctx.run.runs, 4),
      );
    },
  }),

  rule({
    id: "catalog.gift-card-delete",
    area: "Catalog",
    title: "Deleting a gift card product answers 422 UNPROCESSABLE and keeps it",
    spec: { section: SPEC.deletes, quote: "product | soft delete | 422 UNPROCESSABLE for a gift card" },
    cost: 4,
    needs: { destructive: true },
    leniency:
      "Destructive on a wrong server (the target's own gift card would be deleted): runs only with the control plane. Skipped when the target lists no gift card.",
    async run(ctx) {
      let cursor: string | null = null;
      let card: any;
      for (let pages = 0; pages < 25 && !card; pages++) {
        const reply = await ctx.call(
          "GET",
          `/products?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        );
        ctx.status(reply, 200);
        card = (reply.json.data as any[]).find((p) => p?.is_gift_card === true);
        if (!reply.json.has_more) break;
        cursor = reply.json.next_cursor;
      }
      if (!card) throw new Skip("the target lists no product with is_gift_card true");
      expectError(
        ctx,
        await ctx.call("DELETE", `/products/${card.id}`),
        422,
        "UNPROCESSABLE",
        undefined,
        "DELETE of a gift card",
      );
      const still = await readProduct(ctx, card.id);
      ctx.check(
        still.version === card.version && still.is_gift_card === true,
        "the gift card unchanged",
        show({ version: still.version, is_gift_card: still.is_gift_card }),
      );
    },
  }),

  rule({
    id: "catalog.product-delete-refusals",
    area: "Catalog",
    title: "Deleting a component of a composite, or a parent with active variant children, answers 409 CONFLICT",
    spec: {
      section: SPEC.deletes,
      quote: "409 CONFLICT if a component of a composite product; 409 CONFLICT if it has active variant children",
    },
    cost: 14,
    async run(ctx) {
      const part = await createProduct(ctx);
      await createProduct(ctx, { components: [{ product_id: part.id, quantity: 2 }] });
      expectError(
        ctx,
        await ctx.call("DELETE", `/products/${part.id}`),
        409,
        "CONFLICT",
        undefined,
        "DELETE of a component of a composite product",
      );
      await readProduct(ctx, part.id);
      const parent = await createProduct(ctx, {
        has_variants: true,
        variant_attributes: [{ name: "Size", position: 1 }],
      });
      const attr = parent.variant_attributes?.[0]?.id;
      const sku = ctx.name("variant");
      const reply = await ctx.call("POST", `/products/${parent.id}/variants`, {
        body: { variants: [{ options: [{ attribute_id: attr, value: "S" }], sku, active: true }] },
      });
      ctx.check(
        ok2xx(reply),
        "POST /products/{id}/variants: status 200 or 201",
        `status ${reply.status} ${reply.text.slice(0, 200)}`,
      );
      const kids = await bySku(ctx, sku);
      for (const k of kids) ctx.track(`/products/${k.id}`);
      ctx.check(kids.length === 1 && kids[0].active === true, "an active child", show(kids));
      expectError(
        ctx,
        await ctx.call("DELETE", `/products/${parent.id}`),
        409,
        "CONFLICT",
        undefined,
        "DELETE of a parent with an active variant child",
      );
      await readProduct(ctx, parent.id);
    },
  }),

  rule({
    id: "catalog.delete-unknown",
    area: "Catalog",
    title: "Deleting an unknown product, brand, category, tag or supplier id answers 404 NOT_FOUND",
    spec: { section: SPEC.deletes, quote: "Deleting an unknown, foreign or already deleted id answers 404 NOT_FOUND." },
    cost: 10,
    async run(ctx) {
      const arb = fc.record({
        kind: fc.constantFrom("products", "brands", "categories", "tags", "suppliers"),
        id: fc.uuid({ version: 4 }),
      });
      await ctx.property(
        arb,
        async ({ kind, id }) => {
          expectError(
            ctx,
            await ctx.call("DELETE", `/${kind}/${id}`),
            404,
            "NOT_FOUND",
            undefined,
            `DELETE /${kind}/{unknown id}`,
          );
        },
        Math.min(ctx.run.runs, 10),
      );
    },
  }),

  ...KINDS.map(taxonomyDeleteRule),

  rule({
    id: "catalog.category-delete-refusals",
    area: "Catalog",
    title: "Deleting a category with live subcategories, or the system category, answers 409 CONFLICT",
    spec: {
      section: SPEC.deletes,
      quote:
        "category | removed; products move to Other Products | 409 CONFLICT for a system category, the gift cards category, or a category with live subcategories",
    },
    cost: 12,
    leniency:
      "The system category is only tried with the control plane (a wrong server would delete shared data). Skipped when the target refuses {name, parent_id} as a category create body.",
    async run(ctx) {
      const top = await createTaxon(ctx, "categories");
      const sub = await createTaxon(ctx, "categories", { parent_id: top.id });
      ctx.check(sameId(sub.parent_id, top.id), `a subcategory of ${top.id}`, show(sub));
      expectError(
        ctx,
        await ctx.call("DELETE", `/categories/${top.id}`),
        409,
        "CONFLICT",
        undefined,
        "DELETE of a category with a live subcategory",
      );
      const kept = await ctx.call("GET", `/categories/${top.id}`);
      ctx.check(kept.status === 200, "the category still readable", `status ${kept.status}`);
      const p = await createProduct(ctx, { category_id: sub.id });
      expectNoContent(ctx, await ctx.call("DELETE", `/categories/${sub.id}`), "DELETE of the subcategory");
      const moved = await readProduct(ctx, p.id);
      await expectOtherProducts(ctx, moved.category_id, "a product of the deleted subcategory");
      if (!ctx.hasControl) return;
      const system = moved.category_id as string;
      expectError(
        ctx,
        await ctx.call("DELETE", `/categories/${system}`),
        409,
        "CONFLICT",
        undefined,
        "DELETE of the system category Other Products",
      );
    },
  }),

  rule({
    id: "catalog.taxonomy-deleted-rows",
    area: "Catalog",
    title:
      "A deleted brand, category, tag or supplier leaves its list, and with include_deleted=true comes back once in its normal shape, with no marker",
    spec: {
      section: SPEC.paging,
      quote:
        "On products and customers deleted rows are tombstones; on other lists deleted rows return in normal shape with no marker.",
    },
    cost: 24,
    leniency:
      "The list paths of brands, categories, tags and suppliers are not shown by the spec: a kind whose list answers 404 or 405 is left out (all four: skipped).",
    async run(ctx) {
      let tested = 0;
      for (const kind of ["brands", "categories", "tags", "suppliers"] as const) {
        const probe = await ctx.call("GET", `/${kind}?limit=1`);
        if (probe.status === 404 || probe.status === 405) continue;
        ctx.status(probe, 200);
        tested++;
        const row = await createTaxon(ctx, kind);
        expectNoContent(ctx, await ctx.call("DELETE", `/${kind}/${row.id}`), `DELETE /${kind}/{id}`);
        const withDeleted = (await listAll(ctx, `/${kind}?limit=200&include_deleted=true`)).filter((r) =>
          sameId(r?.id, row.id),
        );
        ctx.check(
          withDeleted.length === 1,
          `GET /${kind}?include_deleted=true: the deleted row once`,
          show(withDeleted),
        );
        const shown = withDeleted[0];
        ctx.check(
          shown.name === row.name &&
            typeof shown.version === "string" &&
            !("deleted_at" in shown) &&
            !("deleted" in shown),
          `the deleted row in its normal shape {id, name, ..., version} without a deletion marker`,
          show(shown),
        );
        expectNewVersion(ctx, shown.version, [row.version as string], `the deleted ${kind.slice(0, -1)}`);
        const live = (await listAll(ctx, `/${kind}?limit=200`)).filter((r) => sameId(r?.id, row.id));
        ctx.check(live.length === 0, `GET /${kind}: the deleted row not listed`, show(live));
      }
      if (tested === 0)
        throw new Skip("the target has no list path for brands, categories, tags or suppliers (not shown by the spec)");
    },
  }),

  rule({
    id: "catalog.duplicate-name",
    area: "Catalog",
    title: "Creating a brand or tag with the name of a live one answers 409 CONFLICT",
    spec: {
      section: SPEC.errors,
      quote: "CONFLICT | 409 | collision or rule (SKU in use, duplicate brand or tag name",
    },
    cost: 6,
    async run(ctx) {
      for (const kind of ["brands", "tags"] as const) {
        const first = await createTaxon(ctx, kind);
        const again = await ctx.call("POST", `/${kind}`, { body: { name: first.name } });
        trackCreated(ctx, `/${kind}`, again);
        expectError(ctx, again, 409, "CONFLICT", undefined, `POST /${kind} with the name of ${first.id}`);
        const read = await ctx.call("GET", `/${kind}/${first.id}`);
        ctx.check(
          read.status === 200 && read.json?.data?.name === first.name,
          `GET /${kind}/{id}: the first one kept`,
          `status ${read.status} ${read.text.slice(0, 200)}`,
        );
      }
    },
  }),
];

/** Every row of a (small) list, paging to its end. */
async function listAll(ctx: RuleContext, list: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const reply: Reply = await ctx.call("GET", `${list}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    ctx.status(reply, 200);
    ctx.check(Array.isArray(reply.json?.data), `${list}: {data: [...]}`, reply.text.slice(0, 200));
    rows.push(...reply.json.data);
    if (!reply.json.has_more) return rows;
    cursor = reply.json.next_cursor;
  }
  throw new Error(`${list} did not end after 100 pages`);
}
