import type { Reply, RuleContext, RunState } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import { storePrefix } from "./access.js";
import { createProduct, outletIds } from "./inventory.js";
import { controlDocOf, type Customer, dataOf, errorCode, errorOf, pageOf, type Sale } from "../../shapes.js";

// Helpers of the customer and sales rules. Customers are created by the run (tracked, erased at the
// end) and only those are ever deleted; sales are only made through a control plane.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const isUtc = (v: unknown): boolean => typeof v === "string" && UTC.test(v) && !Number.isNaN(Date.parse(v));

/** A customer of this run, tracked so the run erases it at the end. Creates answer 200 or 201. */
export async function createCustomer(ctx: RuleContext, body: Record<string, unknown> = {}): Promise<Customer> {
  const reply = await ctx.call("POST", "/customers", { body: { first_name: ctx.name("first"), ...body } });
  ctx.status(reply, 200, 201);
  const doc = dataOf<Customer>(reply);
  if (typeof doc?.id !== "string") throw new Mismatch("the created customer in data", reply.text.slice(0, 200));
  ctx.track(`/customers/${doc.id}`);
  return doc;
}

/** The run already deleted it: no second delete at cleanup (customer requests have their own limit). */
export function untrack(ctx: RuleContext, path: string): void {
  const at = ctx.run.cleanup.lastIndexOf(path);
  if (at >= 0) ctx.run.cleanup.splice(at, 1);
}

export interface Polled<T> {
  readonly rows: T[];
  /** The cursor to hold for the next poll. */
  readonly cursor: string | null;
  /** Keys (`id@version`) of a last non-empty page that came with next_cursor null: the next poll reads them again. */
  readonly reread: Set<string>;
}

export const rowKey = (row: { id: string; version: string }): string => `${row.id}@${row.version}`;

/**
 * Reads a list from a held cursor (or from the start) to its end, as a polling client does
 * (Pagination rules 1 and 2). Skips the rule when the list is longer than `maxPages` pages of 200.
 */
export async function poll<T extends { readonly id: string; readonly version: string }>(
  ctx: RuleContext,
  list: string,
  query: string,
  cursor: string | null,
  maxPages = 10,
): Promise<Polled<T>> {
  const rows: T[] = [];
  const seen = new Set<string>();
  let held = cursor;
  for (let page = 0; page < maxPages; page++) {
    const params = [query, "limit=200", held ? `cursor=${encodeURIComponent(held)}` : ""].filter(Boolean).join("&");
    const reply = await ctx.call("GET", `${list}?${params}`);
    ctx.status(reply, 200);
    const got = pageOf<T>(reply);
    const { next_cursor, has_more } = got ?? {};
    if (!got || typeof has_more !== "boolean")
      throw new Mismatch("a list page {data, next_cursor, has_more}", reply.text.slice(0, 200));
    const data = got.data;
    // Pagination 1: one walk meets each change of a row once; a cursor that leads back is a loop, not a long list.
    for (const row of data) {
      const key = typeof row?.id === "string" ? rowKey(row) : undefined;
      if (key !== undefined && seen.has(key))
        throw new Mismatch(
          "each row once in a walk of the list (Pagination 1)",
          `${list} served ${key} again on page ${page + 1}`,
        );
      if (key !== undefined) seen.add(key);
    }
    if (has_more && typeof next_cursor === "string" && next_cursor === held)
      throw new Mismatch(
        "a next_cursor past the page it was given for",
        `${list} answered has_more true with the cursor it was given`,
      );
    rows.push(...data);
    if (typeof next_cursor === "string") held = next_cursor;
    else if (has_more) throw new Mismatch("a next_cursor while has_more is true", JSON.stringify(next_cursor));
    if (!has_more)
      return { rows, cursor: held, reread: new Set(typeof next_cursor === "string" ? [] : data.map(rowKey)) };
  }
  throw new Skip(`${list} is longer than ${maxPages} pages of 200; too long to walk here`);
}

/** What the sales rules that need a control plane use: the store prefix, an outlet, a product of the run and a customer. */
export interface SalesSetup {
  readonly prefix: string;
  readonly outlet: string;
  readonly product: string;
  readonly customer: string;
}

/** One customer per run for the sales the run makes: the customer_id filter keeps their feed small. */
const salesCustomers = new WeakMap<RunState, Promise<string>>();

export async function salesSetup(ctx: RuleContext): Promise<SalesSetup> {
  const prefix = await storePrefix(ctx);
  const [outlet] = await outletIds(ctx);
  const product = (await createProduct(ctx)).id;
  let customer = salesCustomers.get(ctx.run);
  if (!customer) {
    customer = createCustomer(ctx, { last_name: "sales" }).then((c) => c.id as string);
    salesCustomers.set(ctx.run, customer);
    customer.catch(() => salesCustomers.delete(ctx.run));
  }
  return { prefix, outlet, product, customer: await customer };
}

const controlDoc = (ctx: RuleContext, reply: Reply, what: string): Sale => {
  if (
    reply.status === 404 &&
    errorCode(reply) === "NOT_FOUND" &&
    /No control route/i.test(String(errorOf(reply)?.message ?? ""))
  )
    throw new Skip(`the control plane cannot ${what}`);
  ctx.check(
    reply.status === 200 || reply.status === 201,
    `the control plane to ${what} (200 or 201)`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  const doc = controlDocOf(reply);
  if (typeof doc?.id !== "string")
    throw new Mismatch(`the sale document from the control plane after it ${what}`, reply.text.slice(0, 200));
  return doc as unknown as Sale; // docs/interfaces.md, Control plane: the sale document of the API
};

/** docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/sales: a completed sale at the clock's now. */
export async function makeSale(
  ctx: RuleContext,
  s: SalesSetup,
  units = 2,
  customer: string = s.customer,
): Promise<Sale> {
  const body = {
    outlet_id: s.outlet,
    customer_id: customer,
    lines: [{ product_id: s.product, quantity: units, unit_price: 1999 }],
  };
  return controlDoc(ctx, await ctx.control("POST", `/stores/${s.prefix}/sales`, body), "make a sale");
}

/** docs/interfaces.md, Control plane: a refund of `units` of the sale's product (left out: the rest). */
export async function refundSale(ctx: RuleContext, s: SalesSetup, saleId: string, units?: number): Promise<Sale> {
  const body = units === undefined ? {} : { lines: [{ product_id: s.product, quantity: units }] };
  return controlDoc(
    ctx,
    await ctx.control("POST", `/stores/${s.prefix}/sales/${saleId}/refunds`, body),
    "refund a sale",
  );
}

export async function voidSale(ctx: RuleContext, s: SalesSetup, saleId: string): Promise<Sale> {
  return controlDoc(ctx, await ctx.control("POST", `/stores/${s.prefix}/sales/${saleId}/void`), "void a sale");
}

/** `GET /sales/{id}`: 200 and the document. */
export async function readSale(ctx: RuleContext, id: string): Promise<Sale> {
  const reply = await ctx.call("GET", `/sales/${id}`);
  ctx.status(reply, 200);
  const sale = dataOf<Sale>(reply);
  if (sale?.id !== id) throw new Mismatch(`{data: the sale ${id}}`, reply.text.slice(0, 200));
  return sale;
}
