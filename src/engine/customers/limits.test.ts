// Tests of the customer rate limit and the customer scopes against the spec (retail-api-v1.md): "Limits"
// (customer endpoints: 30 per minute per credential, additional to the general 120; a 429 carries
// Retry-After; every response carries RateLimit-Policy and RateLimit), "Errors" (RATE_LIMITED,
// INSUFFICIENT_SCOPE) and "Scopes" (customers:read views customers; customers:write creates, updates and
// erases; a :write scope satisfies the matching :read); and the recorded choices (docs/spec-choices.md,
// "Limits": fixed 60 s windows opening at the first counted request, a 429 does not count; "Customers": the
// limit counts the /customers routes, not /customer-groups, and their responses announce both policies as
// `RateLimit-Policy: 120;w=60, 30;w=60;comment="customers"` with `RateLimit` for the nearest limit).
// Every test uses a fresh simulator on a manual clock; time only moves through sim.clock.advance.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type CallOptions, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";

const P = "/demo/v1/customers";
const G = "/demo/v1/customer-groups";
const ME = "/demo/v1/me";
const GENERAL_POLICY = "120;w=60";
const CUSTOMER_POLICY = '120;w=60, 30;w=60;comment="customers"';

type Customer = Record<string, unknown> & { id: string; customer_code: string; version: string };

function expectHeaders(reply: Reply, policy: string, value: string): void {
  expect({ policy: reply.headers.get("ratelimit-policy"), value: reply.headers.get("ratelimit") }).toEqual({
    policy,
    value,
  });
}

function expectRateLimited(reply: Reply, retryAfter: number): void {
  expectError(reply, 429, "RATE_LIMITED");
  expect(reply.headers.get("retry-after")).toBe(String(retryAfter));
}

