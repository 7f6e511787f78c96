import type { Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  dataOf,
  errorCode,
  errorFields,
  expectRows,
  type InventoryLevel,
  type Outlet,
  type Product,
  type Reason,
  rowsOf,
} from "../../shapes.js";

// Helpers of the inventory rules: every rule stocks products it created itself (named by the run,
// deleted at the end), at outlets read from GET /outlets, so shared stock is never touched.

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID that no target has issued (version 4 form, fixed). */
export const UNKNOWN_ID = "00000000-0000-4000-8000-00000000c0de";

export type { Reason };
export type Level = InventoryLevel;

/** Quantities in thousandths, the spec's precision: differences are compared this way (0.1 + 0.2 is 0.3). */
export const milli = (q: number): number => Math.round(q * 1000);

/** Ids of the store's live outlets, in list order; skips the rule when it needs more than there are. */
export async function outletIds(ctx: RuleContext, atLeast = 1): Promise<[string, ...string[]]> {
  const reply = await ctx.call("GET", "/outlets?limit=200");
  ctx.status(reply, 200);
  const ids = (rowsOf<Outlet>(reply) ?? []).map((o) => o.id);
  const [first, ...rest] = ids;
  if (first === undefined || ids.length < atLeast)
    throw new Skip(`needs at least ${atLeast} outlet(s); GET /outlets lists ${ids.length}`);
  return [first, ...rest];
}

/** A product of this run (tracked for cleanup). Creates answer 200 or 201 (the spec does not fix it). */
export async function createProduct(
  ctx: RuleContext,
  extra: Record<string, unknown> = {},
): Promise<{ id: string; sku: string; doc: Product }> {
  const reply = await ctx.call("POST", "/products", {
    body: { name: ctx.name("stock"), retail_price: 1250, ...extra },
  });
  if (reply.status === 402 && errorCode(reply) === "PRODUCT_LIMIT_REACHED")
    throw new Skip("the store is at its product limit; the rule needs a product of its own");
  ctx.status(reply, 200, 201);
  const doc = dataOf<Product>(reply);
  if (typeof doc?.id !== "string") throw new Mismatch("the created product in data", reply.text.slice(0, 200));
  ctx.track(`/products/${doc.id}`);
  return { id: doc.id, sku: doc.sku, doc };
}

/** `GET /products/{id}/inventory`, checked for shape, by outlet. */
export async function levels(ctx: RuleContext, productId: string): Promise<Map<string, Level>> {
  const reply = await ctx.call("GET", `/products/${productId}/inventory`);
  ctx.status(reply, 200);
  const rows = rowsOf<Level>(reply);
  if (!rows) throw new Mismatch("{data: [InventoryLevel]}", reply.text.slice(0, 200));
  const byOutlet = new Map<string, Level>();
  for (const row of rows) {
    ctx.check(
      typeof row?.outlet_id === "string" && typeof row.on_hand === "number" && typeof row.version === "string",
      "InventoryLevel rows with outlet_id, on_hand (number) and version (string)",
      JSON.stringify(row),
    );
    ctx.check(!byOutlet.has(row.outlet_id), "one row per outlet", `outlet ${row.outlet_id} twice`);
    byOutlet.set(row.outlet_id, row);
  }
  return byOutlet;
}

/** What a level looks like to a comparison: absent, or its on_hand and version. */
export const levelKey = (level: Level | undefined): string => (level ? `${level.on_hand}@${level.version}` : "absent");

/** Levels of several products, by product and outlet. */
export async function levelsOf(
  ctx: RuleContext,
  productIds: readonly string[],
): Promise<Map<string, Map<string, Level>>> {
  const all = new Map<string, Map<string, Level>>();
  for (const id of productIds) all.set(id, await levels(ctx, id));
  return all;
}

/** Levels of several products as one comparable text. */
export const describeLevels = (all: Map<string, Map<string, Level>>): string =>
  [...all]
    .map(
      ([id, byOutlet]) =>
        `${id}: ${
          [...byOutlet.values()]
            .map((l) => `${l.outlet_id}=${levelKey(l)}`)
            .sort()
            .join(", ") || "no rows"
        }`,
    )
    .join("; ");

