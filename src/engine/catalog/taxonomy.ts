import { fail, ok, type Result } from "../../kernel/result.js";
import { apiError, fieldError, notFound, type ApiError } from "../../contract/errors.js";
import type {
  BrandCreate,
  BrandUpdate,
  CategoryCreate,
  CategoryUpdate,
  NamedCreate,
  NamedUpdate,
} from "../../contract/schemas/catalog.js";
import type { Feed, Row } from "../feed.js";
import type { CatalogContext } from "./context.js";
import type { BrandRecord, CategoryRecord, NamedRecord, ProductRecord } from "./records.js";
import type { CatalogState } from "./state.js";

// Brands, categories, tags and suppliers: create, update and delete with the effects and refusals
// of the spec's Delete rules table. Deleting one gives a new version to each affected product.

/** Re-saves each live product of `ids` after `change`: a new version even when only a joined name changed. */
function touchProducts(
  ctx: CatalogContext,
  ids: ReadonlySet<string>,
  change: (p: ProductRecord) => ProductRecord,
): void {
  const catalog = ctx.store.catalog;
  // Copy first: saving re-indexes, which would move the ids inside the set being walked.
  for (const id of [...ids]) {
    const product = catalog.products.live(id);
    if (product) catalog.saveProduct({ ...change(product), updated_at: ctx.now });
  }
}

/** rule catalog.duplicate-name: duplicate names among live rows answer CONFLICT (brands and tags). */
function nameTaken(names: Map<string, string>, name: string, self?: string): boolean {
  const holder = names.get(name.toLowerCase());
  return holder !== undefined && holder !== self;
}

function rename(names: Map<string, string>, id: string, from: string | undefined, to: string): void {
  if (from !== undefined && names.get(from.toLowerCase()) === id) names.delete(from.toLowerCase());
  names.set(to.toLowerCase(), id);
}

function live<T>(feed: Feed<T>, id: string): Result<Row<T>, ApiError> {
  const row = feed.row(id);
  // rule catalog.delete-unknown: an unknown or deleted brand, category, tag or supplier is 404 NOT_FOUND.
  return row && row.deletedAt === null ? ok(row) : fail(notFound());
}

// Brands

export function createBrand(ctx: CatalogContext, body: BrandCreate): Result<Row<BrandRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  if (nameTaken(catalog.brandNames, body.name))
    return fail(fieldError("CONFLICT", "name", "a brand with this name exists"));
  const id = ctx.ids.uuid();
  rename(catalog.brandNames, id, undefined, body.name);
  return ok(catalog.brands.put(id, { id, name: body.name, description: body.description ?? null }));
}

export function updateBrand(ctx: CatalogContext, id: string, body: BrandUpdate): Result<Row<BrandRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(catalog.brands, id);
  if (!found.ok) return found;
  const old = found.value.value;
  if (body.name !== undefined && nameTaken(catalog.brandNames, body.name, old.id))
    return fail(fieldError("CONFLICT", "name", "a brand with this name exists"));
  const next: BrandRecord = {
    ...old,
    name: body.name ?? old.name,
    description: body.description === undefined ? old.description : body.description,
  };
  if (next.name === old.name && next.description === old.description) return ok(found.value);
  rename(catalog.brandNames, old.id, old.name, next.name);
  return ok(catalog.brands.put(old.id, next));
}

/** rule catalog.brand-delete: brand removed; products that used it get a new version and no brand. */
export function deleteBrand(ctx: CatalogContext, id: string): Result<undefined, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(catalog.brands, id);
  if (!found.ok) return found;
  const brand = found.value.value;
  touchProducts(ctx, catalog.byBrand.get(brand.id), (p) => ({ ...p, brand_id: null }));
  catalog.brandNames.delete(brand.name.toLowerCase());
  catalog.brands.markDeleted(brand.id, ctx.now);
  return ok(undefined);
}

// Categories

function parentFor(
  catalog: CatalogState,
  parentId: string | null | undefined,
): Result<CategoryRecord | null, ApiError> {
  if (parentId === undefined || parentId === null) return ok(null);
  const parent = catalog.categories.live(parentId);
  if (!parent) return fail(fieldError("UNPROCESSABLE", "parent_id", "is not a category of this store"));
  if (parent.system === "gift_cards") {
    return fail(fieldError("UNPROCESSABLE", "parent_id", "the gift cards category is reserved"));
  }
  return ok(parent);
}

export function createCategory(ctx: CatalogContext, body: CategoryCreate): Result<Row<CategoryRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  const parent = parentFor(catalog, body.parent_id);
  if (!parent.ok) return parent;
  const id = ctx.ids.uuid();
  const record: CategoryRecord = {
    id,
    name: body.name,
    parent_id: parent.value?.id ?? null,
    depth: parent.value ? parent.value.depth + 1 : 0,
    system: null,
  };
  if (record.parent_id) catalog.subcategories.add(record.parent_id, id);
  return ok(catalog.categories.put(id, record));
}

