import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import {
  bySku,
  createProduct,
  expectError,
  expectNewVersion,
  findGiftCard,
  freshSku,
  ok2xx,
  patchProduct,
  readProduct,
  show,
  unknownUuid,
} from "../support/catalog.js";
import { ours, Poller } from "../support/feed-poller.js";
import { expectTombstone } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";

// Product delete rules: soft delete and tombstones, gift cards, refusals and unknown ids. Brands,
// categories, tags and suppliers are in taxonomy-deletes.ts, their lists and names in taxonomy-lists.ts.

export function expectNoContent(ctx: RuleContext, reply: Reply, what: string): void {
  ctx.check(
    reply.status === 204 && reply.text === "",
    `${what}: 204 with no body`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
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
          const tombstone = expectTombstone(ctx, rows[0], p.id, "include_deleted=true");
          expectNewVersion(ctx, tombstone.version, [p.version], "the tombstone");
          ctx.check(
            new Date(tombstone.deleted_at).getTime() >= new Date(p.created_at).getTime(),
            "deleted_at not before created_at",
            show({ created_at: p.created_at, deleted_at: tombstone.deleted_at }),
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
      const card = await findGiftCard(ctx);
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
      ctx.check(kids.length === 1 && kids[0]?.active === true, "an active child", show(kids));
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
      const kinds = ["products", "brands", "categories", "tags", "suppliers"] as const;
      const arb = fc.record({ kind: fc.constantFrom(...kinds), id: fc.uuid({ version: 4 }) });
      const unknown = async ({ kind, id }: { kind: (typeof kinds)[number]; id: string }) => {
        expectError(
          ctx,
          await ctx.call("DELETE", `/${kind}/${id}`),
          404,
          "NOT_FOUND",
          undefined,
          `DELETE /${kind}/{unknown id}`,
        );
      };
      await ctx.property(arb, unknown, Math.min(ctx.run.runs, 10));
      // Then each kind once, whatever the seed drew.
      for (const kind of kinds) await unknown({ kind, id: unknownUuid() });
    },
  }),
];
