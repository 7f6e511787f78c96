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
  // rule catalog.product-limit: a create at the plan's product limit is 402 PRODUCT_LIMIT_REACHED.
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

/** rule catalog.atomic-write: partial update, optional version check, atomic: planned in full, saved only when every part passed. */
export function updateProduct(
  ctx: CatalogContext,
  id: string,
  body: ProductUpdate,
): Result<ProductWriteResult, ApiError> {
  const { store, ids, images, now } = ctx;
  const catalog = store.catalog;
  const row = catalog.products.row(id);
  if (!row || row.deletedAt !== null) return fail(notFound("product"));
  // rule catalog.stale-version: version or expected_version; if both are sent they must agree (engine/versions.ts).
  const current = checkVersion(body, row, "product");
  if (!current.ok) return current;
  const planned = planProduct({ catalog, ids, now }, row.value, body);
  if (!planned.ok) return planned;
  const image = decideImage(images, ids, row.value.image_id, body.image_url, ctx.countImageWrite);
  if (!image.ok) return image;
  const next = withImage(planned.value, image.value);
  if (!productChanged(row.value, next)) return ok({ row, imageFailed: image.value.kind === "failed" });
  // rule catalog.version-rises: a write that changes the product (sub-records too) saves it at the next change sequence: a higher version, at the end of the feed.
  return ok({ row: catalog.saveProduct({ ...next, updated_at: now }), imageFailed: image.value.kind === "failed" });
}

/** rule catalog.product-delete: product, soft delete (a tombstone in include_deleted lists: engine/listing.ts), with its refusals. */
export function deleteProduct(ctx: CatalogContext, id: string): Result<undefined, ApiError> {
  const catalog = ctx.store.catalog;
  const product = catalog.products.live(id);
  // rule catalog.delete-unknown: deleting an unknown (or deleted) product is 404 NOT_FOUND; likewise brands, categories, tags, suppliers (taxonomy.ts).
  if (!product) return fail(notFound("product"));
  // rule catalog.gift-card-delete: a gift card product cannot be deleted: 422 UNPROCESSABLE.
  if (product.is_gift_card) return fail(apiError("UNPROCESSABLE", "A gift card product cannot be deleted."));
  // rule catalog.product-delete-refusals: a component of a composite, or a parent with active variant children, is 409 CONFLICT.
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
