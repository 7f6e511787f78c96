import { fail, ok, type Result } from "../../kernel/result.js";
import type { Rng } from "../../kernel/random.js";
import { fieldError, type ApiError } from "../../contract/errors.js";
import type { ProductWrite } from "../../contract/schemas/catalog.js";
import { checkCollectionShapes, mergeCollections, sameAttributes } from "./product-collections.js";
import type { ProductRecord } from "./records.js";
import type { CatalogState } from "./state.js";

// Plans a product create or update: the whole new record, or the first refusal. Nothing is
// written here (Product write rules 4: a whole write is atomic).

export interface PlanContext {
  readonly catalog: CatalogState;
  readonly ids: Rng;
  readonly now: number;
}

const SCALARS = [
  "name",
  "description",
  "active",
  "has_inventory",
  "has_variants",
  "brand_id",
  "category_id",
  "retail_price",
  "loyalty_amount",
  "sales_account_code",
  "purchase_account_code",
  "weight",
  "length",
  "width",
  "height",
  "weight_unit",
  "dimension_unit",
] as const satisfies readonly (keyof ProductRecord & keyof ProductWrite)[];

/** rule catalog.create-minimal: left out at create, the SKU is generated, starting with PRD-. */
export function generateSku(catalog: CatalogState, ids: Rng): string {
  for (;;) {
    const sku = `PRD-${ids.token(8).toUpperCase()}`;
    if (!catalog.skuIndex.has(sku.toLowerCase())) return sku;
  }
}

export function newProductRecord(
  id: string,
  sku: string,
  name: string,
  retailPrice: number,
  now: number,
  catalog: CatalogState,
): ProductRecord {
  return {
    id,
    sku,
    name,
    description: null,
    active: true,
    is_gift_card: false,
    has_inventory: true,
    has_variants: false,
    variant_parent_id: null,
    brand_id: null,
    category_id: catalog.otherCategoryId,
    retail_price: retailPrice,
    loyalty_amount: null,
    sales_account_code: null,
    purchase_account_code: null,
    weight: null,
    length: null,
    width: null,
    height: null,
    weight_unit: null,
    dimension_unit: null,
    image_id: null,
    codes: [],
    tag_ids: [],
    suppliers: [],
    variant_options: [],
    variant_attributes: [],
    components: [],
    created_at: now,
    updated_at: now,
  };
}

/** The product after applying `body` to `existing` (undefined for a create). Image import is separate. */
export function planProduct(
  ctx: PlanContext,
  existing: ProductRecord | undefined,
  body: ProductWrite,
): Result<ProductRecord, ApiError> {
  const { catalog, ids, now } = ctx;
  const shape = checkCollectionShapes(body, catalog);
  if (shape) return fail(shape);

  let base: ProductRecord;
  // rule catalog.sku-update-ignored: an update starts from the stored product, and sku is no writable scalar: a sent sku is ignored.
  if (existing) base = existing;
  else {
    // rule catalog.sku-conflict: create needs only name and retail_price; a SKU in use is CONFLICT.
    const sku = body.sku;
    if (sku !== undefined && catalog.skuIndex.has(sku.toLowerCase()))
      return fail(fieldError("CONFLICT", "sku", "is in use by another product"));
    base = newProductRecord(
      ids.uuid(),
      sku ?? generateSku(catalog, ids),
      body.name as string,
      body.retail_price as number,
      now,
      catalog,
    );
  }

  const next: Record<string, unknown> = { ...base };
  // rule catalog.api-owned-ignored: only writable scalars are copied; API-owned fields sent are ignored.
  for (const key of SCALARS) {
    const value = body[key];
    if (value === undefined) continue;
    next[key] =
      typeof value === "string" && (key === "brand_id" || key === "category_id") ? value.toLowerCase() : value;
  }
  const draft = next as unknown as ProductRecord;

  if (draft.brand_id !== null && !catalog.brands.live(draft.brand_id))
    return fail(fieldError("UNPROCESSABLE", "brand_id", "is not a brand of this store"));
  if (!catalog.categories.live(draft.category_id))
    return fail(fieldError("UNPROCESSABLE", "category_id", "is not a category of this store"));
  if (draft.category_id === catalog.giftCardCategoryId && !draft.is_gift_card) {
    return fail(fieldError("UNPROCESSABLE", "category_id", "the gift cards category is reserved for gift cards"));
  }

  const merged = mergeCollections(body, draft, draft.id, catalog, ids);
  if (!merged.ok) return merged;
  const planned: ProductRecord = { ...draft, ...merged.value, is_gift_card: base.is_gift_card };

  const liveChildren = existing ? catalog.childrenOf.get(existing.id).size : 0;
  if (planned.variant_parent_id !== null && (planned.has_variants || planned.variant_attributes.length > 0)) {
    return fail(
      fieldError(
        "UNPROCESSABLE",
        planned.has_variants ? "has_variants" : "variant_attributes",
        "a variant child cannot have variants of its own",
      ),
    );
  }
  if (liveChildren > 0 && !planned.has_variants)
    return fail(fieldError("CONFLICT", "has_variants", "the product has live variant children"));
  if (!planned.has_variants && planned.variant_attributes.length > 0) {
    return fail(
      fieldError("UNPROCESSABLE", "variant_attributes", "only a product with has_variants true has variant attributes"),
    );
  }
  // rule catalog.variant-attributes: attributes change only while there are no live variant children (the same content is accepted).
  if (liveChildren > 0 && existing && !sameAttributes(planned.variant_attributes, existing.variant_attributes)) {
    return fail(
      fieldError("CONFLICT", "variant_attributes", "cannot change while the product has live variant children"),
    );
  }
  return ok(planned);
}

/** True when the planned record differs from the stored one (a write that changes nothing keeps its version). */
export function productChanged(before: ProductRecord, after: ProductRecord): boolean {
  return JSON.stringify({ ...before, updated_at: 0 }) !== JSON.stringify({ ...after, updated_at: 0 });
}
