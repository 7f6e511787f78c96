// The failures an SDK must handle, injected in this file's sandbox only: a server fault and a paused store.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { RetailClient, type RetailError } from "./client.js";
import { createSandbox, type Sandbox } from "./sandbox.js";

let sandbox: Sandbox;
let client: RetailClient;

beforeAll(async () => {
  sandbox = await createSandbox(inject("simUrl"));
  client = new RetailClient(sandbox.baseUrl, sandbox.apiKey);
});
afterAll(() => sandbox.remove());

const failureOf = (promise: Promise<unknown>): Promise<[number, string]> =>
  promise.then(
    () => [0, "no failure"],
    (error: RetailError) => [error.status, error.code],
  );

describe("failures", () => {
  it("a fault on GET /products answers 500 INTERNAL once; the next call succeeds", async () => {
    const path = new URL(`${sandbox.baseUrl}/products`).pathname;
    await sandbox.control("POST", "/faults", { method: "GET", path, status: 500, times: 1 });
    expect(await failureOf(client.listProducts())).toEqual([500, "INTERNAL"]);
    expect((await client.listProducts({ limit: 1 })).data.length).toBe(1);
  });

  it("a paused store answers 402 RETAILER_PAUSED until it is active again", async () => {
    const prefix = new URL(sandbox.baseUrl).pathname.split("/")[1];
    await sandbox.control("PATCH", `/stores/${prefix}`, { status: "paused" });
    expect(await failureOf(client.listBrands())).toEqual([402, "RETAILER_PAUSED"]);
    await sandbox.control("PATCH", `/stores/${prefix}`, { status: "active" });
    expect((await client.listBrands()).length).toBe(3);
  });
});
