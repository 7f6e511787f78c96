import type { SpecSentence } from "./entry.js";
import { checked, open } from "./entry.js";

// Spec map: the resources after Product (Brand to Tombstone), and States and transitions.

const R = "Resources and their fields";
const C = `${R}: Customer`;
const LEVEL = `${R}: InventoryLevel`;
const SALE = `${R}: Sale`;
const STATES = "States and transitions";

export const resourceMap: readonly SpecSentence[] = [
  checked(`${R}: Brand`, "id, name, description (string or null), version.", "ambient", "catalog.brand-delete"),
  checked(
    `${R}: Category`,
    "id, name, parent_id (uuid or null), depth (integer), version.",
    "ambient",
    "catalog.category-delete-refusals",
  ),
  checked(
    `${R}: Category`,
    "A system category and a reserved gift cards category exist.",
    "catalog.category-delete-refusals",
    "catalog.gift-cards-category-delete",
  ),
  checked(
    `${R}: Category`,
    "Products of a deleted category move to the system category named Other Products.",
    "catalog.category-delete",
    "catalog.category-delete-refusals",
  ),
  open(`${R}: Tag and Supplier`, "Tags have id, name, version in product context.", "ProductTag in a product"),
  open(
    `${R}: Tag and Supplier`,
    "Fields of a tag record and of a supplier record as standalone resources: not shown",
    "Standalone fields",
  ),

  checked(C, "id | uuid", "customers.create-fields", "ambient"),
  checked(C, "customer_group_id | uuid", "customers.create-fields"),
  checked(C, "customer_code | string", "customers.create-fields", "customers.code-conflict"),
  checked(C, "first_name | string", "customers.create-fields"),
  checked(
    C,
    "last_name, company_name, email, phone, mobile, website, gender, tax_id, note | string or null",
    "customers.create-fields",
  ),
  checked(C, "date_of_birth | string YYYY-MM-DD or null", "customers.create-fields"),
  checked(C, "address_1, address_2, city, state, zipcode, country | string or null", "customers.create-fields"),
  checked(C, "custom_field_1 to custom_field_4 | string or null", "customers.create-fields"),
  checked(C, "on_account_limit | integer cents (account credit limit)", "customers.create-fields"),
  checked(C, "enable_loyalty, dont_email, dont_sms | boolean", "customers.create-fields"),
  checked(
    C,
    "do_not_sell_share | boolean; read only; set only through the admin UI or a privacy request",
    "customers.do-not-sell-share-read-only",
  ),
  checked(
    C,
    "is_walk_in | boolean; true for the retailer's single system walk-in customer",
    "customers.walk-in-undeletable",
    "customers.create-fields",
  ),
  checked(C, "created_at, updated_at | date-time", "customers.create-fields", "ambient"),
  checked(C, "version | string", "customers.create-fields", "customers.delete-tombstone"),
  open(`${R}: CustomerGroup`, "id, name, version.", "Customer groups"),
  checked(`${R}: Outlet`, "id, name, timezone (string), status (string), default_tax_id (uuid), version.", "ambient"),
  checked(`${R}: PaymentType`, "id, name, enabled (boolean), version.", "ambient"),
  checked(
    `${R}: AdjustmentReason`,
    "id, name, type (string), is_system (boolean), version.",
    "ambient",
    "inventory.system-reason-refused",
  ),

  checked(
    LEVEL,
    "InventoryLevel (one row per live outlet where the product is stocked)",
    "inventory.outlet-deleted",
    "inventory.set-result",
  ),
  checked(LEVEL, "outlet_id | uuid", "inventory.set-result", "ambient"),
  checked(LEVEL, "on_hand | number, up to 3 decimal places", "inventory.quantity-four-decimals-refused"),
  checked(LEVEL, "reorder_method | string", "inventory.set-result", "ambient"),
  checked(LEVEL, "reorder_point, reorder_amount, reorder_target | number or null", "inventory.set-result", "ambient"),
  checked(LEVEL, "version | string (bigint as string)"),
  checked(`${R}: Stock write result`, "Stock write result (single set)", "inventory.set-result"),
  checked(
    `${R}: Stock write result`,
    "changed (boolean), previous, on_hand, delta (numbers), adjustment_id, movement_id.",
    "inventory.set-result",
  ),
  checked(
    `${R}: InventoryBatchLineResult`,
    "product_id, outlet_id (uuid), changed (boolean or null), previous, on_hand, delta (number or null).",
    "inventory.batch-replay",
    "inventory.batch-sku-matching",
  ),
  checked(
    `${R}: InventoryBatchLineResult`,
    "sku is echoed only when the line was given by sku.",
    "inventory.batch-sku-matching",
    "inventory.batch-replay",
  ),
  checked(
    `${R}: InventoryBatchLineResult`,
    "replayed (boolean) is true only on an idempotency replay.",
    "inventory.batch-replay",
  ),
  checked(`${R}: Identity`, "Identity (GET /me)", "auth.me-identity", "scopes.me-lists-scopes"),
  checked(
    `${R}: Identity`,
    "store_name, domain_prefix (the store prefix), scopes (array of scope names), key with id and name.",
    "auth.me-identity",
    "scopes.me-lists-scopes",
    "ambient",
  ),
  checked(SALE, "Sale (refund is a sale with parent_sale_id set)", "sales.refund-new-version"),
  checked(
    SALE,
    "Known fields: id, status, completed_at, outlet_id, customer_id, parent_sale_id, version, and integer-cent totals",
    "sales.document",
    "ambient",
  ),
  open(
    SALE,
    "The document also contains line items, discounts, adjustments, taxes and payments.",
    "Fields beyond those named",
  ),
  open(SALE, "Fields of the sale document beyond those named: not shown.", "Fields beyond those named"),
  open(SALE, "Fields of the tax record and of the store record: not shown.", "GET /taxes item shape"),
  checked(
    `${R}: Tombstone`,
    "Tombstone (list with include_deleted=true, products and customers only)",
    "catalog.product-delete",
    "customers.delete-tombstone",
    "catalog.taxonomy-deleted-rows",
  ),
  checked(`${R}: Tombstone`, "{id, deleted_at, version}.", "catalog.product-delete", "customers.delete-tombstone"),

  checked(
    STATES,
    "Sale status values: open, completed, partially_refunded, refunded, voided.",
    "sales.document",
    "sales.status-filter",
  ),
  checked(
    STATES,
    "open (a parked sale) is never returned by the list by default and cannot be requested.",
    "sales.status-open-refused",
  ),
  open(STATES, "Transitions: not shown.", "The original after a refund"),
  checked(STATES, "a sale that is refunded later receives a new version and its new status."),
  open(STATES, "Outlet status: values of the string: not shown.", "Outlet status values"),
  checked(STATES, "A deleted outlet rejects stock writes.", "inventory.outlet-deleted"),
  checked(STATES, "Product active: a boolean.", "catalog.product-fields"),
  checked(STATES, "A product can also be soft deleted (hidden, kept for history).", "catalog.product-delete"),
  checked(
    STATES,
    "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately",
  ),
  checked(STATES, "active | no request for 90 days | a never-used key counts from its creation day | expired"),
  checked(
    STATES,
    "Idempotency record: in progress, then stored; stored records lapse after 24 hours",
    "idempotency.concurrent-same-key",
  ),
  checked(
    STATES,
    "Soft deletion: a deleted product, brand, category, tag, supplier or customer is hidden from reads, and its id then answers NOT_FOUND.",
    "catalog.brand-delete",
    "catalog.category-delete",
    "catalog.tag-delete",
    "catalog.supplier-delete",
    "customers.delete-tombstone",
  ),
  checked(
    STATES,
    "Records that referred to it keep working.",
    "catalog.brand-delete",
    "catalog.category-delete",
    "customers.erasure-sales-remain",
  ),
];
