// Stock through the SDK: absolute sets, relative adjustments and batches, with their refusals and idempotency
// (spec, Inventory rules; Limits: Idempotency).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { failure, outcome, type RetailClient } from "./client.js";
import { controlOk, clientOf, createSandbox, removeSandbox, reset, type Sandbox, store } from "./sandbox.js";

let sb: Sandbox;
let api: RetailClient;
/** Ids the tests look up once: outlets, reasons and products of the demo store. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  sb = await createSandbox();
  api = clientOf(sb);
  for (const o of await api.all<{ id: string; name: string }>("/outlets")) ids[o.name] = o.id;
  for (const r of (await api.send("GET", "/inventory/adjustment-reasons")).data.data) ids[r.name] = r.id;
  for (const p of await api.all<{ id: string; sku: string }>("/products", { limit: 200 })) ids[p.sku] = p.id;
});
afterAll(() => removeSandbox(sb));
beforeEach(() => reset(sb));

const onHand = async (sku: string, outlet = "Main Street"): Promise<number | undefined> =>
  (await api.send("GET", `/products/${ids[sku]}/inventory`)).data.data.find(
    (l: { outlet_id: string }) => l.outlet_id === ids[outlet],
  )?.on_hand;

const setStock = (sku: string, body: object, key?: string, outlet = ids["Main Street"]) =>
  api.send("PUT", `/products/${ids[sku]}/inventory/${outlet}`, { body, idempotencyKey: key });

const adjust = (body: object, key: string) =>
  api.send("POST", "/inventory/adjustments", { body: { outlet_id: ids["Main Street"], ...body }, idempotencyKey: key });

describe("PUT /products/{id}/inventory/{outlet_id}: absolute sets", () => {
  it("sets a level; the same level again changes nothing (changed false)", async () => {
    const first = (await setStock("MUG-ENAMEL", { on_hand: 40, reason_id: ids.Stocktake })).data.data;
    expect([first.changed, first.on_hand]).toEqual([true, 40]);
    const again = (await setStock("MUG-ENAMEL", { on_hand: 40 })).data.data;
    expect([again.changed, again.previous, again.delta]).toEqual([false, 40, 0]);
    expect(await onHand("MUG-ENAMEL")).toBe(40);
  });

  it("refuses a product without stock (NOT_STOCK_TRACKED), the system reason, a reason against the change", async () => {
    expect(await outcome(setStock("SERVICE-GIFTWRAP", { on_hand: 1 }))).toEqual([422, "NOT_STOCK_TRACKED"]);
    expect(await outcome(setStock("MUG-ENAMEL", { on_hand: 1, reason_id: ids["Stock set via API"] }))).toEqual([
      422,
      "REASON_NOT_ALLOWED",
    ]);
    const level = (await onHand("MUG-ENAMEL")) ?? 0;
    expect(await outcome(setStock("MUG-ENAMEL", { on_hand: level + 5, reason_id: ids.Damaged }))).toEqual([
      422,
      "REASON_DIRECTION_MISMATCH",
    ]);
  });

  it("a deleted outlet refuses stock writes: 422 OUTLET_DELETED", async () => {
    const { prefix } = store(sb);
    const outlet = await controlOk(sb, "POST", `/stores/${prefix}/outlets`, { name: "Pop-up" });
    expect(await outcome(setStock("MUG-ENAMEL", { on_hand: 3 }, undefined, outlet.id))).toEqual([200]);
    await controlOk(sb, "DELETE", `/stores/${prefix}/outlets/${outlet.id}`);
    expect(await outcome(setStock("MUG-ENAMEL", { on_hand: 4 }, undefined, outlet.id))).toEqual([
      422,
      "OUTLET_DELETED",
    ]);
  });

  it("a keyed set is replayed to a retry; the key with another level answers 422 IDEMPOTENCY_KEY_REUSED", async () => {
    const first = await setStock("SOCKS-WOOL", { on_hand: 12 }, "socks-12");
    const retry = await setStock("SOCKS-WOOL", { on_hand: 12 }, "socks-12");
    expect([retry.replayed, retry.data]).toEqual([true, first.data]);
    expect(await outcome(setStock("SOCKS-WOOL", { on_hand: 13 }, "socks-12"))).toEqual([422, "IDEMPOTENCY_KEY_REUSED"]);
  });
});

describe("POST /inventory/adjustments: relative changes", () => {
  it("adds received stock and takes damaged stock away", async () => {
    const before = (await onHand("CAP-BASEBALL")) ?? 0;
    expect(
      (await adjust({ sku: "CAP-BASEBALL", reason_id: ids["Stock received"], quantity: 5, unit_cost: 700 }, "a1"))
        .status,
    ).toBe(201);
    expect((await adjust({ product_id: ids["CAP-BASEBALL"], reason_id: ids.Damaged, quantity: -2 }, "a2")).status).toBe(
      201,
    );
    expect(await onHand("CAP-BASEBALL")).toBe(before + 3);
  });

  it("refuses more than is on hand (INSUFFICIENT_STOCK), a disabled reason, and a write without a key (400)", async () => {
    expect(await outcome(adjust({ sku: "CAP-BASEBALL", reason_id: ids.Damaged, quantity: -100_000 }, "a3"))).toEqual([
      422,
      "INSUFFICIENT_STOCK",
    ]);
    await controlOk(sb, "PATCH", `/stores/${store(sb).prefix}/adjustment-reasons/${ids.Theft}`, { enabled: false });
    expect(await outcome(adjust({ sku: "CAP-BASEBALL", reason_id: ids.Theft, quantity: -1 }, "a4"))).toEqual([
      422,
      "REASON_NOT_ALLOWED",
    ]);
    const unkeyed = api.send("POST", "/inventory/adjustments", {
      body: { sku: "CAP-BASEBALL", outlet_id: ids["Main Street"], reason_id: ids.Damaged, quantity: -1 },
    });
    expect(await outcome(unkeyed)).toEqual([400, "VALIDATION_FAILED"]);
  });
});

describe("POST /inventory/batch: all or nothing", () => {
  const lines = () => [
    { sku: "CAP-BASEBALL", outlet_id: ids["Main Street"], set: { on_hand: 30, reason_id: ids.Stocktake } },
    {
      product_id: ids["SOCKS-WOOL"],
      outlet_id: ids["Harbour Front"],
      adjust: { quantity: 12, reason_id: ids["Stock received"] },
    },
  ];

  it("writes every line; a retry with the key replays each line (replayed: true)", async () => {
    const first = await api.send("POST", "/inventory/batch", { body: { lines: lines() }, idempotencyKey: "b1" });
    expect([first.status, first.data.data.map((l: { on_hand: number }) => l.on_hand)[0]]).toEqual([200, 30]);
    const retry = await api.send("POST", "/inventory/batch", { body: { lines: lines() }, idempotencyKey: "b1" });
    expect([retry.replayed, retry.data.data.map((l: { replayed: boolean }) => l.replayed)]).toEqual([
      true,
      [true, true],
    ]);
  });

  it("one bad line (an unknown sku) writes no line: 422 UNPROCESSABLE naming it", async () => {
    const before = await onHand("CAP-BASEBALL");
    const bad = [...lines(), { sku: "NO-SUCH-SKU", outlet_id: ids["Main Street"], set: { on_hand: 1 } }];
    const refused = await failure(api.send("POST", "/inventory/batch", { body: { lines: bad }, idempotencyKey: "b2" }));
    expect([refused.status, refused.code, refused.fields[0]?.field]).toEqual([422, "UNPROCESSABLE", "lines.2.sku"]);
    expect(await onHand("CAP-BASEBALL")).toBe(before);
  });

  it("refuses a batch without an Idempotency-Key (400 naming the header)", async () => {
    expect(await outcome(api.send("POST", "/inventory/batch", { body: { lines: lines() } }))).toEqual([
      400,
      "VALIDATION_FAILED",
    ]);
  });
});
