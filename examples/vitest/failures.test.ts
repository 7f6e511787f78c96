// The failures an SDK must handle, injected in this file's sandbox only: a server fault to retry, a request
// still in progress when its retry arrives, and time passing on the sandbox's own clock.
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

it("a fault on GET /products answers 500 INTERNAL once; the retry succeeds", async () => {
  const path = `/${store(sb).prefix}/v1/products`;
  await controlOk(sb, "POST", "/faults", { method: "GET", path, status: 500, times: 1 });
  expect(await outcome(api.send("GET", "/products"))).toEqual([500, "INTERNAL"]);
  expect(await outcome(api.send("GET", "/products"))).toEqual([200]);
});

it("a retry while the first request is still being processed answers 409 IDEMPOTENCY_IN_PROGRESS", async () => {
  const path = `/${store(sb).prefix}/v1/brands`;
  const fault = await controlOk(sb, "POST", "/faults", { method: "POST", path, hold: true, times: 1 });
  const first = api.createBrand({ name: "Fjord" }, "fjord");
  while ((await controlOk(sb, "GET", "/faults"))[0].held === 0) await new Promise((r) => setImmediate(r));
  expect(await outcome(api.send("POST", "/brands", { body: { name: "Fjord" }, idempotencyKey: "fjord" }))).toEqual([
    409,
    "IDEMPOTENCY_IN_PROGRESS",
  ]);
  await controlOk(sb, "POST", `/faults/${fault.id}/release`);
  expect((await first).status).toBe(201);
  expect((await api.createBrand({ name: "Fjord" }, "fjord")).replayed).toBe(true);
});

it("a product updated a day after it was made: updated_at follows the sandbox's clock, created_at stays", async () => {
  const product = await api.createProduct({ name: "Mug", retail_price: 1200 });
  expect([product.created_at, product.updated_at]).toEqual(["2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"]);
  expect(await advance(sb, 86_400)).toBe("2026-01-02T00:00:00.000Z");
  const updated = await api.updateProduct(product.id, { version: product.version, retail_price: 1500 });
  expect([updated.created_at, updated.updated_at]).toEqual(["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"]);
});
