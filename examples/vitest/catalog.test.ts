// catalog.test.ts: each test file makes its own sandbox, so files run in parallel. The SDK under test
// (client.ts here) is given nothing but the sandbox's base URL and a key.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { RetailClient } from "./client.js";
import { control, createSandbox, demo, removeSandbox, type Sandbox } from "./sandbox.js";

let sb: Sandbox;
let client: RetailClient;

beforeAll(async () => {
  sb = await createSandbox({ clock: "manual" });
  const { baseUrl, key } = demo(sb);
  client = new RetailClient(baseUrl, key);
});
afterAll(() => removeSandbox(sb));
// Tests in one file run one after another, so a reset of this file's own sandbox is safe.
beforeEach(() => control(sb, "POST", "/reset", {}));

it("lists the demo store's 15 products in pages of 10", async () => {
  const first = await client.listProducts({ limit: 10 });
  expect([first.data.length, first.has_more]).toEqual([10, true]);
  const second = await client.listProducts({ limit: 10, cursor: first.next_cursor as string });
  expect([second.data.length, second.has_more]).toEqual([5, false]);
  expect(new Set([...first.data, ...second.data].map((p) => p.id)).size).toBe(15);
});

it("creates a brand once: a retry with the same Idempotency-Key is replayed, not written again", async () => {
  const made = await client.createBrand({ name: "Fjord" }, "create-fjord");
  expect(made.replayed).toBe(false);
  expect(made.data).toMatchObject({ name: "Fjord", description: null });
  const retried = await client.createBrand({ name: "Fjord" }, "create-fjord");
  expect(retried).toEqual({ data: made.data, replayed: true });
  expect((await client.listBrands()).map((b) => b.name)).toEqual(["Northwind", "Acme", "Harbour & Co", "Fjord"]);
});
