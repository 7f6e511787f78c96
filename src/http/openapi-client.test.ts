import createClient from "openapi-fetch";
import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { checkedSimulator } from "../test-support/sim.js";
import type { paths } from "../test-support/generated/api.js";

// docs/sdk-authors.md, Generate a client: a client generated from the served document (openapi-typescript types,
// openapi-fetch) works against a running simulator: the document is what SDK authors can build on. `npm test`
// type-checks this file against the generated types, so a document that drifts from the API breaks the build.

let sim: Simulator | undefined;

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function client() {
  sim = checkedSimulator({ clock: "manual" });
  const { url } = await sim.listen(0);
  return createClient<paths>({
    baseUrl: `${url}/demo/v1`,
    headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
  });
}

describe("docs/sdk-authors.md, Generate a client: a generated client (openapi-typescript + openapi-fetch) against a running simulator", () => {
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
    expect(listed.data!.data.map((p) => ("sku" in p ? p.sku : null))).toEqual(["GEN-MUG"]);

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
