// Shared set-up of the reference-data list tests (src/engine/account/lists*.test.ts): the three lists
// (/outlets, /payment-types, /taxes) as cases, paging walks, and rows added or changed through the store state.
import { expect } from "vitest";
import type { Feed } from "../engine/feed.js";
import type { Simulator } from "../simulator.js";
import { call, type Reply } from "./sim.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DECIMAL = /^[0-9]+$/;

export type AnyRow = Record<string, unknown> & { id: string; version: string };
export interface ListBody {
  data: AnyRow[];
  next_cursor: string | null;
  has_more: boolean;
}

/** A UUID for test rows, distinct per n. */
export const testId = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

export interface ListCase {
  readonly path: string;
  readonly feed: (sim: Simulator) => Feed<any>;
  /** A fresh record for a row added by a test. */
  readonly record: (sim: Simulator, id: string, n: number) => Record<string, unknown>;
  /** The same record with a visible change. */
  readonly changed: (record: any, n: number) => Record<string, unknown>;
  /** Every row of the demo fixture (seed 1) as the list returns it, oldest change first. */
  readonly fixture: (sim: Simulator) => Promise<unknown[]>;
  /** A path of another paginated list, for foreign cursors. */
  readonly other: string;
}

export const demo = (sim: Simulator) => sim.world.stores.get("demo")!;
export const firstTaxId = (sim: Simulator): string => [...demo(sim).taxes.all()][0]!.id;

export async function taxIdByName(sim: Simulator, name: string): Promise<string> {
  const reply = await call(sim, "GET", "/demo/v1/taxes");
  const tax = (reply.json.data as AnyRow[]).find((t) => t.name === name);
  expect(tax, `tax ${name} in GET /taxes`).toBeDefined();
  return tax!.id;
}

export const version = expect.stringMatching(DECIMAL);
export const uuid = expect.stringMatching(UUID);

export const CASES: ListCase[] = [
  {
    path: "/demo/v1/outlets",
    feed: (sim) => demo(sim).outlets,
    record: (sim, id, n) => ({
      id,
      name: `Outlet ${n}`,
      timezone: "Europe/London",
      status: "active",
      default_tax_id: firstTaxId(sim),
    }),
    changed: (r, n) => ({
      ...r,
      name: `${r.name} (changed ${n})`,
      status: r.status === "active" ? "inactive" : "active",
    }),
    fixture: async (sim) => {
      const salesTax = await taxIdByName(sim, "Sales Tax");
      return [
        {
          id: uuid,
          name: "Main Street",
          timezone: "America/New_York",
          status: "active",
          default_tax_id: salesTax,
          version,
        },
        {
          id: uuid,
          name: "Harbour Front",
          timezone: "America/Chicago",
          status: "active",
          default_tax_id: salesTax,
          version,
        },
      ];
    },
    other: "/demo/v1/taxes",
  },
  {
    path: "/demo/v1/payment-types",
    feed: (sim) => demo(sim).paymentTypes,
    record: (_sim, id, n) => ({ id, name: `Payment ${n}`, enabled: true }),
    changed: (r, n) => ({ ...r, name: `${r.name} (changed ${n})`, enabled: !r.enabled }),
    fixture: async () => [
      { id: uuid, name: "Cash", enabled: true, version },
      { id: uuid, name: "Card", enabled: true, version },
      { id: uuid, name: "Cheque", enabled: false, version },
    ],
    other: "/demo/v1/outlets",
  },
  {
    path: "/demo/v1/taxes",
    feed: (sim) => demo(sim).taxes,
    record: (_sim, id, n) => ({ id, name: `Tax ${n}`, rate: 0.05 }),
    changed: (r, n) => ({ ...r, name: `${r.name} (changed ${n})`, rate: r.rate === 0.2 ? 0.1 : 0.2 }),
    fixture: async () => [
      { id: uuid, name: "Sales Tax", rate: 0.0875, version },
      { id: uuid, name: "Tax Exempt", rate: 0, version },
    ],
    other: "/demo/v1/payment-types",
  },
];

/** GET with a raw query string (already encoded), so odd values reach the server as written. */
export const get = (sim: Simulator, path: string, query = ""): Promise<Reply> =>
  call(sim, "GET", query ? `${path}?${query}` : path);

export async function page(sim: Simulator, path: string, query = ""): Promise<ListBody> {
  const reply = await get(sim, path, query);
  expect(reply.status, `GET ${path}?${query}: ${reply.text}`).toBe(200);
  return reply.json as ListBody;
}

/** Pages through the list with `limit` until has_more is false; returns every page. */
export async function walk(sim: Simulator, path: string, limit: number, from?: string): Promise<ListBody[]> {
  const pages: ListBody[] = [];
  let cursor = from;
  for (let i = 0; i < 500; i++) {
    const body = await page(sim, path, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(body);
    if (!body.has_more) return pages;
    expect(body.next_cursor).toEqual(expect.any(String));
    cursor = body.next_cursor!;
  }
  throw new Error("walk did not end");
}

export function addRows(sim: Simulator, c: ListCase, count: number, base = 1): string[] {
  const ids: string[] = [];
  for (let n = base; n < base + count; n++) {
    const id = testId(n);
    c.feed(sim).put(id, c.record(sim, id, n));
    ids.push(id);
  }
  return ids;
}

export function change(sim: Simulator, c: ListCase, id: string, n: number): void {
  const feed = c.feed(sim);
  feed.put(id, c.changed(feed.row(id)!.value, n));
}

export const big = (v: string): bigint => BigInt(v);

export function expectAscending(rows: AnyRow[]): void {
  for (let i = 1; i < rows.length; i++)
    expect(big(rows[i]!.version) > big(rows[i - 1]!.version), `row ${i} newer than row ${i - 1}`).toBe(true);
}

/** Cursors a client could send that the service never issued for this list. */
export function unreadableCursors(valid: string, foreign: string): Record<string, string> {
  const last = valid.at(-1) === "A" ? "B" : "A";
  return {
    garbage: "not a cursor!",
    "plain word": "abc",
    "tampered (last character changed)": valid.slice(0, -1) + last,
    "tampered (truncated)": valid.slice(0, -4),
    "tampered (padded as standard base64)": `${valid}==`,
    "base64 of some other JSON": Buffer.from(JSON.stringify({ hello: "world" }), "utf8").toString("base64url"),
    "base64 of bytes that are not JSON": Buffer.from([0xff, 0xfe, 0x00, 0x7b]).toString("base64url"),
    "cursor of another list": foreign,
  };
}
