import type { SpecSentence } from "../spec-map.js";
import { checked, open, untestable } from "./entry.js";

// Spec map: Endpoints (list parameters, the endpoint table, what is not shown), Product write rules
// and Delete rules.

const E = "Endpoints";
const PW = "Endpoints: Product write rules";
const D = "Endpoints: Delete rules";

export const endpointMap: readonly SpecSentence[] = [
  checked(E, "Common to list endpoints: query limit (integer 1 to 200, default 50), cursor (string), order (asc default, or desc), include_deleted (boolean).", "pagination.limit-range", "pagination.limit-range-and-default", "pagination.each-row-once", "pagination.desc-one-page", "pagination.include-deleted-desc"),
  checked(E, "Response: {data: [...], next_cursor: string or null, has_more: boolean}.", "envelope.success-data", "pagination.each-row-once", "pagination.has-more-exactly-full"),
  checked(E, "Single resources return {data: {...}}.", "envelope.success-data"),
  checked(E, "Deletes return 204 with no body.", "catalog.product-delete", "catalog.brand-delete", "catalog.tag-delete", "customers.delete-tombstone"),

  checked(E, "GET | /me | none | returns Identity", "scopes.scopeless-endpoints", "auth.me-identity"),
  checked(E, "GET | /store | none | returns store settings", "scopes.scopeless-endpoints"),
  checked(E, "GET | /outlets | none | list of Outlet", "scopes.scopeless-endpoints", "pagination.each-row-once"),
  checked(E, "GET | /payment-types | none | list of PaymentType", "scopes.scopeless-endpoints", "pagination.each-row-once"),
  checked(E, "GET | /taxes | none | list of taxes", "scopes.scopeless-endpoints", "pagination.each-row-once"),
  checked(E, "GET | /products | catalog:read | query sku (exact lookup), plus list parameters; returns full product documents", "catalog.sku-exact-lookup", "catalog.product-fields", "catalog.feed-model"),
  checked(E, "POST | /products | catalog:write | product document; returns the product. Optional Idempotency-Key.", "catalog.create-minimal", "idempotency.replay"),
  checked(E, "GET | /products/{id} | catalog:read | returns product document", "catalog.product-fields"),
  checked(E, "PATCH | /products/{id} | catalog:write | partial product document; optional version or expected_version", "catalog.collections-replace", "catalog.stale-version"),
  checked(E, "DELETE | /products/{id} | catalog:write | 204", "catalog.product-delete"),
  checked(E, "POST | /products/{id}/variants | catalog:write |", "catalog.variants", "catalog.variants-count", "idempotency.optional-routes"),
  checked(E, "GET | /products/{id}/inventory | inventory:read | {data: [InventoryLevel]}; not paginated", "inventory.set-result"),
  checked(E, "PUT | /products/{id}/inventory/{outlet_id} | inventory:write |", "inventory.set-result", "inventory.unit-cost-accepted", "inventory.unit-cost-average", "idempotency.optional-routes"),
  checked(E, "POST | /inventory/adjustments | inventory:write |", "inventory.insufficient-stock", "inventory.idempotency-key-required", "inventory.unit-cost-average"),
  checked(E, "POST | /inventory/batch | inventory:write | {lines: [...]}, 1 to 100 lines; Idempotency-Key required", "inventory.batch-line-count", "inventory.idempotency-key-required", "inventory.batch-replay"),
  checked(E, "GET | /inventory/adjustment-reasons | see Authentication | list of AdjustmentReason; not paginated", "inventory.system-reason-refused", "scopes.scopeless-endpoints"),
  checked(E, "GET | /sales | sales:read | query completed_from, completed_to, status, outlet_id, customer_id, parent_sale_id", "sales.completed-range-filter", "sales.status-filter", "sales.outlet-filter", "customers.erasure-sales-remain", "sales.refund-new-version"),
  checked(E, "GET | /sales/{id} | sales:read | returns the full sale document", "sales.document"),
  checked(E, "GET | /customers | customers:read | list of Customer", "customers.delete-tombstone", "customers.walk-in-undeletable"),
  checked(E, "POST | /customers | customers:write | customer document; optional Idempotency-Key", "customers.create-fields", "idempotency.optional-routes"),
  checked(E, "DELETE | /customers/{id} | customers:write | 204; erases personal details", "customers.delete-tombstone", "customers.erasure"),
  checked(E, "GET | /brands/{id}, /categories/{id}, /tags/{id} | catalog:read | single resource", "catalog.duplicate-name", "catalog.category-delete-refusals"),
  checked(E, "POST | create calls for brands, categories, tags, suppliers | catalog:write | resource document; optional Idempotency-Key", "catalog.duplicate-name", "catalog.category-delete-refusals", "idempotency.optional-routes"),
  checked(E, "DELETE | delete calls for brands, categories, tags, suppliers | catalog:write | 204", "catalog.brand-delete", "catalog.category-delete", "catalog.tag-delete", "catalog.supplier-delete"),
  checked(E, "GET | /openapi.json | unspecified | OpenAPI description", "openapi.document"),
  checked(E, "POST | {api_root}/oauth/token (no store prefix) | client credentials | see Authentication", "oauth.code-exchange"),
  untestable(E, "GET | {auth_url}/oauth/authorize | merchant sign-in | see Authentication", "the consent screen is a page where a merchant signs in; the suite cannot sign in as a person and drives the decision headless through a control plane (oauth.* rules)"),
  open(E, "Not shown: the HTTP success status of creates and writes other than the 204 of deletes.", "Success status of creates"),
  open(E, "Not shown: the content of the set and adjust sub-objects of a batch line", "Batch set / adjust objects"),
  open(E, "Not shown: the customer read-by-id and update paths, and the create payloads and list/update paths of brands", "List, read, update paths of brands, categories, tags, suppliers"),
  open(E, "Not shown: paths and shapes of refund endpoints", "Refunds"),
  open(E, "Not shown: response shapes of /store and /taxes.", "GET /store shape"),

  checked(PW, "Create needs only name and retail_price.", "catalog.create-minimal"),
  checked(PW, "The create and update documents match the read document.", "catalog.read-document-roundtrip"),
  checked(PW, "Fields owned by the API (id, created_at, updated_at, image_thumb_url, is_gift_card, variant_options) are accepted and ignored", "catalog.api-owned-ignored", "catalog.read-document-roundtrip"),
  checked(PW, "For each collection (codes, tags, suppliers, variant_attributes, components): key left out means untouched", "catalog.collections-replace", "catalog.variant-attributes"),
  checked(PW, "Replacement items are matched by identity", "catalog.collections-replace", "catalog.variant-attributes"),
  checked(PW, "A whole write is atomic: if any entry is invalid, nothing is saved.", "catalog.atomic-write"),
  checked(PW, "variant_attributes can change only while the product has no live variant children", "catalog.variant-attributes"),
  checked(PW, "Sending version (or expected_version) with an update that no longer matches answers 409 STALE_VERSION.", "catalog.stale-version"),
  checked(PW, "If both are sent they must agree.", "catalog.stale-version"),
  checked(PW, "image_url (https) is downloaded once and stored as the service's own copy; the given address is not kept.", "catalog.image-address-not-kept"),
  checked(PW, "If the download fails, the product is still saved and the response is 422 IMAGE_FETCH_FAILED", "catalog.image-fetch-failed"),
  checked(PW, "Null or omitted image_url leaves the image unchanged; an image cannot be removed.", "catalog.image-null-leaves-image"),
  checked(PW, "Unknown tag id: 400.", "catalog.unknown-tag"),
  checked(PW, "SKU in use: 409 CONFLICT.", "catalog.sku-conflict"),
  checked(PW, "Store at its product limit: 402 PRODUCT_LIMIT_REACHED.", "catalog.product-limit"),
  checked(PW, "Variants: create the parent with has_variants true and its attributes, then add children.", "catalog.variants"),
  checked(PW, "A combination that already exists answers 409 CONFLICT.", "catalog.variants"),
  checked(PW, "Children are ordinary products afterwards.", "catalog.variants"),
  checked(PW, "The call is all or nothing.", "catalog.variants"),

  checked(D, "product | soft delete | 422 UNPROCESSABLE for a gift card", "catalog.product-delete", "catalog.gift-card-delete", "catalog.product-delete-refusals"),
  checked(D, "brand | removed; products that used it get no brand", "catalog.brand-delete"),
  checked(D, "category | removed; products move to Other Products | 409 CONFLICT for a system category, the gift cards category", "catalog.category-delete", "catalog.category-delete-refusals", "catalog.gift-cards-category-delete"),
  checked(D, "tag | removed from every product carrying it", "catalog.tag-delete"),
  checked(D, "supplier | removed from every product carrying it", "catalog.supplier-delete"),
  untestable(D, "a purchase order naming it keeps its reference", "purchase orders are not part of this API: no endpoint reads or writes them"),
  checked(D, "customer | marked deleted; name, email, phone, address and other personal details scrubbed", "customers.erasure", "customers.erasure-sales-remain", "customers.delete-tombstone", "customers.walk-in-undeletable"),
  checked(D, "Deleting a brand, category, tag or supplier gives a new version to each affected product.", "catalog.brand-delete", "catalog.category-delete", "catalog.tag-delete", "catalog.supplier-delete"),
  checked(D, "Deleting an unknown, foreign or already deleted id answers 404 NOT_FOUND.", "catalog.delete-unknown", "catalog.brand-delete", "catalog.product-delete", "isolation.foreign-ids"),
];
