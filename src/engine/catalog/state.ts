import { JsonCache } from "../../kernel/raw-json.js";
import { DEFAULT_CAPS } from "../caps.js";
import type { Feed, Row } from "../feed.js";
import type { BrandRecord, CategoryRecord, NamedRecord, ProductRecord } from "./records.js";

/**
 * Ids of one kind grouped by a key: which live products carry a tag, use a brand, and so on. A key's ids
 * are kept in an array while they are only added to (a build adds 100,000 products, and a Set grows far
 * more slowly than an array), and become a Set, in the same order and without repeats, when the key is
 * first read or has an id removed.
 */
export class MultiIndex {
  private readonly map = new Map<string, Set<string> | string[]>();

  add(key: string, id: string): void {
    const ids = this.map.get(key);
    if (ids === undefined) this.map.set(key, [id]);
    else if (Array.isArray(ids)) ids.push(id);
    else ids.add(id);
  }

  remove(key: string, id: string): void {
    const set = this.set(key);
    if (!set) return;
    set.delete(id);
    if (set.size === 0) this.map.delete(key);
  }

  get(key: string): ReadonlySet<string> {
    return this.set(key) ?? EMPTY;
  }

  /** Every key with its ids, in the order they were added (snapshots; `add` them back in this order). */
  entries(): [string, string[]][] {
    return [...this.map].map(([key, ids]) => [key, [...(Array.isArray(ids) ? new Set(ids) : ids)]]);
  }

  private set(key: string): Set<string> | undefined {
    const ids = this.map.get(key);
    if (!Array.isArray(ids)) return ids;
    const set = new Set(ids);
    this.map.set(key, set);
    return set;
  }
}
const EMPTY: ReadonlySet<string> = new Set();

/** The fields of a product's record that the catalog's indexes key it by. */
export type ProductKeys = Pick<
  ProductRecord,
  "id" | "sku" | "tag_ids" | "suppliers" | "components" | "brand_id" | "category_id" | "variant_parent_id"
>;

/** The catalog of one store, with reverse indexes kept in step with every write of a live product. */
export class CatalogState {
  readonly products: Feed<ProductRecord>;
  readonly brands: Feed<BrandRecord>;
  readonly categories: Feed<CategoryRecord>;
  readonly tags: Feed<NamedRecord>;
  readonly suppliers: Feed<NamedRecord>;

  /** Live products by lower-case SKU: SKUs are unique among live products regardless of case. */
  readonly skuIndex = new Map<string, string>();
  readonly byTag = new MultiIndex();
  readonly bySupplier = new MultiIndex();
  readonly byBrand = new MultiIndex();
  readonly byCategory = new MultiIndex();
  /** Live composites by the component product they use. */
  readonly compositesOf = new MultiIndex();
  /** Live variant children by parent. */
  readonly childrenOf = new MultiIndex();
  /** Live subcategories by parent category. */
  readonly subcategories = new MultiIndex();
  /** Live brands and tags by lower-case name (duplicate names answer CONFLICT). */
  readonly brandNames = new Map<string, string>();
  readonly tagNames = new Map<string, string>();
  /**
   * Product rows' JSON text by version and the API root of their image URLs: serialization, not lookup,
   * is the cost of a read (docs/performance.md, Reads and pages). At most `rowCache` rows:
   * reading a whole large feed cannot grow memory.
   */
  readonly productJson: JsonCache<Row<ProductRecord>>;
  liveProducts = 0;
  otherCategoryId = "";
  giftCardCategoryId = "";

  constructor(feed: <T>(list: string) => Feed<T>, rowCache: number = DEFAULT_CAPS.rowCache) {
    this.productJson = new JsonCache(rowCache);
    this.products = feed("products");
    this.brands = feed("brands");
    this.categories = feed("categories");
    this.tags = feed("tags");
    this.suppliers = feed("suppliers");
  }

  /** Commits a product (new or changed): a new version, and the indexes moved from the old value. */
  saveProduct(record: ProductRecord): Row<ProductRecord> {
    const old = this.products.live(record.id);
    if (old) this.unindex(old);
    else this.liveProducts += 1;
    this.index(record);
    return this.products.put(record.id, record);
  }

  /**
   * A new product whose row makes its record on first read (`LazyRow`): indexed by `keys`, those fields
   * of the record the row will make. No row may have its id yet.
   */
  insertProduct(row: Row<ProductRecord>, keys: ProductKeys): Row<ProductRecord> {
    this.liveProducts += 1;
    this.index(keys);
    return this.products.insert(row, []);
  }

  deleteProduct(id: string, at: number): Row<ProductRecord> | undefined {
    const old = this.products.live(id);
    if (!old) return undefined;
    this.unindex(old);
    this.liveProducts -= 1;
    return this.products.markDeleted(id, at);
  }

  /**
   * After a snapshot restore: the live products' indexes, rebuilt in change order. Every save re-indexes
   * its product, so each index holds its products in the order of their latest change, as here.
   */
  reindexProducts(): void {
    for (const row of this.products.all()) {
      if (row.deletedAt !== null) continue;
      this.index(row.value);
      this.liveProducts += 1;
    }
  }

  productBySku(sku: string): ProductRecord | undefined {
    const id = this.skuIndex.get(sku.toLowerCase());
    return id === undefined ? undefined : this.products.live(id);
  }

  private index(p: ProductKeys): void {
    this.skuIndex.set(p.sku.toLowerCase(), p.id);
    for (const t of p.tag_ids) this.byTag.add(t, p.id);
    for (const s of p.suppliers) this.bySupplier.add(s.supplier_id, p.id);
    for (const c of p.components) this.compositesOf.add(c.product_id, p.id);
    if (p.brand_id) this.byBrand.add(p.brand_id, p.id);
    this.byCategory.add(p.category_id, p.id);
    if (p.variant_parent_id) this.childrenOf.add(p.variant_parent_id, p.id);
  }

  private unindex(p: ProductRecord): void {
    if (this.skuIndex.get(p.sku.toLowerCase()) === p.id) this.skuIndex.delete(p.sku.toLowerCase());
    for (const t of p.tag_ids) this.byTag.remove(t, p.id);
    for (const s of p.suppliers) this.bySupplier.remove(s.supplier_id, p.id);
    for (const c of p.components) this.compositesOf.remove(c.product_id, p.id);
    if (p.brand_id) this.byBrand.remove(p.brand_id, p.id);
    this.byCategory.remove(p.category_id, p.id);
    if (p.variant_parent_id) this.childrenOf.remove(p.variant_parent_id, p.id);
  }
}
