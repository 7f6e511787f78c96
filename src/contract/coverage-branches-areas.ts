// The rule branches of the spec's areas (catalog, customers, inventory, sales) and of the OAuth flow:
// part of the coverage catalogue, coverage-branches.ts.
import { type CoverageBranch, E, PW, DR, IR, SR, PG, A, ER, fieldNamed, L } from "./coverage-branch.js";

const PRODUCT_WRITES = ["createProduct", "updateProduct"];
const LISTS_WITH_TOMBSTONES = ["listProducts", "listCustomers"];
const DELETES = ["deleteProduct", "deleteBrand", "deleteCategory", "deleteTag", "deleteSupplier", "deleteCustomer"];
const BATCH = ["stockBatch"];
const NAMED_WRITES = ["createBrand", "updateBrand", "createTag", "updateTag"];
/** A date-time with a UTC offset (`+01:00`, `-0500`) rather than `Z`. */
const OFFSET = /[+-]\d\d:?\d\d$/;
/** A product write refused for one of its collections' caps (spec, Errors: UNPROCESSABLE "cap exceeded"). */
function cap(id: string, collection: string, quote: string, provoke: string): CoverageBranch {
  const field = new RegExp(`"field":"${collection}(\\.\\d+)?"`);
  return {
    id,
    operations: PRODUCT_WRITES,
    code: "UNPROCESSABLE",
    when: (x) => field.test(x.responseText),
    spec: { section: "Resources and their fields: Product", quote },
    provoke,
  };
}

