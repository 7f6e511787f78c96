// A coverage report as `GET {control_url}/coverage` answers it (docs/interfaces.md, Journal and coverage),
// written by hand for the tests of the reports and the `coverage` command: items of every kind, some never
// met, two only an injected fault produces (one met, one not), spec quotes (one carrying markup and quotes,
// to prove the escaping) and provoke hints.
import type { CoverageItem, CoverageReport } from "../contract/journal.js";

const item = (
  kind: CoverageItem["kind"],
  id: string,
  count: number,
  title: string,
  provoke: string,
  spec?: { section: string; quote: string },
): CoverageItem => ({ kind, id, count, title, provoke, ...(spec ? { spec } : {}) });

const FAULT = 'POST {control_url}/faults {"method": "GET", "path": "/{prefix}/v1/products", "status": 500}';

const STALE = {
  section: "Endpoints > Product write rules",
  quote: "Sending `version` (or `expected_version`) with an update that no longer matches answers `409 STALE_VERSION`.",
};
const RATE = { section: "Errors", quote: "a rate limit exceeded, or too many image imports running" };
const CURSOR = {
  section: "Endpoints > Pagination and polling rules",
  quote: "An unreadable cursor answers `400 VALIDATION_FAILED` with a `cursor` field error.",
};

/**
 * 7 of 16 items met, never met first; the totals agree with the items: the unmet fault-only status is out
 * of the statuses' total, the met fault-only code in the error codes', and the overall percent is the
 * mean of the four kinds' (75 + 33.3 + 50 + 25) / 4 = 45.8, not 7 / 15.
 */
export const COVERAGE_FIXTURE: CoverageReport = {
  sandbox: "sb1",
  requests: 37,
  totals: {
    operations: { covered: 3, total: 4, percent: 75 },
    statuses: { covered: 1, total: 3, percent: 33.3 },
    error_codes: { covered: 2, total: 4, percent: 50 },
    branches: { covered: 1, total: 4, percent: 25 },
    all: { covered: 7, total: 15, percent: 45.8 },
  },
  items: [
    item("operation", "listOrders", 0, "GET /sales", "GET {base_url}/sales with a key holding sales:read"),
    item("status", "listProducts 429", 0, "429 Too Many Requests", 'POST {control_url}/faults {"status": 429}', RATE),
    item("status", "updateProduct 409", 0, "409 Conflict", "PATCH {base_url}/products/{id} with an old version", STALE),
    { ...item("status", "listProducts 500", 0, "500 Internal Server Error", FAULT), reach: "fault" },
    item("error_code", "RATE_LIMITED", 0, "429 RATE_LIMITED", "send more requests than the key's rate limit", RATE),
    item("error_code", "STALE_VERSION", 0, "409 STALE_VERSION", "PATCH a product with an old version", STALE),
    item(
      "branch",
      "catalog.stale-version",
      0,
      "an outdated version is refused",
      "PATCH a product twice with the same version",
      STALE,
    ),
    item("branch", "markup.<script>", 0, "a quote that holds markup", "send <b>&</b> \"quoted\" 'text'", {
      section: 'Errors > <Envelope> & "friends"',
      quote: "<script>alert('x')</script> & \"quoted\"",
    }),
    item(
      "branch",
      "pagination.cursor-expired",
      0,
      "a cursor that no longer reads",
      "GET {base_url}/products?cursor=x",
      CURSOR,
    ),
    item("operation", "createBrand", 4, "POST /brands", 'POST {base_url}/brands {"name": "Fjord"}'),
    item("operation", "listProducts", 21, "GET /products", "GET {base_url}/products"),
    item("operation", "updateProduct", 9, "PATCH /products/{id}", "PATCH {base_url}/products/{id}"),
    item(
      "branch",
      "pagination.cursor-invalid",
      2,
      "an unreadable cursor is refused",
      "GET {base_url}/products?cursor=%%",
      CURSOR,
    ),
    item("status", "listProducts 200", 19, "200 OK", "GET {base_url}/products"),
    item("error_code", "VALIDATION_FAILED", 3, "400 VALIDATION_FAILED", "GET {base_url}/products?limit=0", CURSOR),
    { ...item("error_code", "INTERNAL", 1, "500 INTERNAL", FAULT), reach: "fault" },
  ],
  unexpected: { "GET 404": 2, "DELETE 405": 1 },
};

/** The fixture with every item met `count` times, the fault-only ones too: 4 of 4 of each kind, 100%. */
export function fullyCovered(count = 1): CoverageReport {
  const full = (total: number) => ({ covered: total, total, percent: 100 });
  return {
    ...COVERAGE_FIXTURE,
    totals: { operations: full(4), statuses: full(4), error_codes: full(4), branches: full(4), all: full(16) },
    items: COVERAGE_FIXTURE.items.map((i) => ({ ...i, count: i.count || count })),
    unexpected: {},
  };
}
