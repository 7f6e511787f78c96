// The rule branches a test run can exercise, as data: each named by the id of the conformance rule that
// checks the same behaviour (conformance/rules), tied to a sentence of the spec the conformance suite's
// spec map lists for that rule (conformance/coverage-vocabulary.test.ts holds both), told from an
// exchange by what the request and its answer show, with how to provoke it with the simulator. One
// vocabulary describes the spec on both sides: what a client's run met here, what a server's run checks there.

import { STORE_STATE_CODES } from "./operation-errors.js";

/** What the catalogue reads of one exchange. Texts are the start of each body (the journal's body cap). */
export interface BranchExchange {
  /** The operation id (`updateProduct`), `createToken`, `authorize`; null when no route matched. */
  readonly operation: string | null;
  readonly status: number;
  /** The error code (an envelope's `code`, an OAuth `error`), or null. */
  readonly code: string | null;
  /** True on an idempotent replay (the `Idempotent-Replayed: true` header). */
  readonly replayed: boolean;
  /** A query parameter as sent, decoded; undefined when absent. */
  param(name: string): string | undefined;
  /** A request header (lower-case name). */
  header(name: string): string | undefined;
  /** A response header (lower-case name). */
  answerHeader(name: string): string | undefined;
  /** A form field of the request body (the token endpoint's). */
  form(name: string): string | undefined;
  readonly responseText: string;
}

export interface CoverageBranch {
  /** A conformance rule id. */
  readonly id: string;
  /** Operations it can happen on; every one when absent. */
  readonly operations?: readonly string[];
  readonly status?: number;
  readonly code?: string;
  /** What else the exchange must show. */
  readonly when?: (x: BranchExchange) => boolean;
  /** True when the pipeline names it itself (`ApiError.branch`): no exchange test. */
  readonly marked?: true;
  readonly spec: { readonly section: string; readonly quote: string };
  readonly provoke: string;
}

