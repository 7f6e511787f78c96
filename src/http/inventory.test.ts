// Tests of stock levels and absolute sets against the spec: "InventoryLevel", "Stock write result",
// the endpoint rows for GET /products/{id}/inventory and PUT /products/{id}/inventory/{outlet_id},
// "Inventory rules" 1, 4 and 5, "Errors", the Idempotency paragraph of "Limits", the recorded choices
// (docs/spec-choices.md, "Inventory") and interfaces.md section 3 (control routes for outlets, reasons
// and the stock view). The demo fixture adds a seeded 0..10 to most quantities, so starting levels are
// read, never assumed (COFFEE-BEANS is exact: 12.5 at Main Street, 3.25 at Harbour Front).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, makeSim, ORIGIN, type Reply } from "../test-support/sim.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const uuid = expect.stringMatching(UUID);

interface Level {
  outlet_id: string;
  on_hand: number;
  reorder_method: string;
  reorder_point: number | null;
  reorder_amount: number | null;
  reorder_target: number | null;
  version: string;
}

interface Demo {
  sim: Simulator;
  main: string;
  harbour: string;
  reason: Record<string, string>;
  product: Record<string, string>;
}

async function demo(): Promise<Demo> {
  const sim = makeSim();
  const outlets = await call(sim, "GET", "/demo/v1/outlets");
  const reasons = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons");
  const products = await call(sim, "GET", "/demo/v1/products?limit=200");
  expect([outlets.status, reasons.status, products.status]).toEqual([200, 200, 200]);
  const outletId = (name: string) => outlets.json.data.find((o: { name: string }) => o.name === name).id as string;
  return {
    sim,
    main: outletId("Main Street"),
    harbour: outletId("Harbour Front"),
    reason: Object.fromEntries(reasons.json.data.map((r: { name: string; id: string }) => [r.name, r.id])),
    product: Object.fromEntries(products.json.data.map((p: { sku: string; id: string }) => [p.sku, p.id])),
  };
}

async function control(sim: Simulator, method: string, path: string, body?: unknown) {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text };
}

async function stockOf(d: Demo, product: string, outlet: string): Promise<{ on_hand: number; average_cost: number }> {
  const reply = await control(d.sim, "GET", `/stores/demo/stock/${product}/${outlet}`);
  expect(reply.status).toBe(200);
  return reply.json;
}

