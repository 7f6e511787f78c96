// The catalog through the SDK: products, variants, brands, categories, tags and suppliers, their pagination,
// idempotency and refusals (spec: Product write rules, Delete rules, Pagination and polling rules, Limits).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { failure, type Json, outcome, type RetailClient } from "./client.js";
import { advance, clientOf, controlOk, createSandbox, removeSandbox, reset, type Sandbox, store } from "./sandbox.js";

let sb: Sandbox;
let api: RetailClient;

beforeAll(async () => {
  sb = await createSandbox();
  api = clientOf(sb);
});
afterAll(() => removeSandbox(sb));
beforeEach(() => reset(sb));

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const idOf = async (path: string, name: string): Promise<string> =>
  (await api.all<{ id: string; name: string }>(path)).find((row) => row.name === name)!.id;
const skuId = async (sku: string): Promise<string> => (await api.productBySku(sku))!.id;

describe("pagination (spec, Pagination and polling rules)", () => {
  it("lists the demo store's 15 products in pages of 10, each once, then polls the feed for changes", async () => {
    const first = await api.listProducts({ limit: 10 });
    expect([first.data.length, first.has_more]).toEqual([10, true]);
    const second = await api.listProducts({ limit: 10, cursor: first.next_cursor! });
    expect([second.data.length, second.has_more]).toEqual([5, false]);
    expect(new Set([...first.data, ...second.data].map((p) => p.id)).size).toBe(15);
    // Nothing changed: an empty page whose next_cursor is null; keep the cursor already held.
    const idle = await api.listProducts({ cursor: second.next_cursor! });
    expect([idle.data.length, idle.next_cursor, idle.has_more]).toEqual([0, null, false]);
    const mug = await api.createProduct({ name: "Travel Mug", retail_price: 1800 });
    const changed = await api.listProducts({ cursor: second.next_cursor! });
    expect(changed.data.map((p) => p.id)).toEqual([mug.id]);
  });

  it("order=desc answers one first page without a cursor; with include_deleted or a garbage cursor, 400", async () => {
    const desc = await api.listProducts({ order: "desc", limit: 5 });
    expect([desc.data.length, desc.next_cursor, desc.has_more]).toEqual([5, null, false]);
    expect(await outcome(api.send("GET", "/products", { query: { order: "desc", include_deleted: true } }))).toEqual([
      400,
      "VALIDATION_FAILED",
    ]);
    const garbage = await failure(api.listProducts({ cursor: "garbage" }));
    expect([garbage.status, garbage.code, garbage.fields.map((f) => f.field)]).toEqual([
      400,
      "VALIDATION_FAILED",
      ["cursor"],
    ]);
  });

  it("every list reads whole through its cursors: brands, categories, tags, suppliers", async () => {
    const names = async (path: string) => (await api.all<{ name: string }>(path, { limit: 2 })).map((r) => r.name);
    expect(await names("/brands")).toEqual(["Northwind", "Acme", "Harbour & Co"]);
    expect(await names("/tags")).toEqual(["Summer", "Sale", "New", "Bestseller"]);
    expect(await names("/suppliers")).toEqual(["Acme Wholesale", "Pacific Textiles", "Harbour Distribution"]);
    expect(await names("/categories")).toHaveLength(6);
  });
});