const PRODUCT_WRITES = ["createProduct", "updateProduct"];
const LISTS_WITH_TOMBSTONES = ["listProducts", "listCustomers"];
const DELETES = ["deleteProduct", "deleteBrand", "deleteCategory", "deleteTag", "deleteSupplier", "deleteCustomer"];
const BATCH = ["stockBatch"];
const KEYED_INVENTORY = ["createAdjustment", "stockBatch"];
const EMPTY_PAGE = /^\{"data":\[\]/;
const STORE_CODES: ReadonlySet<string> = new Set(STORE_STATE_CODES);
const fieldNamed = (x: BranchExchange, field: string) => x.responseText.includes(`"field":"${field}"`);

const E = "Endpoints";
const PW = "Endpoints: Product write rules";
const DR = "Endpoints: Delete rules";
const IR = "Endpoints: Inventory rules";
const SR = "Endpoints: Sales list rules";
const PG = "Endpoints: Pagination and polling rules";
const ID = "Limits: Idempotency";
const A = "Authentication";
const L = "Limits";
const ER = "Errors";

const fault = (status: number, code: string) =>
  `POST {control_url}/faults {"method": "...", "path": "...", "status": ${status}, "code": "${code}"}`;

export const COVERAGE_BRANCHES: readonly CoverageBranch[] = [
  {
    id: "auth.me-identity",
    operations: ["getMe"],
    status: 200,
    spec: { section: E, quote: "GET | /me | none | returns Identity" },
    provoke: "GET /me with any key",
  },
  {
    id: "openapi.document",
    operations: ["getOpenapi"],
    status: 200,
    spec: { section: E, quote: "GET | /openapi.json | unspecified | OpenAPI description" },
    provoke: "GET /openapi.json",
  },
  {
    id: "envelope.unknown-path",
    status: 404,
    when: (x) => x.operation === null,
    spec: { section: ER, quote: "NOT_FOUND | 404 | missing, deleted, other store's, non-UUID id, or unknown path" },
    provoke: "GET {base_url}/no-such-path",
  },
  {
    id: "auth.missing-credential",
    marked: true,
    spec: {
      section: ER,
      quote: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    },
    provoke: "any request without an Authorization header",
  },
  {
    id: "auth.malformed-or-unknown",
    marked: true,
    spec: {
      section: ER,
      quote: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    },
    provoke: "any request with Authorization: Bearer not-a-key",
  },
  {
    id: "auth.revoked-key",
    marked: true,
    spec: { section: A, quote: "A key can be revoked at once." },
    provoke: "POST {control_url}/keys/{id}/revoke, then use the key",
  },
  {
    id: "auth.idle-expiry",
    marked: true,
    spec: { section: A, quote: "A credential idle for 90 days stops working (see States)." },
    provoke: 'POST {control_url}/clock {"advance": "P91D"}, then use the key',
  },
  {
    id: "oauth.token-expiry",
    marked: true,
    spec: { section: A, quote: "An access token lasts 1 hour." },
    provoke: 'POST {control_url}/clock {"advance": "PT61M"}, then use the access token',
  },
  {
    id: "stores.foreign-credential",
    marked: true,
    spec: {
      section: ER,
      quote: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    },
    provoke: "a key of one store on another store's base URL",
  },
  {
    id: "stores.status-codes",
    when: (x) => x.code !== null && STORE_CODES.has(x.code),
    spec: { section: ER, quote: "PLAN_REQUIRED | 402 | plan lacks API access (needs Growth)" },
    provoke: 'PATCH {control_url}/stores/{prefix} {"plan": "lite"} or {"status": "paused"}',
  },
  {
    id: "scopes.missing-scope",
    code: "INSUFFICIENT_SCOPE",
    spec: {
      section: "Authentication: Scopes",
      quote: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE.",
    },
    provoke: 'POST {control_url}/stores/{prefix}/keys {"scopes": ["catalog:read"]}, then write with it',
  },
  {
    id: "limits.general-429",
    marked: true,
    spec: { section: L, quote: "Requests per credential | 120 per minute" },
    provoke: "121 requests within a minute with one key (a manual clock keeps them in one window)",
  },
  {
    id: "limits.customers-429",
    marked: true,
    spec: { section: L, quote: "Customer endpoints, per credential | 30 per minute, additional to the general limit" },
    provoke: "31 customer requests within a minute with one key",
  },
  {
    id: "limits.image-writes",
    marked: true,
    spec: {
      section: L,
      quote: "Product write including image_url, per credential | 10 per minute; writes without an image do not count",
    },
    provoke: "11 product writes with image_url within a minute",
  },
  {
    id: "limits.failed-auth-429",
    marked: true,
    spec: {
      section: L,
      quote: "Failed authentication (responses 401, 402, 403), per network address and credential | 30 per 5 minutes",
    },
    provoke: "31 requests with an unknown key within 5 minutes",
  },
  {
    id: "limits.token-failures",
    operations: ["createToken"],
    status: 429,
    spec: { section: L, quote: "Token endpoint failures, per network address | 30 per 5 minutes" },
    provoke: "31 refused token exchanges within 5 minutes",
  },
  {
    id: "idempotency.replay",
    when: (x) => x.replayed && x.status < 400,
    spec: {
      section: ID,
      quote:
        "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true.",
    },
    provoke: "send a keyed write twice with the same Idempotency-Key and body",
  },
  {
    id: "idempotency.client-error-replayed",
    when: (x) => x.replayed && x.status >= 400 && x.status < 500,
    spec: { section: ID, quote: "A client error replays the same failure." },
    provoke: "send a refused keyed write twice with the same Idempotency-Key and body",
  },
  {
    id: "idempotency.key-reused",
    code: "IDEMPOTENCY_KEY_REUSED",
    spec: { section: ER, quote: "IDEMPOTENCY_KEY_REUSED | 422 | same key with a different body" },
    provoke: "reuse an Idempotency-Key with a different body",
  },
  {
    id: "idempotency.concurrent-same-key",
    code: "IDEMPOTENCY_IN_PROGRESS",
    spec: {
      section: "States and transitions",
      quote: "Idempotency record: in progress, then stored; stored records lapse after 24 hours",
    },
    provoke: 'POST {control_url}/faults {"hold": true, ...} on a keyed write, then send the same key again',
  },
  {
    id: "idempotency.key-format",
    status: 400,
    when: (x) => x.header("idempotency-key") !== undefined && fieldNamed(x, "Idempotency-Key"),
    spec: {
      section: ER,
      quote: "VALIDATION_FAILED | 400 | body, query parameter (including cursor) or Idempotency-Key header invalid",
    },
    provoke: "a keyed write with Idempotency-Key: 'has spaces'",
  },
  {
    id: "inventory.idempotency-key-required",
    operations: KEYED_INVENTORY,
    status: 400,
    when: (x) => x.header("idempotency-key") === undefined,
    spec: {
      section: ER,
      quote: "A missing Idempotency-Key on a route that requires one answers 400 VALIDATION_FAILED naming the header.",
    },
    provoke: "POST /inventory/batch without an Idempotency-Key",
  },
  {
    id: "pagination.empty-page-null-cursor",
    status: 200,
    when: (x) => x.param("cursor") !== undefined && EMPTY_PAGE.test(x.responseText),
    spec: { section: PG, quote: "An empty page returns next_cursor: null; keep the cursor already held." },
    provoke: "poll a list with the last next_cursor when nothing changed",
  },
  {
    id: "pagination.each-row-once",
    status: 200,
    when: (x) => x.param("cursor") !== undefined && !EMPTY_PAGE.test(x.responseText),
    spec: { section: PG, quote: "cursor is opaque and must be passed back unchanged." },
    provoke: "read a list's second page with its next_cursor",
  },
  {
    id: "pagination.unreadable-cursor",
    status: 400,
    when: (x) => x.param("cursor") !== undefined && fieldNamed(x, "cursor"),
    spec: { section: PG, quote: "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error." },
    provoke: "GET /products?cursor=garbage",
  },
  {
    id: "pagination.desc-one-page",
    status: 200,
    when: (x) => x.param("order") === "desc",
    spec: {
      section: PG,
      quote:
        "order=desc returns one first page only: no next_cursor, has_more false, and any cursor is only validated.",
    },
    provoke: "GET /products?order=desc",
  },
  {
    id: "catalog.product-delete",
    operations: LISTS_WITH_TOMBSTONES.slice(0, 1),
    status: 200,
    when: (x) => x.param("include_deleted") === "true" && x.responseText.includes('"deleted_at"'),
    spec: { section: "Resources and their fields: Tombstone", quote: "{id, deleted_at, version}." },
    provoke: "DELETE /products/{id}, then GET /products?include_deleted=true",
  },
  {
    id: "customers.delete-tombstone",
    operations: LISTS_WITH_TOMBSTONES.slice(1),
    status: 200,
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
    operations: ["deleteCategory"],
    code: "CONFLICT",
    spec: {
      section: DR,
      quote:
        "category | removed; products move to Other Products | 409 CONFLICT for a system category, the gift cards category",
    },
    provoke: "DELETE /categories/{id} of the system category",
  },
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
    code: "REASON_NOT_ALLOWED",
    spec: {
      section: IR,
      quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    },
    provoke:
      "an adjustment with a system reason_id, or one disabled by PUT {control_url}/stores/{prefix}/adjustment-reasons/{id}",
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
    provoke: "DELETE {control_url}/stores/{prefix}/outlets/{id}, then set stock there",
  },
  {
    id: "inventory.batch-replay",
    operations: BATCH,
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
    when: (x) => x.param("status") !== undefined,
    spec: { section: SR, quote: "status accepts completed, partially_refunded, refunded, voided." },
    provoke: "GET /sales?status=refunded",
  },
  {
    id: "sales.completed-range-filter",
    operations: ["listSales"],
    status: 200,
    when: (x) => x.param("completed_from") !== undefined || x.param("completed_to") !== undefined,
    spec: {
      section: SR,
      quote:
        "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
    },
    provoke: "GET /sales?completed_from=2026-01-01T00:00:00Z",
  },
  {
    id: "sales.include-deleted-refused",
    operations: ["listSales"],
    status: 400,
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
    id: "oauth.client-credentials-both-ways",
    operations: ["createToken"],
    status: 200,
    when: (x) => /^Basic /i.test(x.header("authorization") ?? ""),
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

/** Provoking an error code the catalogue does not name: the fault that answers it. */
export const provokeCode = (status: number, code: string): string => fault(status, code);