async function levelsOf(d: Demo, product: string): Promise<Level[]> {
  const reply = await call(d.sim, "GET", `/demo/v1/products/${product}/inventory`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

async function levelAt(d: Demo, product: string, outlet: string): Promise<Level | undefined> {
  return (await levelsOf(d, product)).find((l) => l.outlet_id === outlet);
}

const put = (d: Demo, product: string, outlet: string, body: unknown, headers: Record<string, string> = {}) =>
  call(d.sim, "PUT", `/demo/v1/products/${product}/inventory/${outlet}`, { body, headers });

function expectError(reply: Reply, status: number, code: string, field?: string): void {
  expect(reply.status).toBe(status);
  if (field === undefined) expect(reply.json).toStrictEqual({ error: { code, message: expect.any(String) } });
  else expect(reply.json).toStrictEqual({ error: { code, message: expect.any(String), fields: [{ field, message: expect.any(String) }] } });
}

/** Levels and stock views of one product at both outlets, for "nothing written" comparisons. */
async function snapshot(d: Demo, product: string) {
  return { levels: await levelsOf(d, product), main: await stockOf(d, product, d.main), harbour: await stockOf(d, product, d.harbour) };
}

const byOutlet = (a: Level, b: Level) => (a.outlet_id < b.outlet_id ? -1 : 1);

describe("Spec, InventoryLevel and GET /products/{id}/inventory (one row per live outlet where stocked; not paginated)", () => {
  it("answers {data: [...]} only, one row per stocked outlet with exactly the InventoryLevel fields", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const reply = await call(d.sim, "GET", `/demo/v1/products/${tote}/inventory`, { key: "inventory:read" });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json)).toEqual(["data"]);
    const main = await stockOf(d, tote, d.main);
    const harbour = await stockOf(d, tote, d.harbour);
    // Fixture: both(20, 8, 950) adds a seeded 0..10.
    expect(main.on_hand).toBeGreaterThanOrEqual(20);
    expect(main.on_hand).toBeLessThanOrEqual(30);
    expect(harbour.on_hand).toBeGreaterThanOrEqual(8);
    expect(harbour.on_hand).toBeLessThanOrEqual(18);
    const row = (outlet_id: string, on_hand: number) => ({
      outlet_id, on_hand, reorder_method: "none", reorder_point: null, reorder_amount: null, reorder_target: null, version: expect.stringMatching(DECIMAL),
    });
    expect([...reply.json.data].sort(byOutlet)).toStrictEqual([row(d.main, main.on_hand), row(d.harbour, harbour.on_hand)].sort(byOutlet));
  });

  it("shows fractional stock and a fixture reorder point exactly (COFFEE-BEANS 12.5 with reorder point 5, and 3.25)", async () => {
    const d = await demo();
    const levels = await levelsOf(d, d.product["COFFEE-BEANS"]);
    const version = expect.stringMatching(DECIMAL);
    expect([...levels].sort(byOutlet)).toStrictEqual(
      [
        { outlet_id: d.main, on_hand: 12.5, reorder_method: "reorder_point", reorder_point: 5, reorder_amount: null, reorder_target: null, version },
        { outlet_id: d.harbour, on_hand: 3.25, reorder_method: "none", reorder_point: null, reorder_amount: null, reorder_target: null, version },
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
    expect(zero.json).toStrictEqual({ data: { changed: false, previous: 0, on_hand: 0, delta: 0, adjustment_id: null, movement_id: null } });
    expect(await levelsOf(d, bundle)).toStrictEqual([]);
    expect((await put(d, bundle, d.harbour, { on_hand: 2 })).status).toBe(200);
    const levels = await levelsOf(d, bundle);
    expect(levels.map((l) => [l.outlet_id, l.on_hand])).toEqual([[d.harbour, 2]]);
  });

  it("a product that tracks no stock (SERVICE-GIFTWRAP, GIFTCARD) is stocked nowhere: {data: []}", async () => {
    const d = await demo();
    for (const sku of ["SERVICE-GIFTWRAP", "GIFTCARD"]) {
      const reply = await call(d.sim, "GET", `/demo/v1/products/${d.product[sku]}/inventory`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: [] });
    }
  });

  it("State rule (a deleted outlet): its row disappears, the live outlet's row is unchanged", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await levelAt(d, tote, d.main);
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`)).status).toBe(204);
    expect(await levelsOf(d, tote)).toStrictEqual([before]);
  });

  it("Errors, NOT_FOUND: unknown, non-UUID, deleted and other store's product ids answer 404", async () => {
    const d = await demo();
    const socks = d.product["SOCKS-WOOL"];
    expect((await call(d.sim, "DELETE", `/demo/v1/products/${socks}`)).status).toBe(204);
    const other = await call(d.sim, "GET", "/other/v1/products?limit=200");
    expect(other.status).toBe(200);
    const paths = [
      `/demo/v1/products/${NO_SUCH_ID}/inventory`,
      "/demo/v1/products/not-a-uuid/inventory",
      `/demo/v1/products/${socks}/inventory`,
      `/other/v1/products/${d.product["TOTE-CANVAS"]}/inventory`,
      ...other.json.data.slice(0, 1).map((p: { id: string }) => `/demo/v1/products/${p.id}/inventory`),
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
      body: { lines: [{ product_id: mug, outlet_id: d.main, adjust: { quantity: -1 } }] },
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

describe("Spec, PUT /products/{id}/inventory/{outlet_id}: Stock write result and Inventory rule 1", () => {
  it("answers 200 with exactly {changed, previous, on_hand, delta, adjustment_id, movement_id} and stores the level", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const previous = (await stockOf(d, tote, d.main)).on_hand;
    const reply = await put(d, tote, d.main, { on_hand: 5 });
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({ data: { changed: true, previous, on_hand: 5, delta: 5 - previous, adjustment_id: uuid, movement_id: uuid } });
    expect((await levelAt(d, tote, d.main))!.on_hand).toBe(5);
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(5);
  });

  it("an increase answers a positive delta; three decimals are kept exactly (1234.567)", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    const reply = await put(d, beans, d.harbour, { on_hand: 1234.567 });
    expect(reply.json).toStrictEqual({ data: { changed: true, previous: 3.25, on_hand: 1234.567, delta: 1231.317, adjustment_id: uuid, movement_id: uuid } });
    expect((await levelAt(d, beans, d.harbour))!.on_hand).toBe(1234.567);
  });

  it("rule 1: repeating the same on_hand answers changed false, delta 0 and null ids, and keeps version and average cost (even with a unit_cost)", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    expect((await put(d, tote, d.main, { on_hand: 7, unit_cost: 1200 })).json.data.changed).toBe(true);
    const level = await levelAt(d, tote, d.main);
    expect(await stockOf(d, tote, d.main)).toStrictEqual({ on_hand: 7, average_cost: 1200 });
    for (const body of [{ on_hand: 7 }, { on_hand: 7, unit_cost: 5 }, { on_hand: 7.0, reason_id: d.reason["Stocktake"] }]) {
      const reply = await put(d, tote, d.main, body);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: { changed: false, previous: 7, on_hand: 7, delta: 0, adjustment_id: null, movement_id: null } });
    }
    expect(await levelAt(d, tote, d.main)).toStrictEqual(level);
    expect(await stockOf(d, tote, d.main)).toStrictEqual({ on_hand: 7, average_cost: 1200 });
  });

  it("rule 1: without reason_id the set is recorded under the system reason, which cannot be sent explicitly (422 REASON_NOT_ALLOWED)", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    const explicit = await put(d, tote, d.main, { on_hand: 3, reason_id: d.reason["Stock set via API"] });
    expectError(explicit, 422, "REASON_NOT_ALLOWED", "reason_id");
    expect(await snapshot(d, tote)).toStrictEqual(before);
    // Every other reason disabled: a set without reason_id still succeeds (it uses the system reason).
    for (const name of ["Stock received", "Damaged", "Stocktake"]) {
      expect((await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason[name]}`, { enabled: false })).status).toBe(200);
    }
    const implicit = await put(d, tote, d.main, { on_hand: 3 });
    expect(implicit.status).toBe(200);
    expect(implicit.json.data).toMatchObject({ changed: true, on_hand: 3, adjustment_id: uuid, movement_id: uuid });
  });

  it("rule 5: a disabled reason (Theft) answers 422 REASON_NOT_ALLOWED and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    expectError(await put(d, tote, d.main, { on_hand: 1, reason_id: d.reason["Theft"] }), 422, "REASON_NOT_ALLOWED", "reason_id");
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("rule 5: a reason that does not match the direction answers 422 REASON_DIRECTION_MISMATCH (Stock received down, Damaged up) and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const before = await snapshot(d, tote);
    expectError(await put(d, tote, d.main, { on_hand: start - 1, reason_id: d.reason["Stock received"] }), 422, "REASON_DIRECTION_MISMATCH", "reason_id");
    expectError(await put(d, tote, d.main, { on_hand: start + 1, reason_id: d.reason["Damaged"] }), 422, "REASON_DIRECTION_MISMATCH", "reason_id");
    expect(await snapshot(d, tote)).toStrictEqual(before);
  });

  it("rule 5: matching reasons are accepted (Stock received up, Damaged down) and Stocktake (any) works both ways", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const steps: [number, string][] = [[start + 4, "Stock received"], [start + 1, "Damaged"], [start + 6, "Stocktake"], [start - 2, "Stocktake"]];
    let previous = start;
    for (const [on_hand, name] of steps) {
      const reply = await put(d, tote, d.main, { on_hand, reason_id: d.reason[name] });
      expect(reply.status, name).toBe(200);
      expect(reply.json.data).toStrictEqual({ changed: true, previous, on_hand, delta: on_hand - previous, adjustment_id: uuid, movement_id: uuid });
      previous = on_hand;
    }
  });

  it("Choices (reason checks): an unknown reason_id answers 422 UNPROCESSABLE naming reason_id", async () => {
    const d = await demo();
    expectError(await put(d, d.product["TOTE-CANVAS"], d.main, { on_hand: 1, reason_id: NO_SUCH_ID }), 422, "UNPROCESSABLE", "reason_id");
  });

  it("InventoryLevel (up to 3 decimal places): a 4th decimal answers 400 VALIDATION_FAILED on on_hand", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    for (const on_hand of [1.0001, 2.0005, 12.5001]) expectError(await put(d, beans, d.main, { on_hand }), 400, "VALIDATION_FAILED", "on_hand");
    expect((await levelAt(d, beans, d.main))!.on_hand).toBe(12.5);
  });

  it("Choices (a negative absolute set): 400 VALIDATION_FAILED on on_hand", async () => {
    const d = await demo();
    expectError(await put(d, d.product["TOTE-CANVAS"], d.main, { on_hand: -1 }), 400, "VALIDATION_FAILED", "on_hand");
  });

  it("Resources (no unknown properties; unit_cost integer cents): unknown keys and non-integer unit_cost answer 400", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    expectError(await put(d, tote, d.main, { on_hand: 1, quantity: 1 }), 400, "VALIDATION_FAILED", "quantity");
    expectError(await put(d, tote, d.main, { on_hand: 1, unit_cost: 9.5 }), 400, "VALIDATION_FAILED", "unit_cost");
    expectError(await put(d, tote, d.main, { on_hand: "1" }), 400, "VALIDATION_FAILED", "on_hand");
  });

  it("rule 5 and Versioning 3: a set at a deleted outlet answers 422 OUTLET_DELETED and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await stockOf(d, tote, d.harbour);
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${d.harbour}`)).status).toBe(204);
    expectError(await put(d, tote, d.harbour, { on_hand: before.on_hand + 3, unit_cost: 1 }), 422, "OUTLET_DELETED", "outlet_id");
    expect(await stockOf(d, tote, d.harbour)).toStrictEqual(before);
  });

  it("rule 5: a product that tracks no stock answers 422 NOT_STOCK_TRACKED", async () => {
    const d = await demo();
    for (const sku of ["SERVICE-GIFTWRAP", "GIFTCARD"]) {
      expectError(await put(d, d.product[sku], d.main, { on_hand: 1 }), 422, "NOT_STOCK_TRACKED");
      expect(await levelsOf(d, d.product[sku])).toStrictEqual([]);
    }
  });

  it("Choices (unknown product or outlet in the path): 404 NOT_FOUND, including a deleted product and another store's outlet", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const otherOutlets = await call(d.sim, "GET", "/other/v1/outlets");
    expect((await call(d.sim, "DELETE", `/demo/v1/products/${d.product["CAP-BASEBALL"]}`)).status).toBe(204);
    const targets: [string, string][] = [
      [NO_SUCH_ID, d.main],
      [tote, NO_SUCH_ID],
      ["nope", d.main],
      [tote, "nope"],
      [d.product["CAP-BASEBALL"], d.main],
      [tote, otherOutlets.json.data[0].id],
    ];
    for (const [product, outlet] of targets) {
      const reply = await put(d, product, outlet, { on_hand: 1 });
      expect(reply.status, `${product}/${outlet}`).toBe(404);
      expect(reply.json.error.code).toBe("NOT_FOUND");
    }
  });

  it("Limits (Idempotency-Key optional on PUT of stock): without a key each call runs; with a key a retry replays and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const start = (await stockOf(d, tote, d.main)).on_hand;
    const first = await put(d, tote, d.main, { on_hand: 5 }, { "Idempotency-Key": "set-5" });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect((await put(d, tote, d.main, { on_hand: 9 })).json.data).toMatchObject({ changed: true, previous: 5, on_hand: 9 });
    const replay = await put(d, tote, d.main, { on_hand: 5 }, { "Idempotency-Key": "set-5" });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual(first.json);
    expect(replay.json.data).toMatchObject({ changed: true, previous: start, on_hand: 5 });
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(9);
    expectError(await put(d, tote, d.main, { on_hand: 6 }, { "Idempotency-Key": "set-5" }), 422, "IDEMPOTENCY_KEY_REUSED");
    expect((await stockOf(d, tote, d.main)).on_hand).toBe(9);
  });

  it("Limits (a client error replays the same failure): a refused set replays its 422 even after the cause is gone", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const body = { on_hand: 1, reason_id: d.reason["Theft"] };
    const first = await put(d, tote, d.main, body, { "Idempotency-Key": "theft-1" });
    expectError(first, 422, "REASON_NOT_ALLOWED", "reason_id");
    expect((await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: true })).status).toBe(200);
    const replay = await put(d, tote, d.main, body, { "Idempotency-Key": "theft-1" });
    expect(replay.status).toBe(422);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json).toStrictEqual(first.json);
  });
});

describe("interfaces.md 3: control routes for stock (stock view, outlet delete, reason enable)", () => {
  it("GET /_sim/stores/{prefix}/stock/{product}/{outlet} answers exactly {on_hand, average_cost} with integer cents", async () => {
    const d = await demo();
    const beans = d.product["COFFEE-BEANS"];
    expect(await control(d.sim, "GET", `/stores/demo/stock/${beans}/${d.main}`)).toMatchObject({ status: 200, json: { on_hand: 12.5, average_cost: 1800 } });
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
    expectError(await put(d, tote, d.main, { on_hand: start + 1, reason_id: stocktake }), 422, "REASON_NOT_ALLOWED", "reason_id");
    // Choices: disabled reasons stay listed, with no enabled field.
    const listed = await call(d.sim, "GET", "/demo/v1/inventory/adjustment-reasons");
    expect(listed.json.data.find((r: { id: string }) => r.id === stocktake)).toStrictEqual({
      id: stocktake, name: "Stocktake", type: "any", is_system: false, version: expect.stringMatching(DECIMAL),
    });
    expect((await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${stocktake}`, { enabled: true })).status).toBe(200);
    expect((await put(d, tote, d.main, { on_hand: start + 1, reason_id: stocktake })).json.data).toMatchObject({ changed: true, on_hand: start + 1 });
    // Theft starts disabled; enabling it makes it usable for a decrease.
    expect((await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: true })).status).toBe(200);
    expect((await put(d, tote, d.main, { on_hand: start, reason_id: d.reason["Theft"] })).json.data).toMatchObject({ changed: true, on_hand: start });
  });

  it("Choices (control: disabling the system reason is refused with 409); bad input answers 400, an unknown reason 404", async () => {
    const d = await demo();
    const sys = await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Stock set via API"]}`, { enabled: false });
    expect(sys.status).toBe(409);
    expect(sys.json.error.code).toBe("CONFLICT");
    const bad = await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${d.reason["Theft"]}`, { enabled: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe("VALIDATION_FAILED");
    expect((await control(d.sim, "PATCH", `/stores/demo/adjustment-reasons/${NO_SUCH_ID}`, { enabled: true })).status).toBe(404);
  });
});

describe("Spec, Authentication scopes: inventory:read views stock levels, inventory:write adjusts stock", () => {
  it("inventory:read reads levels but every stock write answers 403 INSUFFICIENT_SCOPE and writes nothing", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const before = await snapshot(d, tote);
    expect((await call(d.sim, "GET", `/demo/v1/products/${tote}/inventory`, { key: "inventory:read" })).status).toBe(200);
    const writes: Reply[] = [
      await call(d.sim, "PUT", `/demo/v1/products/${tote}/inventory/${d.main}`, { key: "inventory:read", body: { on_hand: 1 } }),
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

  it("inventory:write satisfies inventory:read; catalog and scope-less keys cannot read levels (403 INSUFFICIENT_SCOPE)", async () => {
    const d = await demo();
    const path = `/demo/v1/products/${d.product["TOTE-CANVAS"]}/inventory`;
    expect((await call(d.sim, "GET", path, { key: "inventory:write" })).status).toBe(200);
    for (const key of ["catalog:write", "catalog:read", "none"]) expectError(await call(d.sim, "GET", path, { key }), 403, "INSUFFICIENT_SCOPE");
    const put = await call(d.sim, "PUT", `${path}/${d.main}`, { key: "inventory:write", body: { on_hand: 2 } });
    expect(put.status).toBe(200);
  });
});
