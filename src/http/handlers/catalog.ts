import { fail, ok, type Result } from "../../kernel/result.js";
import { notFound, type ApiError } from "../../contract/errors.js";
import type { productOperations, taxonomyOperations } from "../../contract/operations/catalog.js";
import type { CatalogContext } from "../../engine/catalog/context.js";
import { createProduct, deleteProduct, updateProduct, type ProductWriteResult } from "../../engine/catalog/products.js";
import type { ProductRecord } from "../../engine/catalog/records.js";
import * as taxonomy from "../../engine/catalog/taxonomy.js";
import { addVariants } from "../../engine/catalog/variants.js";
import { brandView, categoryView, namedView, productJson, productView } from "../../engine/catalog/views.js";
import type { Feed, Row } from "../../engine/feed.js";
import { POLICIES } from "../../engine/limits.js";
import { listing, singleRow } from "../../engine/listing.js";
import { SavedDespite, type HandlerMap, type RequestContext } from "./types.js";

const catalogContext = (ctx: RequestContext): CatalogContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  images: ctx.world.images,
  now: ctx.now,
  countImageWrite: () => ctx.limit(POLICIES.imageWrites),
});

const present = (ctx: RequestContext) => (row: Row<ProductRecord>) => productView(ctx.store.catalog, row, ctx.apiRoot);
/** Reads answer the cached JSON of each row. */
const presentJson = (ctx: RequestContext) => (row: Row<ProductRecord>) =>
  productJson(ctx.store.catalog, row, ctx.apiRoot);

/**
 * Spec, Product write rules 7: a failed image download still saves; the operation declares the 422 that
 * carries it. A saved product answers its cached JSON, as a read does (the same bytes, cached for the
 * reads that follow, and no text made for this one answer).
 */
function productWritten(ctx: RequestContext, result: Result<ProductWriteResult, ApiError>) {
  if (!result.ok) return result;
  const { row, imageFailed } = result.value;
  return ok(imageFailed ? new SavedDespite(present(ctx)(row)) : presentJson(ctx)(row));
}

function readLive<T, O>(feed: Feed<T>, id: string, view: (row: Row<T>) => O): Result<O, ApiError> {
  const row = feed.row(id);
  return row && row.deletedAt === null ? ok(view(row)) : fail(notFound());
}

export const productHandlers = {
  // rule catalog.feed-model: the product list is the catalog's feed, paged by change sequence: each change once, oldest first.
  listProducts: (ctx) => {
    const catalog = ctx.store.catalog;
    const sku = ctx.query.sku;
    // rule catalog.sku-exact-lookup: `sku` is an exact lookup through the SKU index: one row at most, never a scan.
    const match = sku === undefined ? undefined : catalog.productBySku(sku);
    const source =
      sku === undefined
        ? catalog.products
        : singleRow(catalog.products.name, match?.sku === sku ? catalog.products.row(match.id) : undefined);
    return ok(listing(source, presentJson(ctx)));
  },
  createProduct: (ctx) => productWritten(ctx, createProduct(catalogContext(ctx), ctx.body)),
  getProduct: (ctx) => readLive(ctx.store.catalog.products, ctx.params.id, presentJson(ctx)),
  updateProduct: (ctx) => productWritten(ctx, updateProduct(catalogContext(ctx), ctx.params.id, ctx.body)),
  deleteProduct: (ctx) => deleteProduct(catalogContext(ctx), ctx.params.id),
  createVariants: (ctx) => {
    const result = addVariants(catalogContext(ctx), ctx.params.id, ctx.body);
    return result.ok ? ok(result.value.map(present(ctx))) : result;
  },
} satisfies HandlerMap<typeof productOperations>;

const map = <T, O>(result: Result<Row<T>, ApiError>, view: (row: Row<T>) => O): Result<O, ApiError> =>
  result.ok ? ok(view(result.value)) : result;

export const taxonomyHandlers = {
  listBrands: (ctx) => ok(listing(ctx.store.catalog.brands, brandView)),
  createBrand: (ctx) => map(taxonomy.createBrand(catalogContext(ctx), ctx.body), brandView),
  getBrand: (ctx) => readLive(ctx.store.catalog.brands, ctx.params.id, brandView),
  updateBrand: (ctx) => map(taxonomy.updateBrand(catalogContext(ctx), ctx.params.id, ctx.body), brandView),
  deleteBrand: (ctx) => taxonomy.deleteBrand(catalogContext(ctx), ctx.params.id),

  listCategories: (ctx) => ok(listing(ctx.store.catalog.categories, categoryView)),
  createCategory: (ctx) => map(taxonomy.createCategory(catalogContext(ctx), ctx.body), categoryView),
  getCategory: (ctx) => readLive(ctx.store.catalog.categories, ctx.params.id, categoryView),
  updateCategory: (ctx) => map(taxonomy.updateCategory(catalogContext(ctx), ctx.params.id, ctx.body), categoryView),
  deleteCategory: (ctx) => taxonomy.deleteCategory(catalogContext(ctx), ctx.params.id),

  listTags: (ctx) => ok(listing(ctx.store.catalog.tags, namedView)),
  createTag: (ctx) => map(taxonomy.createNamed(catalogContext(ctx), taxonomy.TAGS, ctx.body), namedView),
  getTag: (ctx) => readLive(ctx.store.catalog.tags, ctx.params.id, namedView),
  updateTag: (ctx) => map(taxonomy.updateNamed(catalogContext(ctx), taxonomy.TAGS, ctx.params.id, ctx.body), namedView),
  deleteTag: (ctx) => taxonomy.deleteNamed(catalogContext(ctx), taxonomy.TAGS, ctx.params.id),

  listSuppliers: (ctx) => ok(listing(ctx.store.catalog.suppliers, namedView)),
  createSupplier: (ctx) => map(taxonomy.createNamed(catalogContext(ctx), taxonomy.SUPPLIERS, ctx.body), namedView),
  getSupplier: (ctx) => readLive(ctx.store.catalog.suppliers, ctx.params.id, namedView),
  updateSupplier: (ctx) =>
    map(taxonomy.updateNamed(catalogContext(ctx), taxonomy.SUPPLIERS, ctx.params.id, ctx.body), namedView),
  deleteSupplier: (ctx) => taxonomy.deleteNamed(catalogContext(ctx), taxonomy.SUPPLIERS, ctx.params.id),
} satisfies HandlerMap<typeof taxonomyOperations>;