describe("products (spec, Product write rules and Delete rules)", () => {
  it("creates, reads, updates at its version, and deletes a product; a deleted one is a tombstone", async () => {
    const made = await api.createProduct({ sku: "JACKET-RAIN", name: "Rain Jacket", retail_price: 8900 });
    expect((await api.send("GET", `/products/${made.id}`)).data.data).toEqual(made);
    const updated = await api.updateProduct(made.id, { retail_price: 9900, version: made.version });
    expect([updated.retail_price, updated.version > made.version]).toEqual([9900, true]);
    expect(await outcome(api.send("DELETE", `/products/${made.id}`))).toEqual([204]);
    expect(await outcome(api.send("GET", `/products/${made.id}`))).toEqual([404, "NOT_FOUND"]);
    expect(await outcome(api.send("DELETE", `/products/${made.id}`))).toEqual([404, "NOT_FOUND"]);
    const rows = await api.all<{ id: string; deleted_at?: string }>("/products", { include_deleted: true });
    expect(Object.keys(rows.find((r) => r.id === made.id)!).sort()).toEqual(["deleted_at", "id", "version"]);
  });

  it("an update at an outdated version answers 409 STALE_VERSION and changes nothing", async () => {
    const bottle = (await api.productBySku("BOTTLE-STEEL"))!;
    await api.updateProduct(bottle.id, { retail_price: 3100, version: bottle.version });
    const stale = await outcome(
      api.send("PATCH", `/products/${bottle.id}`, { body: { name: "X", version: bottle.version } }),
    );
    expect(stale).toEqual([409, "STALE_VERSION"]);
    expect((await api.productBySku("BOTTLE-STEEL"))!.name).toBe("Steel Water Bottle");
  });

  it("refuses a SKU in use (409 CONFLICT), an unknown brand (422 UNPROCESSABLE), an unknown tag (400)", async () => {
    const create = (body: object) => outcome(api.send("POST", "/products", { body }));
    expect(await create({ sku: "TOTE-CANVAS", name: "Tote", retail_price: 100 })).toEqual([409, "CONFLICT"]);
    expect(await create({ name: "X", retail_price: 100, brand_id: UNKNOWN_ID })).toEqual([422, "UNPROCESSABLE"]);
    expect(await create({ name: "X", retail_price: 100, tags: [{ id: UNKNOWN_ID }] })).toEqual([
      400,
      "VALIDATION_FAILED",
    ]);
    const tote = await skuId("TOTE-CANVAS");
    expect(await outcome(api.send("PATCH", `/products/${tote}`, { body: { brand_id: UNKNOWN_ID } }))).toEqual([
      422,
      "UNPROCESSABLE",
    ]);
  });

  it("refuses deleting a gift card (422), a component of a composite (409) and a parent of live variants (409)", async () => {
    const del = async (sku: string) => outcome(api.send("DELETE", `/products/${await skuId(sku)}`));
    expect(await del("GIFTCARD")).toEqual([422, "UNPROCESSABLE"]);
    expect(await del("TOTE-CANVAS")).toEqual([409, "CONFLICT"]);
    expect(await del("TEE-CLASSIC")).toEqual([409, "CONFLICT"]);
  });

  it("at the store's product limit a create answers 402 PRODUCT_LIMIT_REACHED", async () => {
    await controlOk(sb, "PATCH", `/stores/${store(sb).prefix}`, { product_limit: 15 });
    expect(await outcome(api.send("POST", "/products", { body: { name: "One more", retail_price: 100 } }))).toEqual([
      402,
      "PRODUCT_LIMIT_REACHED",
    ]);
  });

  it("a failed image download saves the product and answers 422 IMAGE_FETCH_FAILED with it in data", async () => {
    const url = "https://images.example/broken.png";
    await controlOk(sb, "POST", "/images", { url, outcome: "fail" });
    const failed = await failure(api.createProduct({ name: "Lamp", retail_price: 4500, image_url: url }));
    expect([failed.status, failed.code]).toEqual([422, "IMAGE_FETCH_FAILED"]);
    expect((await api.send("GET", `/products/${(failed.data as Json).id}`)).data.data.name).toBe("Lamp");
  });

  it("10 product writes with an image a minute; the 11th answers 429 with Retry-After; a minute later it writes", async () => {
    const write = (n: number) =>
      api.createProduct({ name: `Print ${n}`, retail_price: 500, image_url: `https://images.example/${n}.png` });
    for (let n = 1; n <= 10; n++) await write(n);
    const refused = await failure(write(11));
    expect([refused.status, refused.code, refused.retryAfter! > 0]).toEqual([429, "RATE_LIMITED", true]);
    await advance(sb, 60);
    expect((await write(11)).name).toBe("Print 11");
  });

  it("adds a variant to the Classic Tee; a combination it has answers 409, a product with no attributes 422", async () => {
    const tee = (await api.send("GET", `/products/${await skuId("TEE-CLASSIC")}`)).data.data;
    const [size, colour] = tee.variant_attributes.map((a: { id: string }) => a.id);
    const variant = (s: string, c: string) => ({
      variants: [
        {
          options: [
            { attribute_id: size, value: s },
            { attribute_id: colour, value: c },
          ],
        },
      ],
    });
    const made = await api.send("POST", `/products/${tee.id}/variants`, { body: variant("L", "White") });
    expect([made.status, made.data.data.length]).toEqual([201, 1]);
    expect(await outcome(api.send("POST", `/products/${tee.id}/variants`, { body: variant("S", "Navy") }))).toEqual([
      409,
      "CONFLICT",
    ]);
    const tote = await skuId("TOTE-CANVAS");
    expect(await outcome(api.send("POST", `/products/${tote}/variants`, { body: variant("S", "Navy") }))).toEqual([
      422,
      "UNPROCESSABLE",
    ]);
  });
});

