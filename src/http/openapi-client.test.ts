import createClient from "openapi-fetch";
import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { checkedSimulator } from "../test-support/sim.js";
import type { components, paths } from "../test-support/generated/api.js";

// docs/sdk-authors.md, Generate a client: a client generated from the served document (openapi-typescript types,
// openapi-fetch) works against a running simulator: the document is what SDK authors can build on. `npm test`
// type-checks this file against the generated types, so a document that drifts from the API breaks the build.

let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/**
 * Spec, Resources and their fields: Tombstone: a row of openapi-typescript's `ProductPage` is `Product | Tombstone`,
 * and `deleted_at`, declared absent on Product (typed null) and a string on Tombstone, narrows it: no cast.
 */
function rowText(row: components["schemas"]["ProductPage"]["data"][number]): string {
  if (row.deleted_at != null) {
    const tombstone: components["schemas"]["Tombstone"] = row;
    return `${tombstone.id} deleted at ${tombstone.deleted_at}`;
  }
  return `${row.sku}: ${row.name}`;
}

async function client() {
  sim = checkedSimulator({ clock: "manual" });
  const { url } = await sim.listen(0);
  return createClient<paths>({
    baseUrl: `${url}/demo/v1`,
    headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
  });
}

describe("docs/sdk-authors.md, Generate a client: a generated client (openapi-typescript + openapi-fetch) against a running simulator", () => {
  it("a list row narrows on deleted_at: a Tombstone has it, a Product declares it absent", async () => {
    const api = await client();
    const listed = await api.GET("/products", { params: { query: { limit: 1 } } });
    const [product] = listed.data!.data;
    expect(rowText(product!)).toBe("TOTE-CANVAS: Canvas Tote");
    expect(rowText({ id: "0b4c", deleted_at: "2026-01-01T00:00:00Z", version: "7" })).toBe(
      "0b4c deleted at 2026-01-01T00:00:00Z",
    );
  });

  it("creates, updates, lists and deletes a product, and sets its stock", async () => {
    const api = await client();
    const created = await api.POST("/products", {
      body: { name: "Generated Mug", retail_price: 1250, sku: "GEN-MUG" },
    });
    expect(created.response.status).toBe(201);
    const product = created.data!.data;
    expect(product).toMatchObject({ name: "Generated Mug", retail_price: 1250, sku: "GEN-MUG", active: true });

    const updated = await api.PATCH("/products/{id}", {
      params: { path: { id: product.id } },
      body: { retail_price: 1300, expected_version: product.version },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data!.data.retail_price).toBe(1300);

    const stale = await api.PATCH("/products/{id}", {
      params: { path: { id: product.id } },
      body: { name: "Again", version: product.version },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error).toMatchObject({ error: { code: "STALE_VERSION" } });

    const listed = await api.GET("/products", { params: { query: { sku: "GEN-MUG" } } });
    // openapi-fetch's answers drop a property typed only null (its Readable<T>), a live row's `deleted_at` among
    // them: there `"deleted_at" in row` narrows Product | Tombstone (docs/sdk-authors.md, Generate a client).
    expect(listed.data!.data.map((p) => ("deleted_at" in p ? p.deleted_at : p.sku))).toEqual(["GEN-MUG"]);

    const outlets = await api.GET("/outlets", { params: { query: { limit: 1 } } });
    const outletId = outlets.data!.data[0]!.id;
    const stock = await api.PUT("/products/{id}/inventory/{outlet_id}", {
      params: { path: { id: product.id, outlet_id: outletId } },
      body: { on_hand: 7.5, unit_cost: 400 },
    });
    expect(stock.data!.data).toMatchObject({ changed: true, previous: 0, on_hand: 7.5, delta: 7.5 });
    const levels = await api.GET("/products/{id}/inventory", { params: { path: { id: product.id } } });
    expect(levels.data!.data.map((l) => [l.outlet_id, l.on_hand])).toEqual([[outletId, 7.5]]);

    const deleted = await api.DELETE("/products/{id}", { params: { path: { id: product.id } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET("/products/{id}", { params: { path: { id: product.id } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toMatchObject({ error: { code: "NOT_FOUND" } });
  });

  it("an adjustment needs its Idempotency-Key header, which the generated types carry", async () => {
    const api = await client();
    const mug = (await api.GET("/products", { params: { query: { sku: "MUG-ENAMEL" } } })).data!.data[0]!;
    const outletId = (await api.GET("/outlets")).data!.data[0]!.id;
    const reason = (await api.GET("/inventory/adjustment-reasons")).data!.data.find(
      (r) => r.name === "Stock received",
    )!;
    const body = { product_id: mug.id, outlet_id: outletId, reason_id: reason.id, quantity: 2 };
    const missing = await api.POST("/inventory/adjustments", {
      params: { header: {} as { "Idempotency-Key": string } },
      body,
    });
    expect(missing.response.status).toBe(400);
    const made = await api.POST("/inventory/adjustments", { params: { header: { "Idempotency-Key": "gen-1" } }, body });
    expect(made.response.status).toBe(201);
    expect(made.data!.data.delta).toBe(2);
  });
});