/** Levels of several products, as one comparable text. */
export async function snapshot(ctx: RuleContext, productIds: readonly string[]): Promise<string> {
  return describeLevels(await levelsOf(ctx, productIds));
}

/**
 * A refused write writes nothing: the levels of these products read again as `before` (a {@link snapshot}
 * taken ahead of the write), every on_hand and version the same. `what` names the expectation.
 */
export async function unchanged(
  ctx: RuleContext,
  productIds: readonly string[],
  before: string,
  what = "nothing written",
): Promise<void> {
  const after = await snapshot(ctx, productIds);
  ctx.check(after === before, `${what} (${before})`, after);
}

/** An Idempotency-Key no other request of any run has used. */
export const freshKey = (ctx: RuleContext): string => ctx.name("key");

export function setStock(
  ctx: RuleContext,
  productId: string,
  outletId: string,
  body: Record<string, unknown>,
): Promise<Reply> {
  return ctx.call("PUT", `/products/${productId}/inventory/${outletId}`, { body });
}

/** A set that must succeed (preparing a level); answers 200 or 201. */
export async function prepareLevel(
  ctx: RuleContext,
  productId: string,
  outletId: string,
  onHand: number,
): Promise<void> {
  const reply = await setStock(ctx, productId, outletId, { on_hand: onHand });
  ctx.status(reply, 200, 201);
}

export function batch(ctx: RuleContext, lines: unknown[], key: string | null = freshKey(ctx)): Promise<Reply> {
  return ctx.call("POST", "/inventory/batch", {
    body: { lines },
    headers: key === null ? {} : { "idempotency-key": key },
  });
}

export function adjust(
  ctx: RuleContext,
  body: Record<string, unknown>,
  key: string | null = freshKey(ctx),
): Promise<Reply> {
  return ctx.call("POST", "/inventory/adjustments", { body, headers: key === null ? {} : { "idempotency-key": key } });
}

export async function reasons(ctx: RuleContext): Promise<Reason[]> {
  const reply = await ctx.call("GET", "/inventory/adjustment-reasons");
  ctx.status(reply, 200);
  return [...expectRows<Reason>(reply, "{data: [AdjustmentReason]}")];
}

/** The system reason of Inventory rule 1 ("Stock set via API"), else any system reason. */
export const systemReason = (all: readonly Reason[]): Reason | undefined =>
  all.find((r) => r.is_system && r.name === "Stock set via API") ?? all.find((r) => r.is_system);

/**
 * A reason that accepts an adjustment in the given direction, found by trying each non-system reason
 * with a change of one unit (the spec does not fix the AdjustmentReason `type` values). The successful
 * try is a real adjustment: the level moves by `sign`. Skips the rule when no reason accepts it.
 */
export async function findAdjustReason(
  ctx: RuleContext,
  all: readonly Reason[],
  productId: string,
  outletId: string,
  sign: 1 | -1,
): Promise<Reason> {
  for (const reason of all.filter((r) => !r.is_system)) {
    const reply = await adjust(ctx, {
      product_id: productId,
      outlet_id: outletId,
      reason_id: reason.id,
      quantity: sign,
    });
    if (reply.status === 200 || reply.status === 201) return reason;
    if (reply.status !== 422)
      throw new Mismatch(
        `a valid adjustment with reason "${reason.name}" to answer 200, 201 or a 422 reason refusal`,
        `status ${reply.status} ${reply.text.slice(0, 200)}`,
      );
  }
  throw new Skip(`no listed adjustment reason accepted ${sign > 0 ? "an increase" : "a decrease"}`);
}

/** Field names of an error envelope. */
export const fieldsOf = errorFields;

/** Spec, Errors: nested fields are named with dots (`lines.2`); a line is named by it or a field inside it. */
export const namesLine = (reply: Reply, index: number): boolean =>
  fieldsOf(reply).some((f) => f === `lines.${index}` || f.startsWith(`lines.${index}.`));
