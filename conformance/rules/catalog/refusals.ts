import fc from "fast-check";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import {
  bySku,
  createProduct,
  expectError,
  expectNoProduct,
  findGiftCard,
  freshSku,
  isUuid,
  ok2xx,
  productBody,
  show,
  trackCreated,
} from "../support/catalog.js";
import { storePrefix } from "../support/access.js";
import { rule, SPEC } from "../rule.js";
import { bodyOf, type Category, dataOf, rowsOf } from "../../shapes.js";

// What the catalog refuses: a create without its required fields, too few or too many variants in
// one call, deleting the reserved gift cards category, and a create past the store's product limit.

export const refusalRules: Rule[] = [
  rule({
    id: "catalog.create-required",
    area: "Catalog",
    title:
      "A product create without name or without retail_price (left out or null) answers 400 VALIDATION_FAILED naming it, and saves nothing",
    spec: { section: SPEC.resources, quote: "retail_price | integer, cents | Required on create." },
    cost: 24,
    async run(ctx) {
      // Spec, Resources: Product: name and retail_price are "Required on create". Each case tries both, left out and null.
      await ctx.property(
        fc.integer({ min: 0, max: 99_999 }),
        async (price) => {
          for (const field of ["retail_price", "name"]) {
            for (const how of ["absent", "null"] as const) {
              const sku = await freshSku(ctx);
              const body = productBody(ctx, { sku, retail_price: price, description: "must not be saved" });
              if (how === "absent") delete body[field];
              else body[field] = null;
              const reply = await ctx.call("POST", "/products", { body });
              trackCreated(ctx, "/products", reply);
              expectError(
                ctx,
                reply,
                400,
                "VALIDATION_FAILED",
                [new RegExp(`^${field}$`)],
                `POST /products with ${field} ${how === "absent" ? "left out" : "null"}`,
              );
              await expectNoProduct(ctx, sku, `a create with ${field} ${how === "absent" ? "left out" : "null"}`);
            }
          }
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),

  rule({
    id: "catalog.variants-count",
    area: "Catalog",
    title: "A variants call with no variant, or with 201, answers 400 VALIDATION_FAILED and adds no child",
    spec: { section: SPEC.limits, quote: "Variants per request | 200" },
    cost: 14,
    leniency: "The error may name variants or one of its items.",
    async run(ctx) {
      // Spec, Endpoints: POST /products/{id}/variants takes "1 to 200 variants".
      for (const count of [0, 201])
        await ctx.property(
          fc.constant(count),
          async () => {
            const sku = await freshSku(ctx);
            const parent = await createProduct(ctx, {
              sku,
              has_variants: true,
              variant_attributes: [{ name: "Size", position: 1 }],
            });
            const attr = parent.variant_attributes?.[0]?.id;
            // Spec, Resources: Product: has_variants is "True on a variant parent".
            ctx.check(
              parent.has_variants === true && isUuid(attr),
              "a variant parent: has_variants true and its attribute with an id",
              show({ has_variants: parent.has_variants, variant_attributes: parent.variant_attributes }),
            );
            const variants = Array.from({ length: count }, (_, i) => ({
              options: [{ attribute_id: attr, value: `V${i}` }],
              sku: `${sku}-v${i}`,
            }));
            const reply = await ctx.call("POST", `/products/${parent.id}/variants`, { body: { variants } });
            if (ok2xx(reply))
              for (const c of rowsOf<{ id?: unknown }>(reply) ?? []) if (isUuid(c?.id)) ctx.track(`/products/${c.id}`);
            expectError(
              ctx,
              reply,
              400,
              "VALIDATION_FAILED",
              [/^variants(\.\d+)?$/],
              `POST /products/{id}/variants with ${count} variants`,
            );
            for (const v of [variants[0], variants[variants.length - 1]])
              if (v) await expectNoProduct(ctx, v.sku, `a refused variants call of ${count}`);
          },
          1,
        );
    },
  }),

  rule({
    id: "catalog.gift-cards-category-delete",
    area: "Catalog",
    title: "Deleting the reserved gift cards category answers 409 CONFLICT and keeps it",
    spec: {
      section: SPEC.deletes,
      quote: "409 CONFLICT for a system category, the gift cards category, or a category with live subcategories",
    },
    cost: 6,
    needs: { destructive: true },
    leniency:
      "The gift cards category is the category of a gift card product the target lists; skipped when it lists none. Destructive on a wrong server (the category would be deleted): runs only with the control plane.",
    async run(ctx) {
      const card = await findGiftCard(ctx);
      if (!card)
        throw new Skip("the target lists no product with is_gift_card true, so its gift cards category is not known");
      const category = card.category_id as string;
      const before = await ctx.call("GET", `/categories/${category}`);
      ctx.status(before, 200);
      const was = dataOf<Category>(before);
      expectError(
        ctx,
        await ctx.call("DELETE", `/categories/${category}`),
        409,
        "CONFLICT",
        undefined,
        `DELETE /categories/{id} of the gift cards category (${was?.name})`,
      );
      const after = await ctx.call("GET", `/categories/${category}`);
      ctx.check(
        after.status === 200 && dataOf<Category>(after)?.version === was?.version,
        `the gift cards category still readable, unchanged at version ${was?.version}`,
        `status ${after.status} ${after.text.slice(0, 200)}`,
      );
    },
  }),

  rule({
    id: "catalog.product-limit",
    area: "Catalog",
    title: "A product create in a store at its product limit answers 402 PRODUCT_LIMIT_REACHED and creates nothing",
    spec: { section: SPEC.productWrite, quote: "Store at its product limit: 402 PRODUCT_LIMIT_REACHED." },
    cost: 8,
    needs: { control: true, destructive: true },
    leniency:
      "The product limit per plan is not shown by the spec: the control plane sets the store's limit to 0 (PATCH /_sim/stores/{prefix} {product_limit}) and puts the old one back.",
    async run(ctx) {
      const sku = await freshSku(ctx);
      const store = `/stores/${encodeURIComponent(await storePrefix(ctx))}`;
      const current = await ctx.control("PATCH", store, {});
      const shown = bodyOf(current);
      if (current.status !== 200 || !shown || !("product_limit" in shown))
        throw new Skip(`the control plane does not show or set a store's product limit (status ${current.status})`);
      const original = shown.product_limit as number | null;
      try {
        const limited = await ctx.control("PATCH", store, { product_limit: 0 });
        if (limited.status !== 200)
          throw new Skip(`the control plane did not set the product limit (status ${limited.status})`);
        const reply = await ctx.call("POST", "/products", { body: productBody(ctx, { sku }) });
        trackCreated(ctx, "/products", reply);
        expectError(
          ctx,
          reply,
          402,
          "PRODUCT_LIMIT_REACHED",
          undefined,
          "POST /products in a store at its product limit",
        );
        await expectNoProduct(ctx, sku, "a create at the product limit");
      } finally {
        const restored = await ctx.control("PATCH", store, { product_limit: original });
        if (restored.status !== 200)
          throw new Error(`could not put the store's product limit back to ${original}: status ${restored.status}`);
      }
      const found = await bySku(ctx, sku);
      ctx.check(found.length === 0, `still no product with SKU ${sku}`, show(found.map((p) => p.id)));
      await createProduct(ctx, { sku });
    },
  }),
];