async function repeat(
  sim: Simulator,
  n: number,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply[]> {
  const replies: Reply[] = [];
  for (let i = 0; i < n; i++) replies.push(await call(sim, method, path, options));
  return replies;
}

/** A customer by code, read with a key that is not used by the test's counting (the `read` key). */
async function byCode(sim: Simulator, code: string): Promise<Customer> {
  const reply = await call(sim, "GET", `${P}?limit=200`, { key: "read" });
  expect(reply.status).toBe(200);
  const found = (reply.json.data as Customer[]).find((c) => c.customer_code === code);
  expect(found, `customer ${code}`).toBeDefined();
  return found!;
}

describe("Spec, Limits: customer endpoints, 30 per minute per credential, additional to the general limit", () => {
  it("every /customers route counts (list, read, create, update, delete); a refused create writes nothing", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const dev = await byCode(sim, "DEV");
    const replies = [
      ...(await repeat(sim, 10, "GET", P)),
      ...(await repeat(sim, 10, "GET", `${P}/${bob.id}`)),
      ...(await repeat(sim, 5, "PATCH", `${P}/${bob.id}`, { body: { note: "n" } })),
      await call(sim, "DELETE", `${P}/${dev.id}`),
      ...(await repeat(sim, 4, "POST", P, { body: { first_name: "Counted" } })),
    ];
    expect(replies.map((r) => r.status)).toEqual([...Array(25).fill(200), 204, 201, 201, 201, 201]);
    expect(replies[29]!.headers.get("ratelimit")).toBe("limit=30, remaining=0, reset=60");
    const before = (await call(sim, "GET", `${P}?limit=200`, { key: "read" })).json.data;
    expectRateLimited(await call(sim, "POST", P, { body: { first_name: "Refused" } }), 60);
    expectRateLimited(await call(sim, "PATCH", `${P}/${bob.id}`, { body: { note: "refused" } }), 60);
    expect((await call(sim, "GET", `${P}?limit=200`, { key: "read" })).json.data).toStrictEqual(before);
  });

  it("requests that fail still count: 30 reads of an unknown id (404) use up the window", async () => {
    const sim = makeSim();
    const missing = await repeat(sim, 30, "GET", `${P}/00000000-0000-4000-8000-000000000abc`);
    expect(missing.map((r) => r.status)).toEqual(Array(30).fill(404));
    expectRateLimited(await call(sim, "GET", P), 60);
  });

  it("Choices: /customer-groups is not a customer endpoint; it still works, under the general policy only", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", P);
    expectRateLimited(await call(sim, "GET", P), 60);
    const groups = await call(sim, "GET", G);
    expect(groups.status).toBe(200);
    expect(groups.headers.get("ratelimit-policy")).toBe(GENERAL_POLICY);
    expect(groups.headers.get("ratelimit")).toMatch(/^limit=120, remaining=\d+, reset=60$/);
    // And requests to it do not use up the customer window.
    const fresh = makeSim();
    await repeat(fresh, 40, "GET", G);
    const customers = await call(fresh, "GET", P);
    expect(customers.status).toBe(200);
    expectHeaders(customers, CUSTOMER_POLICY, "limit=30, remaining=29, reset=60");
  });

  it("the window ends 60 s after its first request: at 59 s the 429 stays (Retry-After 1), at 60 s a new window opens", async () => {
    const sim = makeSim();
    await repeat(sim, 30, "GET", P);
    sim.clock.advance(59);
    const still = await call(sim, "GET", P);
    expectRateLimited(still, 1);
    expectHeaders(still, CUSTOMER_POLICY, "limit=30, remaining=0, reset=1");
    sim.clock.advance(1);
    const again = await call(sim, "GET", P);
    expect(again.status).toBe(200);
    expectHeaders(again, CUSTOMER_POLICY, "limit=30, remaining=29, reset=60");
    const rest = await repeat(sim, 29, "GET", P);
    expect(rest.map((r) => r.status)).toEqual(Array(29).fill(200));
    expectRateLimited(await call(sim, "GET", P), 60);
  });

  it("reset and Retry-After count down with the clock: a window opened 20 s earlier answers Retry-After 40", async () => {
    const sim = makeSim();
    await call(sim, "GET", P);
    sim.clock.advance(20);
    const second = await call(sim, "GET", P);
    expectHeaders(second, CUSTOMER_POLICY, "limit=30, remaining=28, reset=40");
    await repeat(sim, 28, "GET", P);
    const refused = await call(sim, "GET", P);
    expectRateLimited(refused, 40);
    sim.clock.advance(40);
    expect((await call(sim, "GET", P)).status).toBe(200);
  });

  it("remaining counts down in both windows: a customer request uses the general window too, and /me uses only the general one", async () => {
    const sim = makeSim();
    await repeat(sim, 10, "GET", ME);
    const first = await call(sim, "GET", P);
    // Customer window 29 left, general 109 left: the customer limit is the nearest.
    expectHeaders(first, CUSTOMER_POLICY, "limit=30, remaining=29, reset=60");
    const me = await call(sim, "GET", ME);
    expectHeaders(me, GENERAL_POLICY, "limit=120, remaining=108, reset=60");
    const second = await call(sim, "GET", P);
    expectHeaders(second, CUSTOMER_POLICY, "limit=30, remaining=28, reset=60");
  });

  it("the general limit still applies: after 100 /me calls the general limit is the nearest and its 120th request ends both", async () => {
    const sim = makeSim();
    await repeat(sim, 100, "GET", ME);
    const first = await call(sim, "GET", P);
    expect(first.status).toBe(200);
    expectHeaders(first, CUSTOMER_POLICY, "limit=120, remaining=19, reset=60");
    const rest = await repeat(sim, 19, "GET", P);
    expect(rest.map((r) => r.status)).toEqual(Array(19).fill(200));
    expectHeaders(rest[18]!, CUSTOMER_POLICY, "limit=120, remaining=0, reset=60");
    // 20 customer requests used: the customer window still has 10, but the general one is spent.
    const refused = await call(sim, "GET", P);
    expectRateLimited(refused, 60);
    expect(refused.headers.get("ratelimit")).toBe("limit=120, remaining=0, reset=60");
    expectRateLimited(await call(sim, "GET", ME), 60);
    // A new minute opens both windows again.
    sim.clock.advance(60);
    expectHeaders(await call(sim, "GET", P), CUSTOMER_POLICY, "limit=30, remaining=29, reset=60");
  });

  it("Choices, Customers (their responses announce both policies): a 429 of the general limit on /customers still carries both", async () => {
    const sim = makeSim();
    await repeat(sim, 120, "GET", ME);
    const refused = await call(sim, "GET", P);
    expectRateLimited(refused, 60);
    expectHeaders(refused, CUSTOMER_POLICY, "limit=120, remaining=0, reset=60");
  });
});

