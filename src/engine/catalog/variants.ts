import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, fieldError, notFound, type ApiError } from "../../contract/errors.js";
import type { VariantsBody } from "../../contract/schemas/catalog.js";
import type { Row } from "../feed.js";
import type { CatalogContext } from "./context.js";
import { generateSku } from "./product-write.js";
import type { OptionRecord, ProductRecord } from "./records.js";

// Spec, Product write rules 9: create the parent with has_variants true and its attributes, then add
// children. A combination that already exists answers 409 CONFLICT. Children are ordinary products
// afterwards. The call is all or nothing.

/** A combination's identity: values in attribute order, compared without regard to case. */
export const combinationKey = (options: readonly OptionRecord[]) =>
  options.map((o) => `${o.attribute_id}=${o.value.toLowerCase()}`).join("\u0000");

export function addVariants(
  ctx: CatalogContext,
  parentId: string,
  body: VariantsBody,
): Result<Row<ProductRecord>[], ApiError> {
  const { store, ids, now } = ctx;
  const catalog = store.catalog;
  const parent = catalog.products.live(parentId);
  if (!parent) return fail(notFound("product"));
  if (!parent.has_variants || parent.variant_attributes.length === 0) {
    return fail(
      apiError(
        "UNPROCESSABLE",
        "The product is not a variant parent: it needs has_variants true and its variant_attributes.",
      ),
    );
  }
  const limit = store.settings.productLimit;
  if (limit !== null && catalog.liveProducts + body.variants.length > limit) {
    return fail(
      apiError("PRODUCT_LIMIT_REACHED", `The variants would take the store past its plan's product limit (${limit}).`),
    );
  }
  const attributes = parent.variant_attributes;
  const taken = new Set<string>();
  for (const childId of catalog.childrenOf.get(parent.id)) {
    const child = catalog.products.live(childId);
    if (child) taken.add(combinationKey(child.variant_options));
  }
  const skus = new Set<string>();
  const planned: { options: OptionRecord[]; sku?: string }[] = [];
  for (let i = 0; i < body.variants.length; i++) {
    const variant = body.variants[i] as VariantsBody["variants"][number];
    const byAttribute = new Map<string, string>();
    for (let j = 0; j < variant.options.length; j++) {
      const option = variant.options[j] as OptionRecord;
      const attributeId = option.attribute_id.toLowerCase();
      if (!attributes.some((a) => a.id === attributeId)) {
        return fail(
          fieldError(
            "VALIDATION_FAILED",
            `variants.${i}.options.${j}.attribute_id`,
            "is not an attribute of the parent product",
          ),
        );
      }
      if (byAttribute.has(attributeId))
        return fail(fieldError("VALIDATION_FAILED", `variants.${i}.options.${j}.attribute_id`, "is given twice"));
      byAttribute.set(attributeId, option.value);
    }
    if (byAttribute.size !== attributes.length) {
      return fail(
        fieldError(
          "VALIDATION_FAILED",
          `variants.${i}.options`,
          "must give one value for each of the parent's variant attributes",
        ),
      );
    }
    const options = attributes.map((a) => ({ attribute_id: a.id, value: byAttribute.get(a.id) as string }));
    const key = combinationKey(options);
    // rule catalog.variants: an existing combination is 409 CONFLICT, and the call adds none of its variants.
    if (taken.has(key)) return fail(fieldError("CONFLICT", `variants.${i}.options`, "this combination already exists"));
    taken.add(key);
    if (variant.sku !== undefined) {
      const lower = variant.sku.toLowerCase();
      if (catalog.skuIndex.has(lower) || skus.has(lower))
        return fail(fieldError("CONFLICT", `variants.${i}.sku`, "is in use by another product"));
      skus.add(lower);
    }
    planned.push({ options, sku: variant.sku });
  }

  const rows: Row<ProductRecord>[] = [];
  body.variants.forEach((variant, i) => {
    const { options, sku } = planned[i] as (typeof planned)[number];
    let childSku = sku;
    while (childSku === undefined || (sku === undefined && skus.has(childSku.toLowerCase())))
      childSku = generateSku(catalog, ids);
    rows.push(
      catalog.saveProduct(
        variantChild(
          parent,
          {
            id: ids.uuid(),
            sku: childSku,
            options,
            name: variant.name,
            retail_price: variant.retail_price,
            active: variant.active,
          },
          now,
        ),
      ),
    );
  });
  return ok(rows);
}

/**
 * A variant child: an ordinary product copied from its parent, except its identity, name (default
 * "Parent / value / value"), price (default the parent's), `active`, its options, and the collections
 * and image, which start empty (docs/spec-choices.md).
 */
export function variantChild(
  parent: ProductRecord,
  v: { id: string; sku: string; options: OptionRecord[]; name?: string; retail_price?: number; active?: boolean },
  now: number,
): ProductRecord {
  return {
    ...parent,
    id: v.id,
    sku: v.sku,
    name: v.name ?? `${parent.name} / ${v.options.map((o) => o.value).join(" / ")}`,
    active: v.active ?? true,
    has_variants: false,
    variant_parent_id: parent.id,
    retail_price: v.retail_price ?? parent.retail_price,
    image_id: null,
    codes: [],
    tag_ids: [],
    suppliers: [],
    variant_options: v.options,
    variant_attributes: [],
    components: [],
    created_at: now,
    updated_at: now,
  };
}
