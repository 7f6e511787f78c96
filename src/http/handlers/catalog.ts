import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, notFound, type ApiError } from "../../contract/errors.js";
import type {
  BrandCreate,
  BrandUpdate,
  CategoryCreate,
  CategoryUpdate,
  NamedCreate,
  NamedUpdate,
  ProductCreate,
  ProductUpdate,
  VariantsBody,
} from "../../contract/schemas/catalog.js";
import type { CatalogContext } from "../../engine/catalog/context.js";
import { createProduct, deleteProduct, updateProduct, type ProductWriteResult } from "../../engine/catalog/products.js";
import * as taxonomy from "../../engine/catalog/taxonomy.js";
import { addVariants } from "../../engine/catalog/variants.js";
import { brandView, categoryView, namedView, productJson, productView } from "../../engine/catalog/views.js";
import type { Feed, Row } from "../../engine/feed.js";
import { POLICIES } from "../../engine/limits.js";
import { listFeed, listParams, singleRow, withTombstones } from "../../engine/listing.js";
import type { Handler, HandlerContext } from "./types.js";

const catalogContext = (ctx: HandlerContext): CatalogContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  images: ctx.world.images,
  now: ctx.now,
  countImageWrite: () => ctx.limit(POLICIES.imageWrites),
});

const present = (ctx: HandlerContext) => (row: Row<Parameters<typeof productView>[1]["value"]>) =>
  productView(ctx.store.catalog, row, ctx.apiRoot);
/** Reads answer the cached JSON of each row. */
const presentJson = (ctx: HandlerContext) => (row: Row<Parameters<typeof productView>[1]["value"]>) =>
  productJson(ctx.store.catalog, row, ctx.apiRoot);

/** Spec, Product write rules 7: a failed image download still saves; 422 IMAGE_FETCH_FAILED carries the product. */
function productWritten(ctx: HandlerContext, result: Result<ProductWriteResult, ApiError>): Result<unknown, ApiError> {
  if (!result.ok) return result;
  const view = present(ctx)(result.value.row);
  if (!result.value.imageFailed) return ok(view);
  return fail({
    ...apiError("IMAGE_FETCH_FAILED", "The product was saved, but its image could not be downloaded."),
    data: view,
  });
}

function readLive<T, O>(feed: Feed<T>, id: string, view: (row: Row<T>) => O): Result<O, ApiError> {
  const row = feed.row(id);
  return row && row.deletedAt === null ? ok(view(row)) : fail(notFound());
}

const idOf = (ctx: HandlerContext) => ctx.params.id as string;

export const productHandlers = {
  listProducts: (ctx) => {
    const catalog = ctx.store.catalog;
    const sku = ctx.query.sku as string | undefined;
    // `sku` is an exact lookup through the SKU index: one row at most, never a scan.
    const match = sku === undefined ? undefined : catalog.productBySku(sku);
    const source =
      sku === undefined
        ? catalog.products
        : singleRow(catalog.products.name, match?.sku === sku ? catalog.products.row(match.id) : undefined);
    return listFeed(source, listParams(ctx.query), withTombstones(presentJson(ctx)));
  },
  createProduct: (ctx) => productWritten(ctx, createProduct(catalogContext(ctx), ctx.body as ProductCreate)),
  getProduct: (ctx) => readLive(ctx.store.catalog.products, idOf(ctx), presentJson(ctx)),
  updateProduct: (ctx) => productWritten(ctx, updateProduct(catalogContext(ctx), idOf(ctx), ctx.body as ProductUpdate)),
  deleteProduct: (ctx) => deleteProduct(catalogContext(ctx), idOf(ctx)),
  createVariants: (ctx) => {
    const result = addVariants(catalogContext(ctx), idOf(ctx), ctx.body as VariantsBody);
    return result.ok ? ok(result.value.map(present(ctx))) : result;
  },
} satisfies Record<string, Handler>;

const map = <T, O>(result: Result<Row<T>, ApiError>, view: (row: Row<T>) => O): Result<O, ApiError> =>
  result.ok ? ok(view(result.value)) : result;

export const taxonomyHandlers = {
  listBrands: (ctx) => listFeed(ctx.store.catalog.brands, listParams(ctx.query), brandView),
  createBrand: (ctx) => map(taxonomy.createBrand(catalogContext(ctx), ctx.body as BrandCreate), brandView),
  getBrand: (ctx) => readLive(ctx.store.catalog.brands, idOf(ctx), brandView),
  updateBrand: (ctx) => map(taxonomy.updateBrand(catalogContext(ctx), idOf(ctx), ctx.body as BrandUpdate), brandView),
  deleteBrand: (ctx) => taxonomy.deleteBrand(catalogContext(ctx), idOf(ctx)),

  listCategories: (ctx) => listFeed(ctx.store.catalog.categories, listParams(ctx.query), categoryView),
  createCategory: (ctx) => map(taxonomy.createCategory(catalogContext(ctx), ctx.body as CategoryCreate), categoryView),
  getCategory: (ctx) => readLive(ctx.store.catalog.categories, idOf(ctx), categoryView),
  updateCategory: (ctx) =>
    map(taxonomy.updateCategory(catalogContext(ctx), idOf(ctx), ctx.body as CategoryUpdate), categoryView),
  deleteCategory: (ctx) => taxonomy.deleteCategory(catalogContext(ctx), idOf(ctx)),

  listTags: (ctx) => listFeed(ctx.store.catalog.tags, listParams(ctx.query), namedView),
  createTag: (ctx) => map(taxonomy.createNamed(catalogContext(ctx), taxonomy.TAGS, ctx.body as NamedCreate), namedView),
  getTag: (ctx) => readLive(ctx.store.catalog.tags, idOf(ctx), namedView),
  updateTag: (ctx) =>
    map(taxonomy.updateNamed(catalogContext(ctx), taxonomy.TAGS, idOf(ctx), ctx.body as NamedUpdate), namedView),
  deleteTag: (ctx) => taxonomy.deleteNamed(catalogContext(ctx), taxonomy.TAGS, idOf(ctx)),

  listSuppliers: (ctx) => listFeed(ctx.store.catalog.suppliers, listParams(ctx.query), namedView),
  createSupplier: (ctx) =>
    map(taxonomy.createNamed(catalogContext(ctx), taxonomy.SUPPLIERS, ctx.body as NamedCreate), namedView),
  getSupplier: (ctx) => readLive(ctx.store.catalog.suppliers, idOf(ctx), namedView),
  updateSupplier: (ctx) =>
    map(taxonomy.updateNamed(catalogContext(ctx), taxonomy.SUPPLIERS, idOf(ctx), ctx.body as NamedUpdate), namedView),
  deleteSupplier: (ctx) => taxonomy.deleteNamed(catalogContext(ctx), taxonomy.SUPPLIERS, idOf(ctx)),
} satisfies Record<string, Handler>;