export const AREA_BRANCHES: readonly CoverageBranch[] = [
  {
    id: "catalog.product-delete",
    operations: LISTS_WITH_TOMBSTONES.slice(0, 1),
    status: 200,
    queryHas: "include_deleted",
    when: (x) => x.param("include_deleted") === "true" && x.responseText.includes('"deleted_at"'),
    spec: { section: "Resources and their fields: Tombstone", quote: "{id, deleted_at, version}." },
    provoke: "DELETE /products/{id}, then GET /products?include_deleted=true",
  },
  {
    id: "customers.delete-tombstone",
    operations: LISTS_WITH_TOMBSTONES.slice(1),
    status: 200,
    queryHas: "include_deleted",
    when: (x) => x.param("include_deleted") === "true" && x.responseText.includes('"deleted_at"'),
    spec: {
      section: PG,
      quote:
        "On products and customers deleted rows are tombstones; on other lists deleted rows return in normal shape with no marker.",
    },
    provoke: "DELETE /customers/{id}, then GET /customers?include_deleted=true",
  },
  {
    id: "catalog.stale-version",
    operations: ["updateProduct"],
    code: "STALE_VERSION",
    spec: {
      section: PW,
      quote: "Sending version (or expected_version) with an update that no longer matches answers 409 STALE_VERSION.",
    },
    provoke: "PATCH /products/{id} with an old version",
  },
  {
    id: "catalog.sku-conflict",
    operations: ["createProduct"],
    code: "CONFLICT",
    spec: { section: PW, quote: "SKU in use: 409 CONFLICT." },
    provoke: "POST /products with a sku already in use",
  },
  {
    id: "catalog.product-limit",
    code: "PRODUCT_LIMIT_REACHED",
    spec: { section: PW, quote: "Store at its product limit: 402 PRODUCT_LIMIT_REACHED." },
    provoke: 'PATCH {control_url}/stores/{prefix} {"product_limit": 1}, then POST /products',
  },
  {
    id: "catalog.image-fetch-failed",
    operations: PRODUCT_WRITES,
    code: "IMAGE_FETCH_FAILED",
    spec: {
      section: PW,
      quote: "If the download fails, the product is still saved and the response is 422 IMAGE_FETCH_FAILED",
    },
    provoke: 'POST {control_url}/images {"url": "...", "outcome": "fail"}, then write a product with that image_url',
  },
  {
    id: "catalog.gift-card-delete",
    operations: ["deleteProduct"],
    code: "UNPROCESSABLE",
    spec: { section: DR, quote: "product | soft delete | 422 UNPROCESSABLE for a gift card" },
    provoke: "DELETE /products/{id} of a gift card",
  },
  {
    id: "catalog.category-delete-refusals",
    marked: true,
    spec: {
      section: DR,
      quote:
        "category | removed; products move to Other Products | 409 CONFLICT for a system category, the gift cards category",
    },
    provoke: "DELETE /categories/{id} of the system category (Other Products) or of one with live subcategories",
  },
  {
    id: "catalog.gift-cards-category-delete",
    marked: true,
    spec: {
      section: DR,
      quote:
        "category | removed; products move to Other Products | 409 CONFLICT for a system category, the gift cards category",
    },
    provoke: "DELETE /categories/{id} of the gift cards category (Gift Cards)",
  },
  {
    id: "catalog.product-delete-refusals",
    operations: ["deleteProduct"],
    code: "CONFLICT",
    spec: { section: DR, quote: "product | soft delete | 422 UNPROCESSABLE for a gift card" },
    provoke: "DELETE /products/{id} of a component of a composite product, or of a parent with active variant children",
  },
  {
    id: "catalog.duplicate-name",
    operations: NAMED_WRITES,
    code: "CONFLICT",
    spec: { section: ER, quote: "CONFLICT | 409 | collision or rule" },
    provoke: "POST /brands (or /tags) with the name of a live one",
  },
  {
    id: "catalog.unknown-tag",
    operations: PRODUCT_WRITES,
    status: 400,
    when: (x) => /"field":"tags\.\d+\.id"/.test(x.responseText),
    spec: { section: PW, quote: "Unknown tag id: 400." },
    provoke: 'POST /products {"name": "x", "retail_price": 100, "tags": [{"id": "<a uuid no tag has>"}]}',
  },
  {
    id: "catalog.variant-attributes",
    operations: ["updateProduct"],
    code: "CONFLICT",
    when: (x) => fieldNamed(x, "variant_attributes"),
    spec: { section: PW, quote: "variant_attributes can change only while the product has no live variant children" },
    provoke: "PATCH /products/{id} of a variant parent with children, changing its variant_attributes",
  },
  {
    id: "catalog.variants",
    operations: ["createVariants"],
    code: "CONFLICT",
    spec: { section: PW, quote: "A combination that already exists answers 409 CONFLICT." },
    provoke: "POST /products/{id}/variants with the options of an existing child",
  },
  {
    id: "catalog.variant-attribute-limits",
    operations: PRODUCT_WRITES,
    status: 400,
    when: (x) =>
      fieldNamed(x, "variant_attributes") || /"field":"variant_attributes\.\d+\.position"/.test(x.responseText),
    spec: {
      section: ER,
      quote:
        "Cap exceptions: over 3 variant attributes or a position outside 1 to 3 answers 400 VALIDATION_FAILED, not 422.",
    },
    provoke: "POST /products with has_variants true and 4 variant_attributes, or one at position 4",
  },
  {
    id: "catalog.variants-count",
    operations: ["createVariants"],
    status: 400,
    when: (x) => fieldNamed(x, "variants"),
    spec: { section: L, quote: "Variants per request | 200" },
    provoke: 'POST /products/{id}/variants {"variants": []} (or 201 of them)',
  },
  cap("catalog.cap-codes", "codes", "codes | array of ProductCode | At most 10.", "a product write with 11 codes"),
  cap("catalog.cap-tags", "tags", "tags | array of ProductTag | At most 20.", "a product write with 21 distinct tags"),
  cap(
    "catalog.cap-suppliers",
    "suppliers",
    "suppliers | array of ProductSupplier | At most 10. Never carries a supply price.",
    "a product write with 11 distinct suppliers",
  ),
  cap(
    "catalog.cap-components",
    "components",
    "components | array of ProductComponent | At most 50.",
    "a product write with 51 distinct components",
  ),
  {
    id: "catalog.delete-unknown",
    operations: DELETES,
    code: "NOT_FOUND",
    spec: { section: DR, quote: "Deleting an unknown, foreign or already deleted id answers 404 NOT_FOUND." },
    provoke: "DELETE /products/{id} twice",
  },
  {
    id: "customers.walk-in-undeletable",
    operations: ["deleteCustomer"],
    code: "CONFLICT",
    spec: {
      section: "Resources and their fields: Customer",
      quote: "is_walk_in | boolean; true for the retailer's single system walk-in customer",
    },
    provoke: "DELETE /customers/{id} of the walk-in customer",
  },
  {
    id: "customers.erasure",
    operations: ["deleteCustomer"],
    status: 204,
    spec: { section: E, quote: "DELETE | /customers/{id} | customers:write | 204; erases personal details" },
    provoke: "DELETE /customers/{id}",
  },
  {
    id: "customers.code-conflict",
    operations: ["createCustomer", "updateCustomer"],
    code: "CONFLICT",
    spec: { section: ER, quote: "CONFLICT | 409 | collision or rule" },
    provoke: "POST /customers with a customer_code already in use",
  },
  {
    id: "inventory.set-result",
    operations: ["setStock"],
    status: 200,
    when: (x) => x.responseText.includes('"changed":false'),
    spec: { section: IR, quote: "Repeating the same on_hand changes nothing (changed false)." },
    provoke: "PUT /products/{id}/inventory/{outlet_id} twice with the same on_hand",
  },
  {
    id: "inventory.insufficient-stock",
    code: "INSUFFICIENT_STOCK",
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke: "POST /inventory/adjustments taking more than is on hand",
  },
  {
    id: "inventory.not-stock-tracked",
    code: "NOT_STOCK_TRACKED",
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke: "set stock of a product with has_inventory false",
  },
  {
    id: "inventory.system-reason-refused",
    marked: true,
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke: "an adjustment or a stock set with the system reason_id (Stock set via API)",
  },
  {
    id: "inventory.disabled-reason-refused",
    marked: true,
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke:
      'PATCH {control_url}/stores/{prefix}/adjustment-reasons/{id} {"enabled": false}, then an adjustment with that reason_id',
  },
  {
    id: "inventory.batch-pair-once",
    marked: true,
    spec: { section: IR, quote: "A product and outlet pair may appear only once per batch." },
    provoke: "POST /inventory/batch with two lines for the same product and outlet",
  },
  {
    id: "inventory.batch-line-count",
    operations: BATCH,
    status: 400,
    when: (x) => fieldNamed(x, "lines"),
    spec: { section: L, quote: "Batch lines | 100" },
    provoke: 'POST /inventory/batch {"lines": []} (or 101 lines)',
  },
  {
    id: "inventory.reason-direction-mismatch",
    code: "REASON_DIRECTION_MISMATCH",
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke: "a positive adjustment with a reason meant for removals",
  },
  {
    id: "inventory.outlet-deleted",
    code: "OUTLET_DELETED",
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke: "POST {control_url}/stores/{prefix}/outlets, DELETE that outlet, then set stock there",
  },
  {
    id: "inventory.batch-replay",
    operations: BATCH,
    replayed: true,
    when: (x) => x.replayed && x.status < 400,
    spec: { section: IR, quote: "A replayed batch marks every line replayed: true." },
    provoke: "POST /inventory/batch twice with the same Idempotency-Key and body",
  },
  {
    id: "inventory.batch-all-or-nothing",
    operations: BATCH,
    when: (x) => x.status === 400 || x.status === 404 || x.status === 409 || x.status === 422,
    spec: { section: IR, quote: "A batch is all or nothing: a bad line (for example an unknown sku) writes nothing." },
    provoke: "POST /inventory/batch with one line naming an unknown sku",
  },
  {
    id: "sales.status-filter",
    operations: ["listSales"],
    status: 200,
    queryHas: "status",
    when: (x) => x.param("status") !== undefined,
    spec: { section: SR, quote: "status accepts completed, partially_refunded, refunded, voided." },
    provoke: "GET /sales?status=refunded",
  },
  {
    id: "sales.completed-range-filter",
    operations: ["listSales"],
    status: 200,
    queryHas: "completed_",
    when: (x) => x.param("completed_from") !== undefined || x.param("completed_to") !== undefined,
    spec: {
      section: SR,
      quote:
        "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
    },
    provoke: "GET /sales?completed_from=2026-01-01T00:00:00Z",
  },
  {
    id: "sales.status-open-refused",
    operations: ["listSales"],
    status: 400,
    queryHas: "status",
    when: (x) => x.param("status") === "open",
    spec: { section: SR, quote: "status=open answers 400 VALIDATION_FAILED." },
    provoke: "GET /sales?status=open",
  },
  {
    id: "sales.completed-offset-refused",
    operations: ["listSales"],
    status: 400,
    queryHas: "completed_",
    when: (x) =>
      ["completed_from", "completed_to"].some((name) => OFFSET.test(x.param(name) ?? "") && fieldNamed(x, name)),
    spec: {
      section: SR,
      quote:
        "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
    },
    provoke: "GET /sales?completed_from=2026-01-01T00:00:00%2B01:00",
  },
  {
    id: "sales.include-deleted-refused",
    operations: ["listSales"],
    status: 400,
    queryHas: "include_deleted",
    when: (x) => x.param("include_deleted") !== undefined,
    spec: { section: SR, quote: "include_deleted on sales answers 400 VALIDATION_FAILED." },
    provoke: "GET /sales?include_deleted=true",
  },
  {
    id: "oauth.code-exchange",
    operations: ["createToken"],
    status: 200,
    when: (x) => x.form("grant_type") === "authorization_code",
    spec: {
      section: A,
      quote:
        "Step 3: POST {api_root}/oauth/token with form fields grant_type=authorization_code, code, redirect_uri, and code_verifier if PKCE was used.",
    },
    provoke: "POST {control_url}/oauth/authorize for a code, then exchange it at {api_root}/oauth/token",
  },
  {
    id: "oauth.pkce",
    operations: ["createToken"],
    status: 200,
    when: (x) => x.form("code_verifier") !== undefined,
    spec: {
      section: A,
      quote:
        "Step 3: POST {api_root}/oauth/token with form fields grant_type=authorization_code, code, redirect_uri, and code_verifier if PKCE was used.",
    },
    provoke: "authorize with code_challenge (S256), then exchange the code with code_verifier",
  },
  {
    id: "oauth.refresh-no-rotate",
    operations: ["createToken"],
    status: 200,
    when: (x) => x.form("grant_type") === "refresh_token",
    spec: { section: A, quote: "The refresh token does not rotate." },
    provoke: "POST {api_root}/oauth/token grant_type=refresh_token",
  },
  {
    // Either way alone works (200 with HTTP Basic: the body way is every other exchange); both at once are refused.
    id: "oauth.client-credentials-both-ways",
    operations: ["createToken"],
    when: (x) =>
      /^Basic /i.test(x.header("authorization") ?? "") &&
      (x.status === 200 || (x.status >= 400 && x.form("client_secret") !== undefined)),
    spec: {
      section: A,
      quote: "Client credentials are sent as HTTP Basic or as client_id and client_secret in the body, never both.",
    },
    provoke: "a token exchange with Authorization: Basic base64(client_id:client_secret)",
  },
  {
    id: "oauth.code-once",
    operations: ["createToken"],
    code: "invalid_grant",
    spec: { section: A, quote: "A wrong, expired or used code or token answers invalid_grant." },
    provoke: "exchange the same code twice",
  },
  {
    id: "oauth.error-shape",
    operations: ["createToken"],
    code: "invalid_client",
    spec: { section: A, quote: "Bad client credentials answer 401 invalid_client." },
    provoke: "a token exchange with a wrong client_secret",
  },
  {
    id: "oauth.cancel-access-denied",
    operations: ["authorize"],
    when: (x) => /[?&]error=access_denied(&|$)/.test(x.answerHeader("location") ?? ""),
    spec: {
      section: A,
      quote:
        "Step 2: the merchant allows or cancels; the redirect carries code and the echoed state, or error=access_denied.",
    },
    provoke: "cancel on the consent screen ({auth_url}/oauth/authorize)",
  },
];