describe("idempotency (spec, Limits: Idempotency)", () => {
  it("a retry with the same key and body is replayed, not written again", async () => {
    const made = await api.createBrand({ name: "Fjord" }, "create-fjord");
    const retried = await api.createBrand({ name: "Fjord" }, "create-fjord");
    expect([made.replayed, retried.replayed, retried.data]).toEqual([false, true, made.data]);
    expect((await api.listBrands()).map((b) => b.name)).toEqual(["Northwind", "Acme", "Harbour & Co", "Fjord"]);
  });

  it("the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED; a day later the key is free", async () => {
    await api.createBrand({ name: "Tide" }, "brand-key");
    expect(await outcome(api.send("POST", "/brands", { body: { name: "Ebb" }, idempotencyKey: "brand-key" }))).toEqual([
      422,
      "IDEMPOTENCY_KEY_REUSED",
    ]);
    await advance(sb, 24 * 3600 + 1);
    expect((await api.createBrand({ name: "Ebb" }, "brand-key")).replayed).toBe(false);
  });

  it("a refusal is replayed too; a key with spaces answers 400", async () => {
    const twice = [];
    for (let n = 0; n < 2; n++)
      twice.push(await failure(api.send("POST", "/tags", { body: { name: "Summer" }, idempotencyKey: "dup-tag" })));
    expect(twice.map((e) => [e.status, e.code])).toEqual([
      [409, "CONFLICT"],
      [409, "CONFLICT"],
    ]);
    expect(
      await outcome(api.send("POST", "/tags", { body: { name: "Autumn" }, idempotencyKey: "has spaces" })),
    ).toEqual([400, "VALIDATION_FAILED"]);
  });
});

describe("brands, categories, tags and suppliers (spec, Delete rules)", () => {
  for (const [path, name, taken] of [
    ["/brands", "Fjord", "Northwind"],
    ["/tags", "Winter", "Summer"],
  ] as const) {
    it(`${path}: create, read, rename, delete; a name in use answers 409 CONFLICT on create and on rename`, async () => {
      const made = (await api.send("POST", path, { body: { name } })).data.data;
      expect((await api.send("GET", `${path}/${made.id}`)).data.data.name).toBe(name);
      expect(await outcome(api.send("POST", path, { body: { name: taken } }))).toEqual([409, "CONFLICT"]);
      expect(await outcome(api.send("PATCH", `${path}/${made.id}`, { body: { name: taken } }))).toEqual([
        409,
        "CONFLICT",
      ]);
      expect((await api.send("PATCH", `${path}/${made.id}`, { body: { name: `${name} 2` } })).data.data.name).toBe(
        `${name} 2`,
      );
      expect(await outcome(api.send("DELETE", `${path}/${made.id}`))).toEqual([204]);
      expect(await outcome(api.send("GET", `${path}/${made.id}`))).toEqual([404, "NOT_FOUND"]);
    });
  }

  it("suppliers: create, read, rename, delete", async () => {
    const made = (await api.send("POST", "/suppliers", { body: { name: "Nordic Wool Co" } })).data.data;
    expect((await api.send("GET", `/suppliers/${made.id}`)).data.data.name).toBe("Nordic Wool Co");
    expect((await api.send("PATCH", `/suppliers/${made.id}`, { body: { name: "Nordic Wool" } })).data.data.name).toBe(
      "Nordic Wool",
    );
    expect(await outcome(api.send("DELETE", `/suppliers/${made.id}`))).toEqual([204]);
  });

  it("categories: a subcategory; an unknown parent (422), a cycle (409), the system category and a parent (409)", async () => {
    const apparel = await idOf("/categories", "Apparel");
    const made = (await api.send("POST", "/categories", { body: { name: "Outerwear", parent_id: apparel } })).data.data;
    expect([made.parent_id, made.depth]).toEqual([apparel, 1]);
    expect(await outcome(api.send("POST", "/categories", { body: { name: "X", parent_id: UNKNOWN_ID } }))).toEqual([
      422,
      "UNPROCESSABLE",
    ]);
    expect(await outcome(api.send("PATCH", `/categories/${made.id}`, { body: { parent_id: UNKNOWN_ID } }))).toEqual([
      422,
      "UNPROCESSABLE",
    ]);
    expect(await outcome(api.send("PATCH", `/categories/${apparel}`, { body: { parent_id: made.id } }))).toEqual([
      409,
      "CONFLICT",
    ]);
    const other = await idOf("/categories", "Other Products");
    expect(await outcome(api.send("DELETE", `/categories/${other}`))).toEqual([409, "CONFLICT"]);
    expect(await outcome(api.send("DELETE", `/categories/${apparel}`))).toEqual([409, "CONFLICT"]);
    expect(await outcome(api.send("DELETE", `/categories/${made.id}`))).toEqual([204]);
  });
});

it("a path the API does not have answers 404 NOT_FOUND in the error envelope", async () => {
  expect(await outcome(api.send("GET", "/no-such-path"))).toEqual([404, "NOT_FOUND"]);
});

it("a key of another store (the sandbox's `other`) is refused on this store's base URL", async () => {
  const foreign = api.withCredential(store(sb, "other").key);
  expect(await outcome(foreign.send("GET", "/products"))).toEqual([401, "UNAUTHORIZED"]);
});