describe("Spec, Scopes: customers:read views customers; customers:write creates, updates and erases, and reads", () => {
  it("customers:read reads the list, a customer, the group list and a group", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    const list = await call(sim, "GET", P, { key: "customers:read" });
    expect(list.status).toBe(200);
    expect((await call(sim, "GET", `${P}/${alice.id}`, { key: "customers:read" })).json).toStrictEqual({ data: alice });
    const groups = await call(sim, "GET", G, { key: "customers:read" });
    expect(groups.status).toBe(200);
    expect((await call(sim, "GET", `${G}/${groups.json.data[0].id}`, { key: "customers:read" })).status).toBe(200);
  });

  it("customers:read cannot create, update or delete: 403 INSUFFICIENT_SCOPE and nothing changes", async () => {
    const sim = makeSim();
    const before = (await call(sim, "GET", `${P}?limit=200`, { key: "read" })).json.data as Customer[];
    const bob = before.find((c) => c.customer_code === "BOB")!;
    expectError(
      await call(sim, "POST", P, { key: "customers:read", body: { first_name: "Nope" } }),
      403,
      "INSUFFICIENT_SCOPE",
    );
    expectError(
      await call(sim, "PATCH", `${P}/${bob.id}`, { key: "customers:read", body: { city: "Nowhere" } }),
      403,
      "INSUFFICIENT_SCOPE",
    );
    expectError(await call(sim, "DELETE", `${P}/${bob.id}`, { key: "customers:read" }), 403, "INSUFFICIENT_SCOPE");
    expect((await call(sim, "GET", `${P}?limit=200`, { key: "read" })).json.data).toStrictEqual(before);
  });

  it("the read key (every read scope) reads customers but cannot write them", async () => {
    const sim = makeSim();
    expect((await call(sim, "GET", P, { key: "read" })).status).toBe(200);
    expectError(await call(sim, "POST", P, { key: "read", body: { first_name: "Nope" } }), 403, "INSUFFICIENT_SCOPE");
  });

  it("customers:write satisfies customers:read: it reads the list, a customer and the groups", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    expect((await call(sim, "GET", P, { key: "customers:write" })).status).toBe(200);
    expect((await call(sim, "GET", `${P}/${alice.id}`, { key: "customers:write" })).json).toStrictEqual({
      data: alice,
    });
    const groups = await call(sim, "GET", G, { key: "customers:write" });
    expect(groups.status).toBe(200);
    expect((await call(sim, "GET", `${G}/${groups.json.data[0].id}`, { key: "customers:write" })).status).toBe(200);
  });

  it("customers:write creates, updates and erases", async () => {
    const sim = makeSim();
    const made = await call(sim, "POST", P, { key: "customers:write", body: { first_name: "Willa" } });
    expect(made.status).toBe(201);
    const id = made.json.data.id as string;
    const patched = await call(sim, "PATCH", `${P}/${id}`, { key: "customers:write", body: { city: "Oslo" } });
    expect(patched.status).toBe(200);
    expect(patched.json.data.city).toBe("Oslo");
    expect((await call(sim, "DELETE", `${P}/${id}`, { key: "customers:write" })).status).toBe(204);
  });

  it.each(["none", "catalog:read", "catalog:write", "inventory:write", "sales:read"])(
    "a key with scope set %s gets 403 INSUFFICIENT_SCOPE on every customer and customer-group route",
    async (key) => {
      const sim = makeSim();
      const bob = await byCode(sim, "BOB");
      const group = (await call(sim, "GET", G, { key: "read" })).json.data[0].id as string;
      expectError(await call(sim, "GET", P, { key }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "GET", `${P}/${bob.id}`, { key }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "POST", P, { key, body: { first_name: "Nope" } }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "PATCH", `${P}/${bob.id}`, { key, body: { city: "x" } }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "DELETE", `${P}/${bob.id}`, { key }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "GET", G, { key }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "GET", `${G}/${group}`, { key }), 403, "INSUFFICIENT_SCOPE");
      expect(errorOf(await call(sim, "GET", P, { key })).code).toBe("INSUFFICIENT_SCOPE");
    },
  );
});
