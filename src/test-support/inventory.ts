// Shared set-up of the inventory tests: the demo store's outlets, reasons and products by name, the
// stock control view, levels, and the stock write calls.
import { expect } from "vitest";
import type { Simulator, SimulatorOptions } from "../simulator.js";
import { call, makeSim, ORIGIN } from "./sim.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
export const uuid = expect.stringMatching(UUID);

export interface Level {
  outlet_id: string;
  on_hand: number;
  reorder_method: string;
  reorder_point: number | null;
  reorder_amount: number | null;
  reorder_target: number | null;
  version: string;
}

export type ReasonName = "Stock set via API" | "Stock received" | "Damaged" | "Stocktake" | "Theft";
export type Sku =
  | "TOTE-CANVAS"
  | "BOTTLE-STEEL"
  | "BUNDLE-PICNIC"
  | "TEE-CLASSIC"
  | "TEE-CLASSIC-S-NAVY"
  | "TEE-CLASSIC-M-NAVY"
  | "TEE-CLASSIC-L-NAVY"
  | "TEE-CLASSIC-M-WHITE"
  | "SERVICE-GIFTWRAP"
  | "GIFTCARD"
  | "CAP-BASEBALL"
  | "SOCKS-WOOL"
  | "SCARF-KNIT"
  | "MUG-ENAMEL"
  | "COFFEE-BEANS";

export interface Demo {
  sim: Simulator;
  main: string;
  harbour: string;
  reason: Record<ReasonName, string>;
  product: Record<Sku, string>;
}

/** A fresh demo simulator (with the options given) with its outlets, reasons and products looked up by name. */
export async function demo(options: SimulatorOptions = {}): Promise<Demo> {
  const sim = makeSim(options);
  const outlets = await call(sim, "GET", "/demo/v1/outlets");
  const reasons = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons");
  const products = await call(sim, "GET", "/demo/v1/products?limit=200");
  expect([outlets.status, reasons.status, products.status]).toEqual([200, 200, 200]);
  const outletId = (name: string) => outlets.json.data.find((o: { name: string }) => o.name === name).id as string;
  return {
    sim,
    main: outletId("Main Street"),
    harbour: outletId("Harbour Front"),
    reason: Object.fromEntries(reasons.json.data.map((r: { name: string; id: string }) => [r.name, r.id])) as Record<
      ReasonName,
      string
    >,
    product: Object.fromEntries(products.json.data.map((p: { sku: string; id: string }) => [p.sku, p.id])) as Record<
      Sku,
      string
    >,
  };
}

export async function control(sim: Simulator, method: string, path: string, body?: unknown) {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text };
}

/** The control plane's stock view: `{on_hand, average_cost}`. */
export async function stockOf(
  d: Demo,
  product: string,
  outlet: string,
): Promise<{ on_hand: number; average_cost: number }> {
  const reply = await control(d.sim, "GET", `/stores/demo/stock/${product}/${outlet}`);
  expect(reply.status).toBe(200);
  return reply.json;
}

export async function levelsOf(d: Demo, product: string): Promise<Level[]> {
  const reply = await call(d.sim, "GET", `/demo/v1/products/${product}/inventory`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

export async function levelAt(d: Demo, product: string, outlet: string): Promise<Level | undefined> {
  return (await levelsOf(d, product)).find((l) => l.outlet_id === outlet);
}

export const put = (d: Demo, product: string, outlet: string, body: unknown, headers: Record<string, string> = {}) =>
  call(d.sim, "PUT", `/demo/v1/products/${product}/inventory/${outlet}`, { body, headers });

let keySeq = 0;
/** POST /inventory/adjustments with a fresh Idempotency-Key unless one is given. */
export const adjust = (d: Demo, body: unknown, key = `adj-${++keySeq}`) =>
  call(d.sim, "POST", "/demo/v1/inventory/adjustments", { body, headers: { "Idempotency-Key": key } });

/** POST /inventory/batch with a fresh Idempotency-Key unless one is given. */
export const batch = (d: Demo, lines: unknown, key = `batch-${++keySeq}`) =>
  call(d.sim, "POST", "/demo/v1/inventory/batch", { body: { lines }, headers: { "Idempotency-Key": key } });

/** Levels and stock views of one product at both outlets, for "nothing written" comparisons. */
export async function snapshot(d: Demo, product: string) {
  return {
    levels: await levelsOf(d, product),
    main: await stockOf(d, product, d.main),
    harbour: await stockOf(d, product, d.harbour),
  };
}

/** Levels and stock views of several products, for "nothing written" comparisons. */
export async function snapshotAll(d: Demo, products: string[]) {
  const all = [];
  for (const product of products) all.push(await snapshot(d, product));
  return all;
}
