// Time passing, on the sandbox's own clock: it moves only when this file moves it, whatever other files do.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { RetailClient, RetailError } from "./client.js";
import { control, createSandbox, demo, removeSandbox, type Sandbox } from "./sandbox.js";

let sb: Sandbox;
let client: RetailClient;

beforeAll(async () => {
  sb = await createSandbox({ clock: "manual" });
  const { baseUrl, key } = demo(sb);
  client = new RetailClient(baseUrl, key);
});
afterAll(() => removeSandbox(sb));
beforeEach(() => control(sb, "POST", "/reset", {}));

/** Moves the sandbox's clock; answers the new time. */
const advance = async (seconds: number): Promise<string> =>
  ((await (await control(sb, "POST", "/clock", { advance_seconds: seconds })).json()) as { now: string }).now;

it("a product updated a day after it was made: updated_at follows the clock, created_at stays", async () => {
  const product = await client.createProduct({ name: "Mug", retail_price: 1200 });
  expect([product.created_at, product.updated_at]).toEqual(["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"]);
  expect(await advance(86_400)).toBe("2026-01-02T00:00:00.000Z");
  const updated = await client.updateProduct(product.id, { version: product.version, retail_price: 1500 });
  expect([updated.created_at, updated.updated_at, updated.retail_price]).toEqual([
    "2026-01-01T00:00:00.000Z",
    "2026-01-02T00:00:00.000Z",
    1500,
  ]);
});

it("an Idempotency-Key is remembered 24 hours: reused for another body it is refused, a day later it writes", async () => {
  await client.createBrand({ name: "Tide" }, "brand-key");
  const reused = await client.createBrand({ name: "Ebb" }, "brand-key").catch((error: unknown) => error);
  expect(reused).toBeInstanceOf(RetailError);
  expect([(reused as RetailError).status, (reused as RetailError).code]).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
  await advance(24 * 3600 + 1);
  const written = await client.createBrand({ name: "Ebb" }, "brand-key");
  expect([written.data.name, written.replayed]).toEqual(["Ebb", false]);
});
