// Tests of stock level reads against the spec where no conformance rule holds the simulator
// (conformance/rules/inventory/ holds the rest, its strict profile the simulator's own choices):
// "InventoryLevel" on the fixture's levels, the endpoint row for GET /products/{id}/inventory,
// "Resources" (version), "Errors", the scopes of "Authentication", the recorded choices
// (docs/spec-choices.md, "Inventory") and interfaces.md section 3 (control routes for outlets,
// adjustment reasons and the stock view). The demo fixture adds a seeded 0..10 to most quantities, so
// starting levels are read, never assumed (COFFEE-BEANS is exact: 12.5 at Main Street, 3.25 at
// Harbour Front).
import { describe, expect, it } from "vitest";
import { call, type Reply } from "../../test-support/sim.js";
import {
  NO_SUCH_ID,
  demo,
  control,
  stockOf,
  levelsOf,
  levelAt,
  put,
  snapshot,
  type Level,
} from "../../test-support/inventory.js";
import { expectError } from "../../test-support/errors.js";

const DECIMAL = /^[0-9]+$/;
const byOutlet = (a: Level, b: Level) => (a.outlet_id < b.outlet_id ? -1 : 1);

describe("Spec, InventoryLevel and GET /products/{id}/inventory (one row per live outlet where stocked; not paginated)", () => {
  it("shows fractional stock and a fixture reorder point exactly (COFFEE-BEANS 12.5 with reorder point 5, and 3.25)", async () => {
    const d = await demo();
    const levels = await levelsOf(d, d.product["COFFEE-BEANS"]);
    const version = expect.stringMatching(DECIMAL);
    expect([...levels].sort(byOutlet)).toStrictEqual(
      [
        {
          outlet_id: d.main,
          on_hand: 12.5,
          reorder_method: "reorder_point",
          reorder_point: 5,
          reorder_amount: null,
          reorder_target: null,
          version,
        },
        {
          outlet_id: d.harbour,
          on_hand: 3.25,
          reorder_method: "none",
          reorder_point: null,
          reorder_amount: null,
          reorder_target: null,
          version,
        },
      ].sort(byOutlet),
    );
  });

  it("lists only outlets where the product is stocked: TEE-CLASSIC-L-NAVY has a Main Street row only; a never-stocked product has none", async () => {
    const d = await demo();
    const lNavy = await levelsOf(d, d.product["TEE-CLASSIC-L-NAVY"]);
    expect(lNavy.map((l) => l.outlet_id)).toEqual([d.main]);
    expect(await levelsOf(d, d.product["BUNDLE-PICNIC"])).toStrictEqual([]);
  });

  it("Choices: setting a never-stocked outlet to 0 changes nothing and adds no row; setting it above 0 adds the row", async () => {
    const d = await demo();
    const bundle = d.product["BUNDLE-PICNIC"];
    const zero = await put(d, bundle, d.harbour, { on_hand: 0 });
    expect(zero.json).toStrictEqual({
      data: { changed: false, previous: 0, on_hand: 0, delta: 0, adjustment_id: null, movement_id: null },
    });
    expect(await levelsOf(d, bundle)).toStrictEqual([]);
    expect((await put(d, bundle, d.harbour, { on_hand: 2 })).status).toBe(200);
    const levels = await levelsOf(d, bundle);
    expect(levels.map((l) => [l.outlet_id, l.on_hand])).toEqual([[d.harbour, 2]]);
  });

  it("a product that tracks no stock (SERVICE-GIFTWRAP, GIFTCARD) is stocked nowhere: {data: []}", async () => {
    const d = await demo();
    for (const sku of ["SERVICE-GIFTWRAP", "GIFTCARD"] as const) {
      const reply = await call(d.sim, "GET", `/demo/v1/products/${d.product[sku]}/inventory`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: [] });
    }
  });

  it("Errors, NOT_FOUND: unknown, non-UUID, deleted and other store's product ids answer 404", async () => {
    const d = await demo();
    const socks = d.product["SOCKS-WOOL"];
    expect((await call(d.sim, "DELETE", `/demo/v1/products/${socks}`)).status).toBe(204);
    const other = await call(d.sim, "POST", "/other/v1/products", {
      body: { name: "Other store product", retail_price: 100 },
    });
    expect(other.status).toBe(201);
    const paths = [
      `/demo/v1/products/${NO_SUCH_ID}/inventory`,
      "/demo/v1/products/not-a-uuid/inventory",
      `/demo/v1/products/${socks}/inventory`,
      `/other/v1/products/${d.product["TOTE-CANVAS"]}/inventory`,
      `/demo/v1/products/${other.json.data.id}/inventory`,
    ];
    for (const path of paths) {
      const reply = await call(d.sim, "GET", path);
      expect(reply.status, path).toBe(404);
      expect(reply.json.error.code, path).toBe("NOT_FOUND");
    }
  });

  it("Choices (not paginated, unknown query parameters): limit and cursor are refused with 400 naming them", async () => {
    const d = await demo();
    for (const param of ["limit", "cursor"]) {
      const reply = await call(d.sim, "GET", `/demo/v1/products/${d.product["TOTE-CANVAS"]}/inventory?${param}=5`);
      expectError(reply, 400, "VALIDATION_FAILED", param);
    }
  });

  it("Resources (version increases with every change; bigint as string): a set, an adjustment and a batch each raise the row's version; other rows keep theirs", async () => {
    const d = await demo();
    const mug = d.product["MUG-ENAMEL"];
    const start = await levelAt(d, mug, d.main);
    const harbourBefore = await levelAt(d, mug, d.harbour);
    const versions = [BigInt(start!.version)];
    expect((await put(d, mug, d.main, { on_hand: start!.on_hand + 1 })).status).toBe(200);
    versions.push(BigInt((await levelAt(d, mug, d.main))!.version));
    const adj = await call(d.sim, "POST", "/demo/v1/inventory/adjustments", {
      body: { product_id: mug, outlet_id: d.main, quantity: 2, reason_id: d.reason["Stock received"] },
      headers: { "Idempotency-Key": "version-adj" },
    });
    expect(adj.status).toBe(201);
    versions.push(BigInt((await levelAt(d, mug, d.main))!.version));
    const batch = await call(d.sim, "POST", "/demo/v1/inventory/batch", {
      body: {
        lines: [{ product_id: mug, outlet_id: d.main, adjust: { quantity: -1, reason_id: d.reason["Stocktake"] } }],
      },
      headers: { "Idempotency-Key": "version-batch" },
    });
    expect(batch.status).toBe(200);
    const last = (await levelAt(d, mug, d.main))!;
    versions.push(BigInt(last.version));
    for (let i = 1; i < versions.length; i++) expect(versions[i]! > versions[i - 1]!, `change ${i}`).toBe(true);
    expect(last.on_hand).toBe(start!.on_hand + 2);
    expect(await levelAt(d, mug, d.harbour)).toStrictEqual(harbourBefore);
    // Rule 1: repeating the same on_hand changes nothing, so the version stays.
    expect((await put(d, mug, d.main, { on_hand: last.on_hand })).json.data.changed).toBe(false);
    expect(await levelAt(d, mug, d.main)).toStrictEqual(last);
  });
});

