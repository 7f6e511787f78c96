// Shared set-up of the product write tests (src/engine/catalog/products-*.test.ts): reads by SKU and id,
// the held cursor for "nothing written" checks, image outcomes and creates.
import { expect } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, ORIGIN } from "./sim.js";

export const P = "/demo/v1/products";
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DECIMAL = /^[0-9]+$/;
export const IMAGE = /^http:\/\/sim\.test\/images\/([0-9a-f-]{36})\/original\.png$/;
export const UNKNOWN = "00000000-0000-4000-8000-00000000abcd";
export const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"];

export type Product = Record<string, any> & { id: string; sku: string; version: string };

export async function bySku(sim: Simulator, sku: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `?sku=${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

export async function read(sim: Simulator, id: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}/${id}`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

export async function idsByName(sim: Simulator, list: string): Promise<Record<string, string>> {
  const reply = await call(sim, "GET", `/demo/v1/${list}?limit=200`);
  expect(reply.status).toBe(200);
  return Object.fromEntries((reply.json.data as { id: string; name: string }[]).map((r) => [r.name, r.id]));
}

export async function listAll(sim: Simulator): Promise<Product[]> {
  const reply = await call(sim, "GET", `${P}?limit=200&include_deleted=true`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

export async function liveCount(sim: Simulator): Promise<number> {
  const reply = await call(sim, "GET", `${P}?limit=200`);
  expect(reply.status).toBe(200);
  expect(reply.json.has_more).toBe(false);
  return reply.json.data.length;
}

/** The cursor after the latest change of the product feed (deleted rows included). */
export async function heldCursor(sim: Simulator): Promise<string> {
  const reply = await call(sim, "GET", `${P}?limit=200&include_deleted=true`);
  expect(reply.status).toBe(200);
  expect(typeof reply.json.next_cursor).toBe("string");
  return reply.json.next_cursor;
}

/** Nothing was written since `cursor`: the feed (with tombstones) has no row after it. */
export async function expectNothingWritten(sim: Simulator, cursor: string): Promise<void> {
  const reply = await call(sim, "GET", `${P}?include_deleted=true&cursor=${cursor}`);
  expect(reply.status).toBe(200);
  expect(reply.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
}

export const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

export async function setImage(sim: Simulator, url: string, outcome: "ok" | "fail" | "busy"): Promise<void> {
  const res = await sim.fetch(`${ORIGIN}/_sim/images`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url, outcome }),
  });
  expect(res.status).toBe(200);
}

export async function create(sim: Simulator, body: Record<string, unknown>): Promise<Product> {
  const reply = await call(sim, "POST", P, { body });
  expect(reply.status, reply.text).toBe(201);
  return reply.json.data;
}

// ---------------------------------------------------------------------------------------------------
