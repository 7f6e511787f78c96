// A coverage report as `GET {control_url}/coverage` answers it (docs/interfaces.md, Journal and coverage),
// written by hand for the tests of the reports and the `coverage` command: items of every kind, some never
// met, spec quotes (one carrying markup and quotes, to prove the escaping) and provoke hints.
import type { CoverageItem, CoverageReport } from "../contract/journal.js";

const item = (
  kind: CoverageItem["kind"],
  id: string,
  count: number,
  title: string,
  provoke: string,
  spec?: { section: string; quote: string },
): CoverageItem => ({ kind, id, count, title, provoke, ...(spec ? { spec } : {}) });

const STALE = {
  section: "Endpoints > Product write rules",
  quote: "Sending `version` (or `expected_version`) with an update that no longer matches answers `409 STALE_VERSION`.",
};
const RATE = { section: "Errors", quote: "a rate limit exceeded, or too many image imports running" };
const CURSOR = {
  section: "Endpoints > Pagination and polling rules",
  quote: "An unreadable cursor answers `400 VALIDATION_FAILED` with a `cursor` field error.",
};

/** 6 of 14 items met, never met first; the totals agree with the items. */
export const COVERAGE_FIXTURE: CoverageReport = {
  sandbox: "sb1",
  requests: 37,
  totals: {
    operations: { covered: 3, total: 4, percent: 75 },
    statuses: { covered: 1, total: 3, percent: 33.3 },
    error_codes: { covered: 1, total: 3, percent: 33.3 },
    branches: { covered: 1, total: 4, percent: 25 },
    all: { covered: 6, total: 14, percent: 42.9 },
  },
  items: [
    item("operation", "listOrders", 0, "GET /sales", "GET {base_url}/sales with a key holding sales:read"),
    item("status", "listProducts 429", 0, "429 Too Many Requests", 'POST {control_url}/faults {"status": 429}', RATE),
    item("status", "updateProduct 409", 0, "409 Conflict", "PATCH {base_url}/products/{id} with an old version", STALE),
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
  ],
  unexpected: { "GET 404": 2, "DELETE 405": 1 },
};

/** The fixture with every item met `count` times (and totals at 100%). */
export function fullyCovered(count = 1): CoverageReport {
  const full = (t: { total: number }) => ({ covered: t.total, total: t.total, percent: 100 });
  const t = COVERAGE_FIXTURE.totals;
  return {
    ...COVERAGE_FIXTURE,
    totals: {
      operations: full(t.operations),
      statuses: full(t.statuses),
      error_codes: full(t.error_codes),
      branches: full(t.branches),
      all: full(t.all),
    },
    items: COVERAGE_FIXTURE.items.map((i) => ({ ...i, count: i.count || count })),
    unexpected: {},
  };
}
