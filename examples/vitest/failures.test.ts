// The failures an SDK must handle, injected in this file's sandbox only: a server fault and a paused store.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { RetailClient, type RetailError } from "./client.js";
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

const failureOf = (promise: Promise<unknown>): Promise<[number, string]> =>
  promise.then(
    () => [0, "no failure"],
    (error: RetailError) => [error.status, error.code],
  );

it("a fault on GET /products answers 500 INTERNAL once; the next call succeeds", async () => {
  const path = `/${demo(sb).prefix}/v1/products`;
  expect((await control(sb, "POST", "/faults", { method: "GET", path, status: 500, times: 1 })).status).toBe(201);
  expect(await failureOf(client.listProducts())).toEqual([500, "INTERNAL"]);
  expect((await client.listProducts({ limit: 1 })).data.length).toBe(1);
});

it("a paused store answers 402 RETAILER_PAUSED until it is active again", async () => {
  const { prefix } = demo(sb);
  expect((await control(sb, "PATCH", `/stores/${prefix}`, { status: "paused" })).status).toBe(200);
  expect(await failureOf(client.listBrands())).toEqual([402, "RETAILER_PAUSED"]);
  expect((await control(sb, "PATCH", `/stores/${prefix}`, { status: "active" })).status).toBe(200);
  expect((await client.listBrands()).length).toBe(3);
});
