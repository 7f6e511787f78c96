import { type Rng, uuidText } from "../../kernel/random.js";
import { LazyRow, type RowSource } from "../lazy-row.js";
import type { FixtureCatalog, FixtureProduct } from "../../contract/schemas/fixture.js";
import { newProductRecord } from "./product-write.js";
import { variantChild } from "./variants.js";
import type { CategoryRecord, ProductRecord } from "./records.js";
import type { CatalogState, ProductKeys } from "./state.js";

// Builds a store's catalog from fixture data. References are by name (brands, categories, tags,
// suppliers) and by SKU (components); the fixture checker has already refused dangling ones.

export const OTHER_CATEGORY = "Other Products";
export const GIFT_CARD_CATEGORY = "Gift Cards";

/** Spec, Category: a system category (Other Products) and a reserved gift cards category exist in every store. */
export function addSystemCategories(catalog: CatalogState, ids: Rng): void {
  for (const [name, system] of [
    [OTHER_CATEGORY, "other"],
    [GIFT_CARD_CATEGORY, "gift_cards"],
  ] as const) {
    const id = ids.uuid();
    catalog.categories.put(id, { id, name, parent_id: null, depth: 0, system });
    if (system === "other") catalog.otherCategoryId = id;
    else catalog.giftCardCategoryId = id;
  }
}

/** The key under which a fixture catalog may carry products made one at a time (never part of a JSON fixture). */
export const PRODUCT_STREAM = Symbol("product stream");

/**
 * Products made one at a time as the catalog is built, after the catalog's `products`: the large
 * fixture's 100,000, whose fixture documents are garbage as soon as each is made into a record.
 */
export interface ProductStream {
  readonly length: number;
  product(i: number): FixtureProduct;
}

/** A fixture catalog that may carry a product stream besides its `products`. */
export interface WithProductStream {
  readonly [PRODUCT_STREAM]?: ProductStream;
}

/** Stock a fixture gives a product (outlets by name); the world applies it to the store's inventory. */
export type StockFixture = NonNullable<FixtureProduct["stock"]>;

export function buildCatalog(
  catalog: CatalogState,
  spec: FixtureCatalog,
  ids: Rng,
  now: number,
  storeImage: () => string,
  stock: (productId: string, levels: StockFixture) => void,
): void {
  const byName = <T extends { id: string; name: string }>(rows: Iterable<{ value: T }>) =>
    new Map([...rows].map((r) => [r.value.name, r.value.id]));
  for (const brand of spec.brands ?? []) {
    const id = ids.uuid();
    catalog.brands.put(id, { id, name: brand.name, description: brand.description ?? null });
    catalog.brandNames.set(brand.name.toLowerCase(), id);
  }
  for (const category of spec.categories ?? []) {
    const parentId = category.parent === undefined ? undefined : byName(catalog.categories.all()).get(category.parent);
    const parent = parentId === undefined ? undefined : (catalog.categories.live(parentId) as CategoryRecord);
    const id = ids.uuid();
    catalog.categories.put(id, {
      id,
      name: category.name,
      parent_id: parent?.id ?? null,
      depth: parent ? parent.depth + 1 : 0,
      system: null,
    });
    if (parent) catalog.subcategories.add(parent.id, id);
  }
  for (const name of spec.tags ?? []) {
    const id = ids.uuid();
    catalog.tags.put(id, { id, name });
    catalog.tagNames.set(name.toLowerCase(), id);
  }
  for (const name of spec.suppliers ?? []) {
    const id = ids.uuid();
    catalog.suppliers.put(id, { id, name });
  }
  const brands = byName(catalog.brands.all());
  const categories = byName(catalog.categories.all());
  const tags = byName(catalog.tags.all());
  const suppliers = byName(catalog.suppliers.all());
  /** The rows a product's fixture document names, by id: what the catalog's indexes key a product by. */
  const refs = (p: FixtureProduct) => ({
    brand_id: p.brand === undefined ? null : (brands.get(p.brand) ?? null),
    category_id:
      p.category !== undefined
        ? (categories.get(p.category) ?? catalog.otherCategoryId)
        : p.is_gift_card
          ? catalog.giftCardCategoryId
          : catalog.otherCategoryId,
    tag_ids: (p.tags ?? []).flatMap((t) => tags.get(t) ?? []),
    suppliers: (p.suppliers ?? []).flatMap((s) => {
      const supplierId = suppliers.get(s.name);
      return supplierId === undefined
        ? []
        : [{ supplier_id: supplierId, is_primary: s.is_primary ?? false, supplier_code: s.supplier_code ?? null }];
    }),
    components: (p.components ?? []).flatMap((c) => {
      const component = catalog.productBySku(c.sku);
      return component ? [{ product_id: component.id, quantity: c.quantity }] : [];
    }),
  });
  /** A product's record from its fixture document and the ids drawn for it (the same record whenever made). */
  const make = (
    p: FixtureProduct,
    id: string,
    imageId: string | null,
    codeIds: readonly string[],
    attributeIds: readonly string[],
  ): ProductRecord => {
    const base = newProductRecord(id, p.sku, p.name, p.retail_price, now, catalog);
    const named = refs(p);
    return {
      ...base,
      description: p.description ?? null,
      active: p.active ?? true,
      has_inventory: p.has_inventory ?? !p.is_gift_card,
      is_gift_card: p.is_gift_card ?? false,
      has_variants: (p.variant_attributes ?? []).length > 0,
      brand_id: named.brand_id,
      category_id: named.category_id,
      image_id: imageId,
      codes: (p.codes ?? []).map((c, k) => ({ id: codeIds[k] as string, type: c.type, code: c.code })),
      tag_ids: named.tag_ids,
      suppliers: named.suppliers,
      components: named.components,
      variant_attributes: (p.variant_attributes ?? []).map((name, k) => ({
        id: attributeIds[k] as string,
        name,
        position: k + 1,
      })),
    };
  };
  for (const p of spec.products ?? []) {
    // Ids in the order the record's fields were once written: the product's, its image's, its codes', its attributes'.
    const id = ids.uuid();
    const imageId = p.image ? storeImage() : null;
    const codeIds = (p.codes ?? []).map(() => ids.uuid());
    const product = make(
      p,
      id,
      imageId,
      codeIds,
      (p.variant_attributes ?? []).map(() => ids.uuid()),
    );
    catalog.saveProduct(product);
    if (p.stock) stock(product.id, p.stock);
    addFixtureVariants(catalog, product, p, ids, now, stock);
  }
  const stream = (spec as WithProductStream)[PRODUCT_STREAM];
  if (stream)
    addProductStream(
      catalog,
      stream,
      ids,
      make,
      (p, id) => ({ id, sku: p.sku, variant_parent_id: null, ...refs(p) }),
      stock,
    );
}

