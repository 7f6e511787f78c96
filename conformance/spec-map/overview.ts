import type { SpecSentence } from "./entry.js";
import { checked } from "./entry.js";

// Spec map: What the service does; Resources and their fields (the general rules, Product and its sub-records).

const W = "What the service does";
const R = "Resources and their fields";
const P = "Resources and their fields: Product";

export const overviewMap: readonly SpecSentence[] = [
  checked(W, "Sales and refunds, read only.", "sales.read-only"),
  // The count itself cannot be confirmed (several paths are not shown); the served description must describe each operation the endpoint table lists.
  checked(W, "The first release has 44 operations.", "openapi.document"),
  checked(
    W,
    "A product is one document.",
    "catalog.product-fields",
    "catalog.read-document-roundtrip",
    "model.catalog",
  ),
  checked(
    W,
    "Reads return the full nested document, and create and update accept the same document.",
    "catalog.product-fields",
    "catalog.read-document-roundtrip",
  ),
  checked(
    W,
    "Money is always an integer number of minor units (cents).",
    "catalog.decimal-money",
    "sales.document",
    "ambient",
  ),
  checked(W, "It is never a decimal.", "catalog.decimal-money"),
  checked(W, "Sales are never deleted."),
  checked(W, "The sale list and a single sale read return the same full sale document."),
  checked(
    W,
    "Every list endpoint pages with a cursor and supports polling for changes",
    "pagination.each-row-once",
    "catalog.feed-model",
  ),
  checked(W, "All requests and responses are JSON.", "ambient"),
  checked(W, "Timestamps are ISO 8601 date-times in UTC and end in Z.", "envelope.timestamps-utc", "ambient"),
  checked(W, "Ids are UUID strings.", "envelope.timestamps-utc", "ambient"),
  checked(W, "GET /openapi.json under the store prefix serves the machine-readable description of the API"),
  checked(W, 'Every success response wraps its payload as {"data": ...}.', "envelope.success-data"),
  checked(W, "List responses add next_cursor and has_more.", "envelope.success-data"),

  checked(
    R,
    "Every resource row carries version, an opaque string that increases with every change to that row.",
    "inventory.level-version-rises",
    "sales.refund-new-version",
  ),
  checked(R, "Use it to detect updates.", "catalog.version-rises", "catalog.feed-model"),
  checked(R, "All listed fields are always present in a read; nullable ones are marked.", "ambient"),
  checked(R, "No resource accepts unknown properties."),

  checked(P, "id | uuid string", "catalog.product-fields", "ambient"),
  checked(P, "sku | string | Set only at create; a sku sent in an update is ignored.", "catalog.create-minimal"),
  checked(P, "name | string | Required on create.", "catalog.create-required"),
  checked(P, "description | string or null", "catalog.product-fields"),
  checked(P, "active | boolean", "catalog.product-fields"),
  checked(P, "is_gift_card | boolean | API-owned; accepted and ignored on write.", "catalog.api-owned-ignored"),
  checked(P, "has_inventory | boolean", "catalog.product-fields", "inventory.not-stock-tracked"),
  checked(
    P,
    "has_variants | boolean | True on a variant parent.",
    "catalog.variants-count",
    "catalog.variants",
    "catalog.variant-attributes",
  ),
  checked(P, "variant_parent_id | uuid or null | Set on a variant child.", "catalog.variants"),
  checked(P, "is_composite | boolean", "catalog.product-fields"),
  checked(P, "brand_id | uuid or null", "catalog.product-fields", "catalog.brand-delete"),
  checked(P, "category_id | uuid", "catalog.product-fields", "catalog.category-delete"),
  checked(P, "retail_price | integer, cents | Required on create.", "catalog.decimal-money"),
  checked(P, "loyalty_amount | integer cents or null", "catalog.product-fields", "catalog.decimal-money"),
  checked(P, "sales_account_code | string or null", "catalog.product-fields"),
  checked(P, "purchase_account_code | string or null", "catalog.product-fields"),
  checked(P, "weight, length, width, height | number or null", "catalog.product-fields"),
  checked(P, "weight_unit, dimension_unit | string or null", "catalog.product-fields"),
  checked(P, "image_url | string or null | On write, an https address to import.", "catalog.image-address-not-kept"),
  checked(P, "image_thumb_url | string or null | API-owned.", "catalog.api-owned-ignored"),
  checked(P, "codes | array of ProductCode | At most 10.", "catalog.cap-codes"),
  checked(P, "tags | array of ProductTag | At most 20.", "catalog.cap-tags"),
  checked(
    P,
    "suppliers | array of ProductSupplier | At most 10. Never carries a supply price.",
    "catalog.cap-suppliers",
    "catalog.product-fields",
  ),
  checked(P, "variant_options | array of ProductVariantOption | On a variant child.", "catalog.variants"),
  checked(
    P,
    "variant_attributes | array of ProductAttribute | On a variant parent; empty on a child or ordinary product. At most 3.",
    "catalog.variants",
    "catalog.product-fields",
    "catalog.variant-attribute-limits",
  ),
  checked(P, "components | array of ProductComponent | At most 50.", "catalog.cap-components"),
  checked(P, "created_at, updated_at | date-time | API-owned.", "catalog.api-owned-ignored", "envelope.timestamps-utc"),
  checked(
    P,
    "version | string | Also changes when a code, tag link, supplier link",
    "catalog.version-rises",
    "catalog.version-on-rename",
  ),
  checked(
    P,
    "ProductCode | id (uuid), type (one of upc, isbn, itf, ean, jan, custom), code (string).",
    "catalog.product-fields",
    "catalog.atomic-write",
    "catalog.collections-replace",
  ),
  checked(
    P,
    "ProductTag | id (the tag's own id; the only field sent on write), name (read only).",
    "catalog.product-fields",
    "catalog.unknown-tag",
  ),
  checked(
    P,
    "ProductSupplier | supplier_id, is_primary (boolean), supplier_code; supplier_name on read.",
    "catalog.product-fields",
    "catalog.collections-replace",
  ),
  checked(
    P,
    "ProductAttribute | id (uuid; variant children reference it as attribute_id)",
    "catalog.variant-attributes",
    "catalog.variant-attribute-limits",
    "catalog.variants",
  ),
  checked(P, "ProductVariantOption | attribute_id (uuid), value (string).", "catalog.variants"),
  checked(
    P,
    "ProductComponent | product_id (uuid), quantity (number).",
    "catalog.product-fields",
    "catalog.collections-replace",
  ),
];
