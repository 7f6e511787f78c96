// The rule branches a test run can exercise, as data: each named by the id of the conformance rule that
// checks the same behaviour (conformance/rules), tied to a sentence of the spec the conformance suite's
// spec map lists for that rule (conformance/coverage-vocabulary.test.ts holds both), told from an
// exchange by what the request and its answer show, with how to provoke it with the simulator. One
// vocabulary describes the spec on both sides: what a client's run met here, what a server's run checks there.

import { type CoverageBranch, EMPTY_PAGE, fieldNamed, E, PG, ID, A, L, ER } from "./coverage-branch.js";
import { AREA_BRANCHES } from "./coverage-branches-areas.js";
import { STORE_STATE_CODES } from "./operation-errors.js";

export type { BranchExchange, CoverageBranch } from "./coverage-branch.js";

const KEYED_INVENTORY = ["createAdjustment", "stockBatch"];
const STORE_CODES: ReadonlySet<string> = new Set(STORE_STATE_CODES);
const fault = (status: number, code: string) =>
  `POST {control_url}/faults {"method": "...", "path": "...", "status": ${status}, "code": "${code}"}`;

/** Access, limits, idempotency and paging; then the areas' (coverage-branches-areas.ts). */
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
    id: "envelope.non-uuid-id",
    marked: true,
    spec: { section: ER, quote: "NOT_FOUND | 404 | missing, deleted, other store's, non-UUID id, or unknown path" },
    provoke: "GET /products/not-a-uuid",
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
    codeIn: STORE_STATE_CODES,
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
    id: "limits.failed-auth-address",
    marked: true,
    spec: { section: L, quote: "Failed authentication, per network address | 300 per 5 minutes" },
    provoke: "301 requests from one address within 5 minutes, each with another unknown key",
  },
  {
    id: "limits.image-busy",
    marked: true,
    spec: {
      section: L,
      quote:
        "Concurrent image downloads | shared across the API; a busy moment answers 429 RATE_LIMITED with nothing written",
    },
    provoke: 'POST {control_url}/images {"url": "...", "outcome": "busy"}, then write a product with that image_url',
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
    replayed: true,
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
    replayed: true,
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
    queryHas: "cursor",
    when: (x) => x.param("cursor") !== undefined && EMPTY_PAGE.test(x.responseText),
    spec: { section: PG, quote: "An empty page returns next_cursor: null; keep the cursor already held." },
    provoke: "poll a list with the last next_cursor when nothing changed",
  },
  {
    id: "pagination.each-row-once",
    status: 200,
    queryHas: "cursor",
    when: (x) => x.param("cursor") !== undefined && !EMPTY_PAGE.test(x.responseText),
    spec: { section: PG, quote: "cursor is opaque and must be passed back unchanged." },
    provoke: "read a list's second page with its next_cursor",
  },
  {
    id: "pagination.unreadable-cursor",
    status: 400,
    queryHas: "cursor",
    when: (x) => x.param("cursor") !== undefined && fieldNamed(x, "cursor"),
    spec: { section: PG, quote: "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error." },
    provoke: "GET /products?cursor=garbage",
  },
  {
    id: "pagination.include-deleted-desc",
    status: 400,
    queryHas: "include_deleted",
    when: (x) =>
      x.param("include_deleted") === "true" && x.param("order") === "desc" && fieldNamed(x, "include_deleted"),
    spec: {
      section: PG,
      quote: "include_deleted=true works only with order=asc; with desc it answers 400 VALIDATION_FAILED.",
    },
    provoke: "GET /products?include_deleted=true&order=desc",
  },
  {
    id: "pagination.limit-range",
    status: 400,
    queryHas: "limit",
    when: (x) => x.param("limit") !== undefined && fieldNamed(x, "limit"),
    spec: { section: L, quote: "List limit | 1 to 200, default 50" },
    provoke: "GET /products?limit=0 (or 201)",
  },
  {
    id: "pagination.desc-one-page",
    status: 200,
    queryHas: "order",
    when: (x) => x.param("order") === "desc",
    spec: {
      section: PG,
      quote:
        "order=desc returns one first page only: no next_cursor, has_more false, and any cursor is only validated.",
    },
    provoke: "GET /products?order=desc",
  },
  ...AREA_BRANCHES,
];

/** Provoking an error code the catalogue does not name: the fault that answers it. */
export const provokeCode = (status: number, code: string): string => fault(status, code);
