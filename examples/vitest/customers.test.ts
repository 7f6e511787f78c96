// Customers through the SDK: create, update at a version, erase; their refusals and their own rate limit
// (spec, Customer, Delete rules, Limits).
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { outcome, type RetailClient } from "./client.js";
import { advance, clientOf, controlOk, createSandbox, removeSandbox, reset, type Sandbox, store } from "./sandbox.js";

let sb: Sandbox;
let api: RetailClient;

beforeAll(async () => {
  sb = await createSandbox();
  api = clientOf(sb);
});
afterAll(() => removeSandbox(sb));
beforeEach(() => reset(sb));

const byCode = async (code: string) =>
  (await api.all<{ id: string; customer_code: string; version: string }>("/customers")).find(
    (c) => c.customer_code === code,
  )!;

it("creates a customer, reads it, updates it at its version; an outdated version answers 409 STALE_VERSION", async () => {
  const made = (
    await api.send("POST", "/customers", {
      body: { first_name: "Frank", customer_code: "FRANK" },
      idempotencyKey: "frank",
    })
  ).data.data;
  expect((await api.send("GET", `/customers/${made.id}`)).data.data.first_name).toBe("Frank");
  const updated = (
    await api.send("PATCH", `/customers/${made.id}`, { body: { city: "Portland", version: made.version } })
  ).data.data;
  expect(updated.city).toBe("Portland");
  expect(
    await outcome(api.send("PATCH", `/customers/${made.id}`, { body: { city: "Salem", version: made.version } })),
  ).toEqual([409, "STALE_VERSION"]);
});

it("refuses a customer_code in use (409 CONFLICT) and an unknown customer group (422 UNPROCESSABLE)", async () => {
  expect(await outcome(api.send("POST", "/customers", { body: { first_name: "A", customer_code: "ALICE" } }))).toEqual([
    409,
    "CONFLICT",
  ]);
  const alice = await byCode("ALICE");
  expect(await outcome(api.send("PATCH", `/customers/${alice.id}`, { body: { customer_code: "BOB" } }))).toEqual([
    409,
    "CONFLICT",
  ]);
  const group = { customer_group_id: "00000000-0000-4000-8000-000000000000" };
  expect(await outcome(api.send("POST", "/customers", { body: { first_name: "A", ...group } }))).toEqual([
    422,
    "UNPROCESSABLE",
  ]);
  expect(await outcome(api.send("PATCH", `/customers/${alice.id}`, { body: group }))).toEqual([422, "UNPROCESSABLE"]);
});

it("a delete erases the customer's details and leaves a tombstone; the walk-in customer cannot be deleted (409)", async () => {
  const dev = await byCode("DEV");
  expect(await outcome(api.send("DELETE", `/customers/${dev.id}`))).toEqual([204]);
  expect(await outcome(api.send("GET", `/customers/${dev.id}`))).toEqual([404, "NOT_FOUND"]);
  const rows = await api.all<{ id: string }>("/customers", { include_deleted: true });
  expect(Object.keys(rows.find((r) => r.id === dev.id)!).sort()).toEqual(["deleted_at", "id", "version"]);
  const stored = await controlOk(sb, "GET", `/stores/${store(sb).prefix}/customers/${dev.id}`);
  expect([stored.first_name, stored.email, stored.deleted_at]).toEqual(["Erased", null, "2026-01-01T00:00:00.000Z"]);
  const walkIn = await byCode("WALKIN");
  expect(await outcome(api.send("DELETE", `/customers/${walkIn.id}`))).toEqual([409, "CONFLICT"]);
});

it("customer groups list and read", async () => {
  const groups = await api.all<{ id: string; name: string }>("/customer-groups");
  expect(groups.length).toBeGreaterThan(0);
  expect((await api.send("GET", `/customer-groups/${groups[0]!.id}`)).data.data.name).toBe(groups[0]!.name);
});

it("30 customer requests a minute per credential; the 31st answers 429 while other lists still answer", async () => {
  for (let n = 0; n < 30; n++)
    expect(await outcome(api.send("GET", "/customers", { query: { limit: 1 } }))).toEqual([200]);
  expect(await outcome(api.send("GET", "/customers", { query: { limit: 1 } }))).toEqual([429, "RATE_LIMITED"]);
  expect(await outcome(api.send("GET", "/products", { query: { limit: 1 } }))).toEqual([200]);
  await advance(sb, 60);
  expect(await outcome(api.send("GET", "/customers", { query: { limit: 1 } }))).toEqual([200]);
});
