// Test helpers for the sales tests (src/http/sales*.test.ts): the control plane routes that make
// sales (interfaces.md section 3), look-ups of the demo fixture's references through the public API,
// exact cent arithmetic (rounded half away from zero, docs/spec-choices.md "Sales"), and the checks
// every sale document must pass (spec: Resources, Sale; rules 2, 3 and 5 of "What the service does").
import { expect } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, ORIGIN } from "./sim.js";

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DECIMAL = /^[0-9]+$/;
/** Spec, What the service does 5: ISO 8601 in UTC ending in Z (the choice adds milliseconds). */
export const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const SALE_STATUSES = ["completed", "partially_refunded", "refunded", "voided"] as const;

export interface SaleLine {
  id: string;
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  subtotal: number;
  tax_id: string;
  tax_total: number;
  total: number;
}

export interface Sale {
  id: string;
  status: string;
  outlet_id: string;
  customer_id: string | null;
  parent_sale_id: string | null;
  created_at: string;
  completed_at: string;
  subtotal: number;
  discount_total: number;
  tax_total: number;
  total: number;
  paid_total: number;
  line_items: SaleLine[];
  discounts: { id: string; name: string; amount: number }[];
  adjustments: { id: string; name: string; amount: number }[];
  taxes: { tax_id: string; name: string; rate: number; amount: number }[];
  payments: { id: string; payment_type_id: string; amount: number; paid_at: string }[];
  version: string;
}

export interface ListBody<T = Sale> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

// ---------------------------------------------------------------------------------------------
// Control plane (interfaces.md section 3)

export interface ControlReply {
  status: number;
  json: any;
}

