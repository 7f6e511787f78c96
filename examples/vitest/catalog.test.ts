// Reading and writing the catalog through the SDK, in a sandbox of this file's own.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RetailClient } from "./client.js";
import { createSandbox, type Sandbox } from "./sandbox.js";

let sandbox: Sandbox;
let client: RetailClient;

beforeAll(async () => {
  sandbox = await createSandbox(inject("simUrl"));
  client = new RetailClient(sandbox.baseUrl, sandbox.apiKey);
});
afterAll(() => sandbox.remove());

describe("catalog", () => {
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
});
