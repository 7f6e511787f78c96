import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  createTaxon,
  expectError,
  expectNewVersion,
  freshSku,
  isUuid,
  type Kind,
  otherProducts,
  readProduct,
  sameId,
  show,
} from "../support/catalog.js";
import { rule, SPEC } from "../rule.js";
import { expectNoContent } from "./deletes.js";
import { type Category, dataOf, type Product } from "../../shapes.js";

// Taxonomy delete rules: brands, categories, tags and suppliers, their effects on products, and the
// categories that cannot be deleted.

/** The id of Other Products, read off a product the category delete moved (cached per run). */
async function expectOtherProducts(ctx: RuleContext, categoryId: unknown, what: string): Promise<void> {
  ctx.check(isUuid(categoryId), `${what}: a category_id`, show(categoryId));
  const known = otherProducts.get(ctx.run);
  if (known && sameId(known, categoryId)) return;
  const reply = await ctx.call("GET", `/categories/${categoryId}`);
  ctx.check(
    reply.status === 200 && dataOf<Category>(reply)?.name === "Other Products",
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
  readonly linked: (p: Product) => string[];
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
    linked: (p) => p.tags.map((t) => t.id),
  },
  {
    kind: "suppliers",
    quote: "supplier | removed from every product carrying it",
    link: (ids) => ({
      suppliers: ids.map((supplier_id, i) => ({ supplier_id, is_primary: i === 0, supplier_code: null })),
    }),
    linked: (p) => p.suppliers.map((s) => s.supplier_id),
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
          const users: Product[] = [];
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

export const taxonomyDeleteRules: Rule[] = [
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
];