export async function control(sim: Simulator, method: string, path: string, body?: unknown): Promise<ControlReply> {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** Moves the simulator clock (POST /_sim/clock {advance_seconds}); answers the new now. */
export async function advance(sim: Simulator, seconds: number): Promise<string> {
  const reply = await control(sim, "POST", "/clock", { advance_seconds: seconds });
  expect(reply.status, `POST /_sim/clock ${JSON.stringify(reply.json)}`).toBe(200);
  return reply.json.now as string;
}

export async function clockNow(sim: Simulator): Promise<string> {
  return (await control(sim, "GET", "/clock")).json.now as string;
}

/**
 * A success of a control route. The exact status of the sale routes is checked by its own test
 * (src/engine/sales/documents.test.ts, "Choices, Control plane and fixtures"); here any 2xx lets the other tests check
 * what they are about.
 */
function expectSuccess(reply: ControlReply, what: string): void {
  expect(reply.status >= 200 && reply.status < 300, `${what}: ${reply.status} ${JSON.stringify(reply.json)}`).toBe(
    true,
  );
}

export interface SaleBodyLine {
  product_id: string;
  quantity: number;
  unit_price: number;
}

export async function makeSale(
  sim: Simulator,
  body: { outlet_id: string; customer_id?: string; lines: SaleBodyLine[]; parked?: boolean },
): Promise<Sale> {
  const reply = await control(sim, "POST", "/stores/demo/sales", body);
  expectSuccess(reply, "POST /_sim/stores/demo/sales");
  return reply.json as Sale;
}

export async function makeRefund(
  sim: Simulator,
  saleId: string,
  lines?: { product_id: string; quantity: number }[],
): Promise<Sale> {
  const reply = await control(
    sim,
    "POST",
    `/stores/demo/sales/${saleId}/refunds`,
    lines === undefined ? {} : { lines },
  );
  expectSuccess(reply, `POST /_sim/stores/demo/sales/${saleId}/refunds`);
  return reply.json as Sale;
}

export async function makeVoid(sim: Simulator, saleId: string): Promise<Sale> {
  const reply = await control(sim, "POST", `/stores/demo/sales/${saleId}/void`);
  expectSuccess(reply, `POST /_sim/stores/demo/sales/${saleId}/void`);
  return reply.json as Sale;
}

// ---------------------------------------------------------------------------------------------
// Public API reads

export async function getSale(sim: Simulator, id: string, key = "sales:read"): Promise<Sale> {
  const reply = await call(sim, "GET", `/demo/v1/sales/${id}`, { key });
  expect(reply.status, `GET /sales/${id}: ${reply.text}`).toBe(200);
  expect(Object.keys(reply.json)).toEqual(["data"]);
  return reply.json.data as Sale;
}

/** One page of GET /sales with the given query (a string or a record of parameters). */
export async function listSales(
  sim: Simulator,
  query: string | Record<string, string> = "",
  key = "sales:read",
): Promise<ListBody> {
  const qs = typeof query === "string" ? query : new URLSearchParams(query).toString();
  const reply = await call(sim, "GET", `/demo/v1/sales${qs ? `?${qs}` : ""}`, { key });
  expect(reply.status, `GET /sales?${qs}: ${reply.text}`).toBe(200);
  expect(Object.keys(reply.json).sort()).toEqual(["data", "has_more", "next_cursor"]);
  return reply.json as ListBody;
}

/** Every visible sale in one page (limit 200 is more than the fixture and the tests make). */
export async function allSales(sim: Simulator, query: Record<string, string> = {}): Promise<Sale[]> {
  const page = await listSales(sim, { limit: "200", ...query });
  expect(page.has_more).toBe(false);
  return page.data;
}

// ---------------------------------------------------------------------------------------------
// The demo fixture's references, looked up through the public API

export interface DemoRefs {
  mainStreet: string;
  harbourFront: string;
  salesTax: { id: string; name: string; rate: number };
  walkIn: string;
  product: (sku: string) => { id: string; name: string; retail_price: number };
  customer: (code: string) => string;
  paymentType: (name: string) => string;
}

export async function demoRefs(sim: Simulator): Promise<DemoRefs> {
  const outlets = (await call(sim, "GET", "/demo/v1/outlets")).json.data as {
    id: string;
    name: string;
    default_tax_id: string;
  }[];
  const taxes = (await call(sim, "GET", "/demo/v1/taxes")).json.data as { id: string; name: string; rate: number }[];
  const products = (await call(sim, "GET", "/demo/v1/products?limit=200", { key: "full" })).json.data as {
    id: string;
    sku: string;
    name: string;
    retail_price: number;
  }[];
  const customers = (await call(sim, "GET", "/demo/v1/customers?limit=200", { key: "full" })).json.data as {
    id: string;
    customer_code: string;
    is_walk_in: boolean;
  }[];
  const paymentTypes = (await call(sim, "GET", "/demo/v1/payment-types")).json.data as { id: string; name: string }[];
  const outlet = (name: string) => {
    const found = outlets.find((o) => o.name === name);
    expect(found, `outlet ${name}`).toBeDefined();
    return found!;
  };
  const main = outlet("Main Street");
  const harbour = outlet("Harbour Front");
  const salesTax = taxes.find((t) => t.id === main.default_tax_id)!;
  // The hand-computed amounts below assume the fixture's 8.75% on both outlets.
  expect(salesTax).toStrictEqual({
    id: main.default_tax_id,
    name: "Sales Tax",
    rate: 0.0875,
    version: expect.any(String),
  });
  expect(harbour.default_tax_id).toBe(main.default_tax_id);
  const walkIns = customers.filter((c) => c.is_walk_in);
  expect(walkIns).toHaveLength(1);
  return {
    mainStreet: main.id,
    harbourFront: harbour.id,
    salesTax: { id: salesTax.id, name: salesTax.name, rate: salesTax.rate },
    walkIn: walkIns[0]!.id,
    product: (sku) => {
      const found = products.find((p) => p.sku === sku);
      expect(found, `product ${sku}`).toBeDefined();
      return { id: found!.id, name: found!.name, retail_price: found!.retail_price };
    },
    customer: (code) => {
      const found = customers.find((c) => c.customer_code === code);
      expect(found, `customer ${code}`).toBeDefined();
      return found!.id;
    },
    paymentType: (name) => {
      const found = paymentTypes.find((p) => p.name === name);
      expect(found, `payment type ${name}`).toBeDefined();
      return found!.id;
    },
  };
}

/** The demo fixture's sales (scenarios/fixtures/demo-people.ts), named. */
export interface DemoSales {
  alice: Sale;
  walkIn: Sale;
  bob: Sale;
  bobRefund: Sale;
  carmen: Sale;
  carmenRefund: Sale;
  dev: Sale;
  voided: Sale;
  erin: Sale;
}

export function nameDemoSales(refs: DemoRefs, sales: Sale[]): DemoSales {
  const originalOf = (code: string) => {
    const found = sales.filter((s) => s.parent_sale_id === null && s.customer_id === refs.customer(code));
    expect(found, `the fixture sale of ${code}`).toHaveLength(1);
    return found[0]!;
  };
  const refundOf = (sale: Sale) => {
    const found = sales.filter((s) => s.parent_sale_id === sale.id);
    expect(found, `the refund of ${sale.id}`).toHaveLength(1);
    return found[0]!;
  };
  const walkIns = sales.filter((s) => s.customer_id === refs.walkIn && s.parent_sale_id === null);
  expect(walkIns.map((s) => s.status).sort()).toEqual(["completed", "voided"]);
  const bob = originalOf("BOB");
  const carmen = originalOf("CARMEN");
  return {
    alice: originalOf("ALICE"),
    walkIn: walkIns.find((s) => s.status === "completed")!,
    bob,
    bobRefund: refundOf(bob),
    carmen,
    carmenRefund: refundOf(carmen),
    dev: originalOf("DEV"),
    voided: walkIns.find((s) => s.status === "voided")!,
    erin: originalOf("ERIN"),
  };
}

// ---------------------------------------------------------------------------------------------
// Exact cents

/** n / d rounded half away from zero, in exact integer arithmetic (n, d safe integers, d > 0). */
export function divHalfAway(n: number, d: number): number {
  const a = Math.abs(n);
  let q = Math.floor(a / d);
  if (2 * (a - q * d) >= d) q += 1;
  return n < 0 ? -q : q;
}

/** Choices, Sales (Amounts): line subtotal = quantity × unit price, rounded half away from zero. */
export const lineSubtotal = (quantity: number, unitPrice: number): number =>
  divHalfAway(Math.round(quantity * 1000) * unitPrice, 1000);

/** Choices, Sales (Amounts): line tax = subtotal × rate (a fraction of at most 4 decimals), rounded half away from zero. */
export const lineTax = (subtotal: number, rate: number): number =>
  divHalfAway(subtotal * Math.round(rate * 10000), 10000);

// ---------------------------------------------------------------------------------------------
// Checks of a sale document

/**
 * Spec, Resources: Sale, and Choices, Sales (fields beyond those named): every field present with its
 * type, nothing else; money integer cents (rule 2); timestamps UTC ending in Z (rule 5).
 */
export function expectSaleShape(sale: Sale): void {
  const uuid = expect.stringMatching(UUID);
  const utc = expect.stringMatching(UTC);
  const number = expect.any(Number);
  expect(sale).toStrictEqual({
    id: uuid,
    status: expect.any(String),
    outlet_id: uuid,
    customer_id: uuid,
    parent_sale_id: sale.parent_sale_id === null ? null : uuid,
    created_at: utc,
    completed_at: utc,
    subtotal: number,
    discount_total: number,
    tax_total: number,
    total: number,
    paid_total: number,
    line_items: (sale.line_items ?? []).map(() => ({
      id: uuid,
      product_id: uuid,
      name: expect.any(String),
      quantity: number,
      unit_price: number,
      subtotal: number,
      tax_id: uuid,
      tax_total: number,
      total: number,
    })),
    discounts: [],
    adjustments: [],
    taxes: (sale.taxes ?? []).map(() => ({ tax_id: uuid, name: expect.any(String), rate: number, amount: number })),
    payments: (sale.payments ?? []).map(() => ({ id: uuid, payment_type_id: uuid, amount: number, paid_at: utc })),
    version: expect.stringMatching(DECIMAL),
  });
  expect(SALE_STATUSES).toContain(sale.status);
  expect(sale.line_items.length).toBeGreaterThan(0);
  const cents = [
    sale.subtotal,
    sale.discount_total,
    sale.tax_total,
    sale.total,
    sale.paid_total,
    ...sale.line_items.flatMap((l) => [l.unit_price, l.subtotal, l.tax_total, l.total]),
    ...sale.taxes.map((t) => t.amount),
    ...sale.payments.map((p) => p.amount),
  ];
  for (const c of cents) expect(Number.isInteger(c), `${c} is integer cents`).toBe(true);
}

/**
 * Choices, Sales: "a document whose cents add up": total = subtotal + tax_total, paid_total = the sum
 * of payments, each line's total = subtotal + tax_total, taxes sum the lines (per tax and in all).
 */
export function expectCentsAddUp(sale: Sale): void {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  expect(sale.discount_total).toBe(0);
  expect(sale.subtotal).toBe(sum(sale.line_items.map((l) => l.subtotal)));
  expect(sale.tax_total).toBe(sum(sale.line_items.map((l) => l.tax_total)));
  expect(sale.total).toBe(sale.subtotal + sale.tax_total);
  expect(sale.paid_total).toBe(sum(sale.payments.map((p) => p.amount)));
  expect(sale.paid_total).toBe(sale.total);
  for (const line of sale.line_items) expect(line.total).toBe(line.subtotal + line.tax_total);
  const taxIds = [...new Set(sale.line_items.map((l) => l.tax_id))].sort();
  expect(sale.taxes.map((t) => t.tax_id).sort()).toEqual(taxIds);
  for (const tax of sale.taxes) {
    expect(tax.amount).toBe(sum(sale.line_items.filter((l) => l.tax_id === tax.tax_id).map((l) => l.tax_total)));
  }
  expect(sum(sale.taxes.map((t) => t.amount))).toBe(sale.tax_total);
}

/** Both checks, for every sale a test sees. */
export function expectValidSale(sale: Sale): void {
  expectSaleShape(sale);
  expectCentsAddUp(sale);
}
