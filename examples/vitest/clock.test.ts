// Time passing, on the sandbox's own clock: it moves only when this file moves it, whatever other files do.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RetailClient, RetailError } from "./client.js";
import { createSandbox, type Sandbox } from "./sandbox.js";

let sandbox: Sandbox;
let client: RetailClient;

beforeAll(async () => {
  sandbox = await createSandbox(inject("simUrl"));
  client = new RetailClient(sandbox.baseUrl, sandbox.apiKey);
});
afterAll(() => sandbox.remove());

describe("the sandbox's clock", () => {
  it("a product updated a day after it was made: updated_at follows the clock, created_at stays", async () => {
    const { now } = await sandbox.control<{ now: string }>("GET", "/clock");
    const product = await client.createProduct({ name: "Mug", retail_price: 1200 });
    expect([product.created_at, product.updated_at]).toEqual([now, now]);
    const later = await sandbox.control<{ now: string }>("POST", "/clock", { advance_seconds: 86_400 });
    const updated = await client.updateProduct(product.id, { version: product.version, retail_price: 1500 });
    expect([updated.created_at, updated.updated_at, updated.retail_price]).toEqual([now, later.now, 1500]);
  });

  it("an Idempotency-Key is remembered 24 hours: reused for another body it is refused, a day later it writes", async () => {
    await client.createBrand({ name: "Tide" }, "brand-key");
    const reused = await client.createBrand({ name: "Ebb" }, "brand-key").catch((error: unknown) => error);
    expect(reused).toBeInstanceOf(RetailError);
    expect([(reused as RetailError).status, (reused as RetailError).code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
    await sandbox.control("POST", "/clock", { advance_seconds: 24 * 3600 + 1 });
    const written = await client.createBrand({ name: "Ebb" }, "brand-key");
    expect([written.data.name, written.replayed]).toEqual(["Ebb", false]);
  });
});
