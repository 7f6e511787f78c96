import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  isUuid,
  patchProduct,
  poolProducts,
  poolSuppliers,
  poolTags,
  productBody,
  readProduct,
  show,
  trackCreated,
} from "../support/catalog.js";
import { CODE_TYPE_LIST, type CodeType, codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import type { Product } from "../../shapes.js";

// Product collections: caps (Spec, Limits) and variant attributes. Replacement semantics (Product write
// rules 3) are in collections-replace.ts, atomic writes (rule 4) in atomic-write.ts.

type Op = "create" | "update";
type Capped = "codes" | "tags" | "suppliers" | "components";

/** n valid, distinct items of a collection (pool rows must exist already). */
async function items(ctx: RuleContext, collection: Capped, n: number): Promise<unknown[]> {
  switch (collection) {
    case "codes":
      return Array.from({ length: n }, (_, i) => {
        const type = CODE_TYPE_LIST[i % CODE_TYPE_LIST.length] as CodeType;
        return { type, code: codeValue(ctx, type) };
      });
    case "tags":
      return (await poolTags(ctx, n)).map((t) => ({ id: t.id }));
    case "suppliers":
      return (await poolSuppliers(ctx, n)).map((s, i) => ({
        supplier_id: s.id,
        is_primary: false,
        supplier_code: `RS-${i}`,
      }));
    case "components":
      return (await poolProducts(ctx, n)).map((p) => ({ product_id: p.id, quantity: 1 }));
  }
}

/** Spec, Limits: 10 codes, 20 tags, 10 suppliers, 50 components; Errors: a cap exceeded is 422 UNPROCESSABLE. */
function capRule(collection: Capped, cap: number): Rule {
  return rule({
    id: `catalog.cap-${collection}`,
    area: "Catalog",
    title: `${cap} ${collection} are accepted; ${cap + 1} answer 422 UNPROCESSABLE and save nothing`,
    spec: {
      section: SPEC.errors,
      quote: "UNPROCESSABLE | 422 | referenced thing not found, cap exceeded (codes, tags, suppliers, components)",
    },
    cost: cap + 14,
    leniency: "The field may name the collection or one of its items.",
    async run(ctx) {
      await items(ctx, collection, cap + 1); // shared rows first: what refers to them is deleted before them
      await ctx.property(
        fc.constantFrom<Op>("create", "update"),
        async (op) => {
          const sku = await freshSku(ctx);
          const atCap = await items(ctx, collection, cap);
          const over = await items(ctx, collection, cap + 1);
          let product: Product;
          if (op === "create") {
            product = await createProduct(ctx, { sku, [collection]: atCap });
          } else {
            product = await createProduct(ctx, { sku });
            await patchProduct(ctx, product.id, { [collection]: atCap });
          }
          const read = await readProduct(ctx, product.id);
          ctx.check(
            Array.isArray(read[collection]) && read[collection].length === cap,
            `${cap} ${collection} saved`,
            `${read[collection]?.length} ${collection}`,
          );
          const field = new RegExp(`^${collection}(\\.\\d+)?$`);
          if (op === "create") {
            const other = ctx.name("sku");
            const body = productBody(ctx, { sku: other, [collection]: over });
            const reply = await ctx.call("POST", "/products", { body });
            trackCreated(ctx, "/products", reply);
            expectError(ctx, reply, 422, "UNPROCESSABLE", [field], `POST /products with ${cap + 1} ${collection}`);
            await expectNoProduct(ctx, other, "a refused create");
          } else {
            const reply = await ctx.call("PATCH", `/products/${product.id}`, {
              body: { [collection]: over, name: ctx.name("over") },
            });
            expectError(
              ctx,
              reply,
              422,
              "UNPROCESSABLE",
              [field],
              `PATCH /products/{id} with ${cap + 1} ${collection}`,
            );
            await expectUnchanged(ctx, read, "a refused update");
          }
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  });
}

const attribute = (name: string, position: number) => ({ name, position });

export const collectionRules: Rule[] = [
  capRule("codes", 10),
  capRule("tags", 20),
  capRule("suppliers", 10),
  capRule("components", 50),

  rule({
    id: "catalog.variant-attribute-limits",
    area: "Catalog",
    title: "3 variant attributes are accepted; a 4th or a position outside 1 to 3 answers 400 VALIDATION_FAILED",
    spec: {
      section: SPEC.errors,
      quote:
        "Cap exceptions: over 3 variant attributes or a position outside 1 to 3 answers 400 VALIDATION_FAILED, not 422.",
    },
    cost: 20,
    async run(ctx) {
      const ops = ["create", "update"] as const satisfies readonly Op[];
      const bads = ["fourth", 0, 4, -1, 5, 99] as const;
      const arb = fc.record({ op: fc.constantFrom(...ops), bad: fc.constantFrom(...bads) });
      const limits = async ({ op, bad }: { op: Op; bad: (typeof bads)[number] }) => {
        const sku = await freshSku(ctx);
        const three = [attribute("Size", 1), attribute("Colour", 2), attribute("Material", 3)];
        const ok = await createProduct(ctx, { has_variants: true, variant_attributes: three });
        ctx.check(
          ok.variant_attributes?.length === 3 && ok.variant_attributes.every((a) => isUuid(a.id)),
          "3 variant attributes saved, each with an id",
          show(ok.variant_attributes),
        );
        const attrs =
          bad === "fourth" ? [...three, attribute("Fit", 3)] : [attribute("Size", 1), attribute("Colour", bad)];
        const what = bad === "fourth" ? "4 variant attributes" : `a variant attribute at position ${bad}`;
        const field = /^variant_attributes(\.\d+(\.position)?)?$/;
        if (op === "create") {
          const body = productBody(ctx, { sku, has_variants: true, variant_attributes: attrs });
          const reply = await ctx.call("POST", "/products", { body });
          trackCreated(ctx, "/products", reply);
          expectError(ctx, reply, 400, "VALIDATION_FAILED", [field], `POST /products with ${what}`);
          await expectNoProduct(ctx, sku, "a refused create");
        } else {
          const before = await readProduct(ctx, ok.id);
          const reply = await ctx.call("PATCH", `/products/${ok.id}`, { body: { variant_attributes: attrs } });
          expectError(ctx, reply, 400, "VALIDATION_FAILED", [field], `PATCH /products/{id} with ${what}`);
          await expectUnchanged(ctx, before, "a refused update");
        }
      };
      await ctx.property(arb, limits, Math.min(ctx.run.runs, 4));
      // Then 4 attributes and a position just outside 1 to 3, each in a create and an update, whatever the seed drew.
      for (const bad of ["fourth", 0, 4] as const) for (const op of ops) await limits({ op, bad });
    },
  }),
];
