import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, notFound, type ApiError } from "../../contract/errors.js";
import type { ProductCreate, ProductUpdate } from "../../contract/schemas/catalog.js";
import type { Row } from "../feed.js";
import { checkVersion } from "../versions.js";
import type { CatalogContext } from "./context.js";
import { decideImage, type ImageDecision } from "./images.js";
import { planProduct, productChanged } from "./product-write.js";
import type { ProductRecord } from "./records.js";

/** A committed product write; `imageFailed` when the product was saved but its image download failed. */
export interface ProductWriteResult {
  readonly row: Row<ProductRecord>;
  readonly imageFailed: boolean;
}

const withImage = (record: ProductRecord, decision: ImageDecision): ProductRecord =>
  decision.kind === "stored" ? { ...record, image_id: decision.imageId } : record;

/** Spec, Product write rules 1, 7 and 8. */
export function createProduct(ctx: CatalogContext, body: ProductCreate): Result<ProductWriteResult, ApiError> {
  const { store, ids, images, now } = ctx;
  const catalog = store.catalog;
  const limit = store.settings.productLimit;
  if (limit !== null && catalog.liveProducts >= limit) {
    return fail(apiError("PRODUCT_LIMIT_REACHED", `The store is at its plan's product limit (${limit}).`));
  }
  const planned = planProduct({ catalog, ids, now }, undefined, body);
  if (!planned.ok) return planned;
  const image = decideImage(images, ids, null, body.image_url, ctx.countImageWrite);
  if (!image.ok) return image;
  const row = catalog.saveProduct(withImage(planned.value, image.value));
  return ok({ row, imageFailed: image.value.kind === "failed" });
}

/** Spec, Product write rules 2 to 7: partial update, optional version check, atomic. */
export function updateProduct(
  ctx: CatalogContext,
  id: string,
  body: ProductUpdate,
): Result<ProductWriteResult, ApiError> {
  const { store, ids, images, now } = ctx;
  const catalog = store.catalog;
  const row = catalog.products.row(id);
  if (!row || row.deletedAt !== null) return fail(notFound("product"));
  // Spec, Product write rules 6: version or expected_version; if both are sent they must agree.
  const current = checkVersion(body, row, "product");
  if (!current.ok) return current;
  const planned = planProduct({ catalog, ids, now }, row.value, body);
  if (!planned.ok) return planned;
  const image = decideImage(images, ids, row.value.image_id, body.image_url, ctx.countImageWrite);
  if (!image.ok) return image;
  const next = withImage(planned.value, image.value);
  if (!productChanged(row.value, next)) return ok({ row, imageFailed: image.value.kind === "failed" });
  return ok({ row: catalog.saveProduct({ ...next, updated_at: now }), imageFailed: image.value.kind === "failed" });
}

/** Spec, Delete rules: product, soft delete, with its refusals. */
export function deleteProduct(ctx: CatalogContext, id: string): Result<undefined, ApiError> {
  const catalog = ctx.store.catalog;
  const product = catalog.products.live(id);
  if (!product) return fail(notFound("product"));
  if (product.is_gift_card) return fail(apiError("UNPROCESSABLE", "A gift card product cannot be deleted."));
  if (catalog.compositesOf.get(product.id).size > 0) {
    return fail(apiError("CONFLICT", "The product is a component of a composite product."));
  }
  const activeChildren = [...catalog.childrenOf.get(product.id)].filter(
    (child) => catalog.products.live(child)?.active,
  );
  if (activeChildren.length > 0) return fail(apiError("CONFLICT", "The product has active variant children."));
  catalog.deleteProduct(product.id, ctx.now);
  return ok(undefined);
}