/**
 * The stream's products, each record made on its first read (`LazyRow`): the build indexes the product
 * by the rows it names (the fields of its record the indexes key it by, not the record) and keeps the
 * row with the words of its code's id. A stream product is plain:
 * at most one code, no image, variants or components (those need more than the words kept).
 */
function addProductStream(
  catalog: CatalogState,
  stream: ProductStream,
  ids: Rng,
  make: (p: FixtureProduct, id: string, imageId: null, codeIds: readonly string[], attributeIds: []) => ProductRecord,
  keys: (p: FixtureProduct, id: string) => ProductKeys,
  stock: (productId: string, levels: StockFixture) => void,
): void {
  const words = new Uint32Array(stream.length * 4);
  const codeIds = (p: FixtureProduct, i: number) =>
    (p.codes ?? []).length === 0
      ? []
      : [
          uuidText(
            words[i * 4] as number,
            words[i * 4 + 1] as number,
            words[i * 4 + 2] as number,
            words[i * 4 + 3] as number,
          ),
        ];
  const source: RowSource<ProductRecord> = {
    make: (i, id) => {
      const p = stream.product(i);
      return make(p, id, null, codeIds(p, i), []);
    },
  };
  for (let i = 0; i < stream.length; i++) {
    const p = stream.product(i);
    if (
      p.image ||
      p.variants?.length ||
      p.variant_attributes?.length ||
      p.components?.length ||
      (p.codes?.length ?? 0) > 1
    )
      throw new Error(`fixture product stream: product ${p.sku} is not a plain product`);
    const id = ids.uuid();
    if ((p.codes ?? []).length === 1) for (let k = 0; k < 4; k++) words[i * 4 + k] = ids.next32();
    catalog.insertProduct(new LazyRow(id, source, i), keys(p, id));
    if (p.stock) stock(id, p.stock);
  }
}

function addFixtureVariants(
  catalog: CatalogState,
  parent: ProductRecord,
  spec: FixtureProduct,
  ids: Rng,
  now: number,
  stock: (productId: string, levels: StockFixture) => void,
): void {
  for (const variant of spec.variants ?? []) {
    const options = parent.variant_attributes.map((a, i) => ({ attribute_id: a.id, value: variant.values[i] ?? "" }));
    const child = catalog.saveProduct(
      variantChild(
        parent,
        { id: ids.uuid(), sku: variant.sku, options, active: variant.active, retail_price: variant.retail_price },
        now,
      ),
    );
    if (variant.stock) stock(child.id, variant.stock);
  }
}