describe("interfaces.md 3: control routes for stock (stock view, outlet delete, reason enable)", () => {
  it("GET /_sim/stores/{prefix}/stock/{product}/{outlet} answers exactly {on_hand, average_cost} with integer cents", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    expect(await control(d.sim, "GET", `/stores/demo/stock/${beans}/${d.main}`)).toMatchObject({
      status: 200,
      json: { on_hand: 12.5, average_cost: 1800 },
    });
    const view = await stockOf(d, beans, d.harbour);
    expect(view).toStrictEqual({ on_hand: 3.25, average_cost: 1800 });
    expect(Number.isInteger(view.average_cost)).toBe(true);
    expect((await control(d.sim, "GET", `/stores/demo/stock/${NO_SUCH_ID}/${d.main}`)).status).toBe(404);
  });

  it("DELETE /_sim/stores/{prefix}/outlets/{id} answers 204 with no body; deleting it again or an unknown id answers 404", async () => {
    const d = await demo();
    const first = await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`);
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    const again = await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`);
    expect(again.status).toBe(404);
    expect(again.json.error.code).toBe("NOT_FOUND");
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${NO_SUCH_ID}`)).status).toBe(404);
  });

  it("PATCH /_sim/stores/{prefix}/adjustment-reasons/{id} {enabled}: disabling refuses the reason in writes; re-enabling allows it again", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const stocktake = d.reason["Stocktake"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const off = await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${stocktake}`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ id: stocktake, name: "Stocktake", type: "any", is_system: false });
    expectError(
      await put(d, tote, d.main, { on_hand: start + 1, reason_id: stocktake }),
      422,
      "REASON_NOT_ALLOWED",
      "reason_id",
    );
    // Choices: disabled reasons stay listed, with no enabled field.
    const listed = await call(d.sim, "GET", "/demo/v1/inventory/adjustment-reasons");
    expect(listed.json.data.find((r: { id: string }) => r.id === stocktake)).toStrictEqual({
      id: stocktake,
      name: "Stocktake",
      type: "any",
      is_system: false,
      version: expect.stringMatching(DECIMAL),
    });
    expect(
      (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${stocktake}`, { enabled: true })).status,
    ).toBe(200);
    expect((await put(d, tote, d.main, { on_hand: start + 1, reason_id: stocktake })).json.data).toMatchObject({
      changed: true,
      on_hand: start + 1,
    });
    // Theft starts disabled; enabling it makes it usable for a decrease.
    expect(
      (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: true })).status,
    ).toBe(200);
    expect((await put(d, tote, d.main, { on_hand: start, reason_id: d.reason["Theft"] })).json.data).toMatchObject({
      changed: true,
      on_hand: start,
    });
  });

  it("Choices (control: disabling the system reason is refused with 409); bad input answers 400, an unknown reason 404", async () => {
    const d = await demo();
    const sys = await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Stock set via API"]}`, {
      enabled: false,
    });
    expect(sys.status).toBe(409);
    expect(sys.json.error.code).toBe("CONFLICT");
    const bad = await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, {
      enabled: "yes",
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_FAILED");
    expect(
      (await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${NO_SUCH_ID}`, { enabled: true })).status,
    ).toBe(404);
  });
});

describe("Spec, Authentication scopes: inventory:read views stock levels, inventory:write adjusts stock", () => {
  it("inventory:read reads levels but every stock write answers 403 INSUFFICIENT_SCOPE and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    expect((await call(d.sim, "GET", `/demo/v1/products/${tote}/inventory`, { key: "inventory:read" })).status).toBe(
      200,
    );
    const writes: Reply[] = [
      await call(d.sim, "PUT", `/demo/v1/products/${tote}/inventory/${d.main}`, {
        key: "inventory:read",
        body: { on_hand: 1 },
      }),
      await call(d.sim, "POST", "/demo/v1/inventory/adjustments", {
        key: "inventory:read",
        headers: { "Idempotency-Key": "scope-1" },
        body: { product_id: tote, outlet_id: d.main, quantity: 1, reason_id: d.reason["Stocktake"] },
      }),
      await call(d.sim, "POST", "/demo/v1/inventory/batch", {
        key: "inventory:read",
        headers: { "Idempotency-Key": "scope-2" },
        body: { lines: [{ product_id: tote, outlet_id: d.main, set: { on_hand: 1 } }] },
      }),
    ];
    for (const reply of writes) expectError(reply, 403, "INSUFFICIENT_SCOPE");
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });
});
