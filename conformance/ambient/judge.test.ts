import { describe, expect, it } from "vitest";
import { judge, type JudgedExchange } from "./judge.js";
import { IdempotencyMemory } from "./replay.js";

// The ambient checks, one sentence each: an answer that keeps the sentence passes, one that breaks it
// fails naming the check; where the spec is silent (spec-choices, "what the ambient checks accept")
// every reasonable answer passes.

const ROOT = "http://api.test";
const BASE = `${ROOT}/acme/v1`;
const RATE = {
  "ratelimit-policy": "120;w=60",
  ratelimit: "limit=120, remaining=119, reset=60",
  "content-type": "application/json; charset=utf-8",
};
const UUID = "3f0c2a36-6d3e-4c1e-9d6c-0e8f4b1a2c3d";
const BRAND = { id: UUID, name: "Acme", description: null, version: "7" };

const answer = (
  method: string,
  path: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  root = ROOT,
): JudgedExchange => ({
  method,
  url: `${root}/acme/v1${path}`,
  apiRoot: root,
  status,
  headers: { ...RATE, ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
const checks = (e: JudgedExchange) => judge(e).map((v) => v.check);

describe("Ambient checks: answers that keep the spec pass", () => {
  it.each([
    ["a brand read", answer("GET", `/brands/${UUID}`, 200, { data: BRAND })],
    [
      "a brand read with a field the spec does not list (later versions only add fields)",
      answer("GET", `/brands/${UUID}`, 200, { data: { ...BRAND, x_extra: 1 } }),
    ],
    ["a create answered 200 instead of 201 (not shown)", answer("POST", "/brands", 200, { data: BRAND })],
    [
      "a timestamp without milliseconds",
      answer("GET", "/customer-groups", 200, { data: [], next_cursor: null, has_more: false }),
    ],
    [
      "a 404 on an unknown path",
      answer("GET", "/nowhere", 404, { error: { code: "NOT_FOUND", message: "Not found." } }),
    ],
    [
      "a 405 for a wrong method (the catalog has no code for it)",
      answer("PUT", "/me", 405, { error: { code: "NOT_FOUND", message: "x" } }),
    ],
    [
      "a 400 with fields",
      answer("GET", "/outlets?limit=0", 400, {
        error: { code: "VALIDATION_FAILED", message: "limit", fields: [{ field: "limit", message: "1 to 200" }] },
      }),
    ],
    ["a 204 without a body", answer("DELETE", `/brands/${UUID}`, 204, "")],
    [
      "a 429 with Retry-After",
      answer("GET", "/me", 429, { error: { code: "RATE_LIMITED", message: "slow down" } }, { "retry-after": "12" }),
    ],
    ["a store of any shape (not shown)", answer("GET", "/store", 200, { data: { anything: true } })],
    [
      "RateLimit fields in another order",
      answer(
        "GET",
        "/outlets",
        200,
        { data: [], next_cursor: null, has_more: false },
        { ratelimit: "reset=3, limit=120, remaining=1" },
      ),
    ],
  ])("%s", (_what, e) => {
    expect(judge(e)).toEqual([]);
  });
});

describe("Ambient checks: answers that break a sentence fail, naming the check", () => {
  it.each([
    [
      "a listed field missing (All listed fields are always present in a read)",
      answer("GET", `/brands/${UUID}`, 200, { data: { id: UUID, name: "Acme", version: "7" } }),
      "ambient.schema",
    ],
    [
      "a nullable field left out instead of null",
      answer("GET", `/brands/${UUID}`, 200, { data: { id: UUID, name: "Acme", version: "7" } }),
      "ambient.schema",
    ],
    [
      "an id that is not a UUID (Ids are UUID strings)",
      answer("GET", `/brands/${UUID}`, 200, { data: { ...BRAND, id: "brand-1" } }),
      "ambient.schema",
    ],
    [
      "money as a decimal (Money is always an integer number of minor units)",
      answer("GET", "/sales", 200, {
        data: [
          {
            id: UUID,
            status: "completed",
            completed_at: "2026-01-01T00:00:00Z",
            outlet_id: UUID,
            customer_id: null,
            parent_sale_id: null,
            version: "1",
            total: 12.5,
            tax_total: 0,
            paid_total: 12.5,
          },
        ],
        next_cursor: null,
        has_more: false,
      }),
      "ambient.schema",
    ],
    [
      "a timestamp with an offset (end in Z)",
      answer("GET", "/sales", 200, {
        data: [
          {
            id: UUID,
            status: "completed",
            completed_at: "2026-01-01T00:00:00+01:00",
            outlet_id: UUID,
            customer_id: null,
            parent_sale_id: null,
            version: "1",
            total: 1,
            tax_total: 0,
            paid_total: 1,
          },
        ],
        next_cursor: null,
        has_more: false,
      }),
      "ambient.schema",
    ],
    ["a single resource without {data}", answer("GET", `/brands/${UUID}`, 200, BRAND), "ambient.schema"],
    [
      "a status the operation cannot give",
      answer("PATCH", `/products/${UUID}`, 412, { error: { code: "STALE_VERSION", message: "x" } }),
      "ambient.status",
    ],
    [
      "HTML instead of JSON",
      answer("GET", "/nowhere", 404, "<html>Not found</html>", { "content-type": "text/html" }),
      "ambient.content-type",
    ],
    ["a body that is not JSON", answer("GET", "/me", 200, "Internal Server Error"), "ambient.json"],
    [
      "a gateway's HTML page for a 502 (a server fault, whatever else it lacks)",
      answer("GET", "/me", 502, "<html>Bad Gateway</html>", { "content-type": "text/html" }),
      "ambient.server-error",
    ],
    [
      "a 500 with the spec's envelope (INTERNAL: a server fault)",
      answer("POST", "/products", 500, { error: { code: "INTERNAL", message: "x" } }),
      "ambient.server-error",
    ],
    ["a 204 with a body", answer("DELETE", `/brands/${UUID}`, 204, "{}"), "ambient.json"],
    [
      "an envelope without message",
      answer("GET", "/nowhere", 404, { error: { code: "NOT_FOUND" } }),
      "ambient.error-code",
    ],
    [
      "a code the spec does not have",
      answer("GET", "/nowhere", 404, { error: { code: "MISSING", message: "x" } }),
      "ambient.error-code",
    ],
    [
      "a code with another status (NOT_FOUND is 404)",
      answer("GET", `/brands/${UUID}`, 410, { error: { code: "NOT_FOUND", message: "x" } }),
      "ambient.error-code",
    ],
    [
      "fields on a problem that is not a field's",
      answer("GET", "/me", 401, {
        error: { code: "UNAUTHORIZED", message: "x", fields: [{ field: "authorization", message: "bad" }] },
      }),
      "ambient.fields",
    ],
    [
      "an empty fields list",
      answer("GET", "/outlets?limit=0", 400, { error: { code: "VALIDATION_FAILED", message: "x", fields: [] } }),
      "ambient.fields",
    ],
    [
      "no rate-limit headers",
      { ...answer("GET", "/me", 200, {}), headers: { "content-type": "application/json" } },
      "ambient.rate-headers",
    ],
    [
      "remaining above limit",
      answer(
        "GET",
        "/outlets",
        200,
        { data: [], next_cursor: null, has_more: false },
        { ratelimit: "limit=120, remaining=121, reset=60" },
      ),
      "ambient.rate-headers",
    ],
    [
      "reset in milliseconds",
      answer(
        "GET",
        "/outlets",
        200,
        { data: [], next_cursor: null, has_more: false },
        { ratelimit: "limit=120, remaining=1, reset=60000" },
      ),
      "ambient.rate-headers",
    ],
    [
      "a 429 without Retry-After",
      answer("GET", "/me", 429, { error: { code: "RATE_LIMITED", message: "x" } }),
      "ambient.retry-after",
    ],
    [
      "a token response with expires_in in milliseconds",
      {
        ...answer("POST", "/oauth/token", 200, {
          access_token: "a",
          refresh_token: "r",
          token_type: "Bearer",
          expires_in: 3600000,
          scope: "catalog:read",
          store_name: "Acme",
          api_base_url: BASE,
        }),
        url: "http://api.test/oauth/token",
      },
      "ambient.schema",
    ],
  ])("%s", (_what, e, check) => {
    expect(checks(e as JudgedExchange)).toContain(check);
  });

  it("paths outside the API (the consent page, the control plane) are not judged", () => {
    expect(
      judge({
        method: "GET",
        url: "http://api.test/oauth/authorize?x=1",
        apiRoot: ROOT,
        status: 200,
        headers: {},
        body: "<html></html>",
      }),
    ).toEqual([]);
    expect(
      judge({ method: "GET", url: "http://api.test/_sim/health", apiRoot: ROOT, status: 200, headers: {}, body: "{}" }),
    ).toEqual([]);
  });

  // Spec, Conventions: "{base_url} = {api_root}/{store_prefix}/v1": an {api_root} may carry a path of its own.
  describe("under an {api_root} with a path before the store prefix, every answer is judged the same", () => {
    const STAGING = "http://api.test/stg/eu";
    const sale = (completed_at: string) => ({
      data: [
        {
          id: UUID,
          status: "completed",
          completed_at,
          outlet_id: UUID,
          customer_id: null,
          parent_sale_id: null,
          version: "1",
          lines: [],
          payments: [],
        },
      ],
      next_cursor: null,
      has_more: false,
    });
    it("a timestamp with an offset fails the schema, as at the host's root", () => {
      const at = (root: string) => checks(answer("GET", "/sales", 200, sale("2026-01-01T00:00:00+01:00"), {}, root));
      expect(at(STAGING)).toEqual(at(ROOT));
      expect(at(STAGING)).toContain("ambient.schema");
    });
    it("missing rate-limit headers and an error without its envelope fail; the token endpoint is {api_root}/oauth/token", () => {
      const bare = { ...answer("GET", `/brands/${UUID}`, 404, "Not Found", {}, STAGING), headers: {} };
      expect(checks(bare)).toEqual(expect.arrayContaining(["ambient.rate-headers"]));
      expect(checks(bare).length).toBeGreaterThan(1);
      const token = {
        method: "POST",
        url: `${STAGING}/oauth/token`,
        apiRoot: STAGING,
        status: 200,
        headers: RATE,
        body: JSON.stringify({ access_token: 1 }),
      };
      expect(checks(token)).toContain("ambient.schema");
    });
    it("a URL outside the {api_root} (another path, another origin) is not judged", () => {
      const outside = (url: string) =>
        judge({ method: "GET", url, apiRoot: STAGING, status: 500, headers: {}, body: "<html>" });
      expect(outside("http://api.test/acme/v1/brands")).toEqual([]);
      expect(outside("http://other.test/stg/eu/acme/v1/brands")).toEqual([]);
      expect(outside(`${STAGING}/acme/v1/brands`).length).toBeGreaterThan(0);
    });
  });
});

describe("Ambient replay check (Limits, Idempotency)", () => {
  const created = { status: 201, headers: {}, json: { data: BRAND } };
  const send = (
    memory: IdempotencyMemory,
    reply: { status: number; headers: Record<string, string>; json: any },
    body = '{"name":"Acme"}',
    token = "t1",
    clock = 0,
  ) =>
    memory.answer({
      token,
      key: "k-1",
      method: "POST",
      url: `${BASE}/brands`,
      body,
      reply,
      ticket: memory.sent(),
      clock,
    });

  it("the first success is the key's outcome; a retry with the same body must replay it with the header, status and data", () => {
    const m = new IdempotencyMemory(ROOT, () => 0);
    expect(send(m, created)).toEqual({ first: true });
    expect(send(m, { ...created, headers: { "idempotent-replayed": "true" } })).toEqual({ first: false });
    expect(send(m, created).violation?.expected).toBe("the first answer replayed (201) with Idempotent-Replayed: true");
    expect(
      send(m, { status: 200, headers: { "idempotent-replayed": "true" }, json: { data: BRAND } }).violation?.expected,
    ).toBe("the same status as the first answer (201)");
    expect(
      send(m, { ...created, headers: { "idempotent-replayed": "true" }, json: { data: { ...BRAND, name: "Other" } } })
        .violation?.expected,
    ).toBe("the same data as the first answer");
  });

  it("another body under the key must answer 422 IDEMPOTENCY_KEY_REUSED; the same document spelled differently is not judged", () => {
    const m = new IdempotencyMemory(ROOT, () => 0);
    send(m, created);
    expect(
      send(m, { status: 422, headers: {}, json: { error: { code: "IDEMPOTENCY_KEY_REUSED" } } }, '{"name":"Other"}')
        .violation,
    ).toBeUndefined();
    expect(send(m, created, '{"name":"Other"}').violation?.expected).toBe(
      "422 IDEMPOTENCY_KEY_REUSED for a different body under a key already used",
    );
    expect(send(m, created, '{ "name" : "Acme" }').violation).toBeUndefined();
  });

  it("keys are per credential, lapse after a day of the target's clock, and a 500 or a 429 is no outcome", () => {
    const m = new IdempotencyMemory(ROOT, () => 0);
    expect(send(m, { status: 500, headers: {}, json: { error: { code: "INTERNAL" } } }).first).toBe(false);
    expect(send(m, created).first).toBe(true);
    expect(send(m, created, '{"name":"Acme"}', "t2").first).toBe(true);
    expect(send(m, { status: 429, headers: {}, json: {} }).violation).toBeUndefined();
    expect(send(m, created, '{"name":"Acme"}', "t1", 24 * 3600).first).toBe(true);
  });

  it("a client error replays the same failure: status and code; the header is not required", () => {
    const m = new IdempotencyMemory(ROOT, () => 0);
    const refused = { status: 409, headers: {}, json: { error: { code: "CONFLICT" } } };
    expect(send(m, refused).first).toBe(false);
    expect(send(m, refused).violation).toBeUndefined();
    expect(send(m, created).violation?.expected).toBe('the same failure as the first answer (409 "CONFLICT")');
  });
});