export function updateCategory(
  ctx: CatalogContext,
  id: string,
  body: CategoryUpdate,
): Result<Row<CategoryRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(catalog.categories, id);
  if (!found.ok) return found;
  const old = found.value.value;
  if (old.system !== null) return fail(apiError("CONFLICT", "A system category cannot be changed."));
  let parent: CategoryRecord | null = old.parent_id === null ? null : (catalog.categories.live(old.parent_id) ?? null);
  if (body.parent_id !== undefined) {
    const wanted = parentFor(catalog, body.parent_id);
    if (!wanted.ok) return wanted;
    // A category cannot move under itself or one of its own subcategories.
    for (
      let up = wanted.value;
      up !== null;
      up = up.parent_id === null ? null : (catalog.categories.live(up.parent_id) ?? null)
    ) {
      if (up.id === old.id)
        return fail(fieldError("CONFLICT", "parent_id", "would make the category its own ancestor"));
    }
    parent = wanted.value;
  }
  const next: CategoryRecord = {
    ...old,
    name: body.name ?? old.name,
    parent_id: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : 0,
  };
  if (next.name === old.name && next.parent_id === old.parent_id) return ok(found.value);
  if (old.parent_id !== next.parent_id) {
    if (old.parent_id) catalog.subcategories.remove(old.parent_id, old.id);
    if (next.parent_id) catalog.subcategories.add(next.parent_id, old.id);
  }
  const row = catalog.categories.put(old.id, next);
  if (next.depth !== old.depth) redepth(catalog, next);
  return ok(row);
}

/** Gives every live descendant its new depth (and so a new version). */
function redepth(catalog: CatalogState, parent: CategoryRecord): void {
  for (const childId of [...catalog.subcategories.get(parent.id)]) {
    const child = catalog.categories.live(childId);
    if (!child) continue;
    const moved = { ...child, depth: parent.depth + 1 };
    catalog.categories.put(child.id, moved);
    redepth(catalog, moved);
  }
}

/** rule catalog.category-delete: category removed, products move to Other Products; system, gift cards and parents refused. */
export function deleteCategory(ctx: CatalogContext, id: string): Result<undefined, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(catalog.categories, id);
  if (!found.ok) return found;
  const category = found.value.value;
  // rule catalog.category-delete-refusals: the system category, or one with live subcategories, is 409 CONFLICT.
  const refused = (message: string, branch: string) => fail({ ...apiError("CONFLICT", message), branch });
  if (category.system === "other")
    return refused("The system category cannot be deleted.", "catalog.category-delete-refusals");
  // rule catalog.gift-cards-category-delete: the reserved gift cards category is 409 CONFLICT too, told apart by its branch.
  if (category.system === "gift_cards")
    return refused("The gift cards category cannot be deleted.", "catalog.gift-cards-category-delete");
  if (catalog.subcategories.get(category.id).size > 0)
    return refused("The category has live subcategories.", "catalog.category-delete-refusals");
  touchProducts(ctx, catalog.byCategory.get(category.id), (p) => ({ ...p, category_id: catalog.otherCategoryId }));
  if (category.parent_id) catalog.subcategories.remove(category.parent_id, category.id);
  catalog.categories.markDeleted(category.id, ctx.now);
  return ok(undefined);
}

// Tags and suppliers: products show their names, so a rename gives each carrying product a new version.

interface NamedKind {
  readonly feed: (c: CatalogState) => Feed<NamedRecord>;
  readonly carriers: (c: CatalogState, id: string) => ReadonlySet<string>;
  readonly detach: (p: ProductRecord, id: string) => ProductRecord;
  /** Live names, when duplicates are refused (tags). */
  readonly names?: (c: CatalogState) => Map<string, string>;
  readonly label: string;
}

export const TAGS: NamedKind = {
  feed: (c) => c.tags,
  carriers: (c, id) => c.byTag.get(id),
  detach: (p, id) => ({ ...p, tag_ids: p.tag_ids.filter((t) => t !== id) }),
  names: (c) => c.tagNames,
  label: "tag",
};

export const SUPPLIERS: NamedKind = {
  feed: (c) => c.suppliers,
  carriers: (c, id) => c.bySupplier.get(id),
  detach: (p, id) => ({ ...p, suppliers: p.suppliers.filter((s) => s.supplier_id !== id) }),
  label: "supplier",
};

export function createNamed(
  ctx: CatalogContext,
  kind: NamedKind,
  body: NamedCreate,
): Result<Row<NamedRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  const names = kind.names?.(catalog);
  if (names && nameTaken(names, body.name))
    return fail(fieldError("CONFLICT", "name", `a ${kind.label} with this name exists`));
  const id = ctx.ids.uuid();
  if (names) rename(names, id, undefined, body.name);
  return ok(kind.feed(catalog).put(id, { id, name: body.name }));
}

export function updateNamed(
  ctx: CatalogContext,
  kind: NamedKind,
  id: string,
  body: NamedUpdate,
): Result<Row<NamedRecord>, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(kind.feed(catalog), id);
  if (!found.ok) return found;
  const old = found.value.value;
  if (body.name === undefined || body.name === old.name) return ok(found.value);
  const names = kind.names?.(catalog);
  if (names && nameTaken(names, body.name, old.id))
    return fail(fieldError("CONFLICT", "name", `a ${kind.label} with this name exists`));
  if (names) rename(names, old.id, old.name, body.name);
  const row = kind.feed(catalog).put(old.id, { ...old, name: body.name });
  // rule catalog.version-on-rename: the version also changes when an attached tag or supplier is renamed.
  touchProducts(ctx, kind.carriers(catalog, old.id), (p) => p);
  return ok(row);
}

/**
 * rule catalog.tag-delete: a tag (or supplier) is removed from every product carrying it, each at a new version.
 * rule catalog.supplier-delete: deleting a supplier detaches it the same way (SUPPLIERS.detach).
 */
export function deleteNamed(ctx: CatalogContext, kind: NamedKind, id: string): Result<undefined, ApiError> {
  const catalog = ctx.store.catalog;
  const found = live(kind.feed(catalog), id);
  if (!found.ok) return found;
  const named = found.value.value;
  touchProducts(ctx, kind.carriers(catalog, named.id), (p) => kind.detach(p, named.id));
  kind.names?.(catalog).delete(named.name.toLowerCase());
  kind.feed(catalog).markDeleted(named.id, ctx.now);
  return ok(undefined);
}
