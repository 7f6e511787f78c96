import { iso } from "../../kernel/clock.js";
import type { RawJson } from "../../kernel/raw-json.js";
import type { Brand, Category, Named, Product } from "../../contract/schemas/catalog.js";
import { versionOf, type Row } from "../feed.js";
import { imageUrl } from "./images.js";
import type { BrandRecord, CategoryRecord, NamedRecord, ProductRecord } from "./records.js";
import type { CatalogState } from "./state.js";

// Read documents: every field of the spec's tables, always present.

// rule catalog.product-fields: every Product field of the spec's table, always present, typed by contract/schemas/catalog.ts.
export function productView(catalog: CatalogState, row: Row<ProductRecord>, apiRoot: string): Product {
  const p = row.value;
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    active: p.active,
    is_gift_card: p.is_gift_card,
    has_inventory: p.has_inventory,
    has_variants: p.has_variants,
    variant_parent_id: p.variant_parent_id,
    is_composite: p.components.length > 0,
    brand_id: p.brand_id,
    category_id: p.category_id,
    retail_price: p.retail_price,
    loyalty_amount: p.loyalty_amount,
    sales_account_code: p.sales_account_code,
    purchase_account_code: p.purchase_account_code,
    weight: p.weight,
    length: p.length,
    width: p.width,
    height: p.height,
    weight_unit: p.weight_unit,
    dimension_unit: p.dimension_unit,
    // rule catalog.image-address-not-kept: image_url is the service's own copy, never the address sent.
    image_url: p.image_id === null ? null : imageUrl(apiRoot, p.image_id, "original"),
    image_thumb_url: p.image_id === null ? null : imageUrl(apiRoot, p.image_id, "thumb"),
    codes: p.codes.map((c) => ({ id: c.id, type: c.type, code: c.code })),
    tags: p.tag_ids.map((id) => ({ id, name: catalog.tags.row(id)?.value.name ?? "" })),
    suppliers: p.suppliers.map((s) => ({
      supplier_id: s.supplier_id,
      is_primary: s.is_primary,
      supplier_code: s.supplier_code,
      supplier_name: catalog.suppliers.row(s.supplier_id)?.value.name ?? "",
    })),
    variant_options: p.variant_options.map((o) => ({ attribute_id: o.attribute_id, value: o.value })),
    variant_attributes: p.variant_attributes.map((a) => ({ id: a.id, name: a.name, position: a.position })),
    components: p.components.map((c) => ({ product_id: c.product_id, quantity: c.quantity })),
    created_at: iso(p.created_at),
    updated_at: iso(p.updated_at),
    version: versionOf(row),
  };
}

export const brandView = ({ value: b, seq }: Row<BrandRecord>): Brand => ({
  id: b.id,
  name: b.name,
  description: b.description,
  version: versionOf({ seq }),
});

export const categoryView = ({ value: c, seq }: Row<CategoryRecord>): Category => ({
  id: c.id,
  name: c.name,
  parent_id: c.parent_id,
  depth: c.depth,
  version: versionOf({ seq }),
});

export const namedView = ({ value: n, seq }: Row<NamedRecord>): Named => ({
  id: n.id,
  name: n.name,
  version: versionOf({ seq }),
});

/** The product document as cached JSON (the catalog keeps the cache): serialization is the cost of a read. */
export function productJson(catalog: CatalogState, row: Row<ProductRecord>, apiRoot: string): RawJson<Product> {
  return catalog.productJson.get(row, row.seq, apiRoot, () => productView(catalog, row, apiRoot));
}
