import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  UUID,
  adjust,
  batch,
  createProduct,
  findAdjustReason,
  levelKey,
  levels,
  milli,
  outletIds,
  prepareLevel,
  reasons,
  setStock,
  snapshot,
  unchanged,
} from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";
import { dataOf, errorFields, errorOf, type InventoryLevel as Level, type StockWrite } from "../../shapes.js";

// Inventory rules 1, 4 and 5, the InventoryLevel and stock write result records, and the Idempotency-Key
// requirement of stock writes. The reasons a write refuses (system, disabled, wrong direction) and the
// level's version rising with each change are in reasons.ts. Every rule stocks only products it created.

/** Spec, Resources: the stock write result `{changed, previous, on_hand, delta, adjustment_id, movement_id}`. */
export function writeResult(ctx: RuleContext, reply: Reply, onHand: number, previous?: number): StockWrite {
  ctx.status(reply, 200, 201);
  const d = dataOf<StockWrite>(reply);
  if (
    !(
      d !== undefined &&
      typeof d.changed === "boolean" &&
      typeof d.previous === "number" &&
      typeof d.on_hand === "number" &&
      typeof d.delta === "number" &&
      "adjustment_id" in d &&
      "movement_id" in d
    )
  )
    throw new Mismatch(
      "a stock write result {changed, previous, on_hand, delta, adjustment_id, movement_id} in data",
      reply.text.slice(0, 300),
    );
  ctx.check(d.on_hand === onHand, `on_hand ${onHand}, exactly as sent`, JSON.stringify(d.on_hand));
  if (previous !== undefined)
    ctx.check(d.previous === previous, `previous ${previous} (the level before the write)`, JSON.stringify(d.previous));
  ctx.check(milli(d.delta) === milli(d.on_hand) - milli(d.previous), "delta = on_hand - previous", JSON.stringify(d));
  ctx.check(d.changed === (milli(d.delta) !== 0), "changed true exactly when the level moved", JSON.stringify(d));
  if (d.changed) {
    ctx.check(
      UUID.test(String(d.adjustment_id)) && UUID.test(String(d.movement_id)),
      "adjustment_id and movement_id UUIDs on a change",
      JSON.stringify(d),
    );
  }
  return d;
}

/** Spec, Resources: InventoryLevel fields and their types. */
function levelShape(ctx: RuleContext, row: Level): void {
  const numberOrNull = (v: unknown) => v === null || typeof v === "number";
  ctx.check(
    UUID.test(String(row.outlet_id)) &&
      typeof row.on_hand === "number" &&
      typeof row.reorder_method === "string" &&
      numberOrNull(row.reorder_point) &&
      numberOrNull(row.reorder_amount) &&
      numberOrNull(row.reorder_target) &&
      typeof row.version === "string",
    "InventoryLevel {outlet_id, on_hand, reorder_method, reorder_point, reorder_amount, reorder_target, version}",
    JSON.stringify(row),
  );
}

/** 400 VALIDATION_FAILED naming the Idempotency-Key header, in a field or in the message. */
function namesHeader(ctx: RuleContext, reply: Reply): void {
  ctx.error(reply, 400, "VALIDATION_FAILED");
  const e = errorOf(reply);
  const named =
    errorFields(reply).some((f) => /idempotency-key/i.test(f)) || /idempotency-key/i.test(String(e?.message));
  ctx.check(named, "the error naming the Idempotency-Key header", JSON.stringify(e));
}

export const stockRules = [
  rule({
    id: "inventory.set-result",
    area: "Inventory",
    title: "PUT stock sets an absolute level and returns the write result; repeating the same on_hand changes nothing",
    spec: {
      section: SPEC.inventory,
      quote: "PUT sets an absolute level. Repeating the same on_hand changes nothing (changed false).",
    },
    cost: 6,
    leniency: "200 or 201; adjustment_id and movement_id may be null or ids when nothing changed.",
    choices: ["Success statuses", "Repeating the same `on_hand`", 'InventoryLevel `reorder_method` ("not shown")'],
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx);
      const set = await setStock(ctx, product.id, outlet, { on_hand: 12.5 });
      const first = writeResult(ctx, set, 12.5);
      ctx.choice("Success statuses", set.status === 200, "PUT stock: 200", `status ${set.status}`);
      ctx.check(first.changed === true, "changed true for a new level", JSON.stringify(first));
      const row = ctx.defined((await levels(ctx, product.id)).get(outlet), `a level row for outlet ${outlet}`, "none");
      levelShape(ctx, row);
      const { reorder_method, reorder_point, reorder_amount, reorder_target } = row;
      ctx.choice(
        'InventoryLevel `reorder_method` ("not shown")',
        JSON.stringify([reorder_method, reorder_point, reorder_amount, reorder_target]) === '["none",null,null,null]',
        "reorder_method none and reorder_point, reorder_amount, reorder_target null",
        JSON.stringify(row),
      );
      ctx.check(row.on_hand === 12.5, "on_hand 12.5 read back", JSON.stringify(row));
      const again = writeResult(ctx, await setStock(ctx, product.id, outlet, { on_hand: 12.5 }), 12.5, 12.5);
      ctx.check(
        again.changed === false && again.delta === 0,
        "changed false and delta 0 for the same on_hand",
        JSON.stringify(again),
      );
      ctx.choice(
        "Repeating the same `on_hand`",
        again.adjustment_id === null && again.movement_id === null,
        "adjustment_id and movement_id null when nothing changed",
        JSON.stringify(again),
      );
      const after = (await levels(ctx, product.id)).get(outlet);
      ctx.check(
        levelKey(after) === levelKey(row),
        `the level and its version unchanged (${levelKey(row)})`,
        levelKey(after),
      );
    },
  }),
  rule({
    id: "inventory.quantity-three-decimals",
    area: "Inventory",
    title: "Any quantity with up to 3 decimal places is set and read back exactly",
    spec: { section: SPEC.resources, quote: "on_hand | number, up to 3 decimal places" },
    cost: 17,
    leniency: "A set to 0 at an outlet never stocked may leave no level row.",
    choices: ["Setting a level at an outlet never stocked, to 0"],
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx);
      const quantity = fc
        .oneof(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 1_000_000_000 }))
        .map((n) => n / 1000);
      await ctx.property(
        quantity,
        async (q) => {
          const before = (await levels(ctx, product.id)).get(outlet);
          const result = writeResult(ctx, await setStock(ctx, product.id, outlet, { on_hand: q }), q, before?.on_hand);
          const after = (await levels(ctx, product.id)).get(outlet);
          if (before === undefined && q === 0)
            ctx.choice(
              "Setting a level at an outlet never stocked, to 0",
              after === undefined && result.changed === false,
              "changed false and no level row",
              `${JSON.stringify(result)}, level ${levelKey(after)}`,
            );
          if (after === undefined)
            ctx.check(q === 0 && before === undefined, `a level row with on_hand ${q}`, "no row");
          else ctx.check(after.on_hand === q, `on_hand ${q} read back exactly`, JSON.stringify(after.on_hand));
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "inventory.quantity-four-decimals-refused",
    area: "Inventory",
    title: "A quantity with a 4th decimal place answers 400 VALIDATION_FAILED and writes nothing",
    spec: {
      section: SPEC.errors,
      quote: "VALIDATION_FAILED | 400 | body, query parameter (including cursor) or Idempotency-Key header invalid",
    },
    cost: 14,
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx);
      await prepareLevel(ctx, product.id, outlet, 4);
      const before = await snapshot(ctx, [product.id]);
      const quantity = fc
        .integer({ min: 0, max: 10_000_000 })
        .filter((n) => n % 10 !== 0)
        .map((n) => n / 10000);
      await ctx.property(
        quantity,
        async (q) => {
          ctx.error(await setStock(ctx, product.id, outlet, { on_hand: q }), 400, "VALIDATION_FAILED");
          await unchanged(ctx, [product.id], before, "the level unchanged");
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "inventory.idempotency-key-required",
    area: "Inventory",
    title:
      "Adjustments and batches without Idempotency-Key answer 400 VALIDATION_FAILED naming the header, and write nothing",
    spec: {
      section: SPEC.errors,
      quote: "A missing Idempotency-Key on a route that requires one answers 400 VALIDATION_FAILED naming the header.",
    },
    cost: 9,
    leniency: "The header may be named in error.fields or in error.message.",
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const all = await reasons(ctx);
      const product = await createProduct(ctx);
      // A body that is valid in every other way, so only the header is wrong.
      const increase = await findAdjustReason(ctx, all, product.id, outlet, 1).catch((e) =>
        e instanceof Skip ? undefined : Promise.reject(e),
      );
      const before = await snapshot(ctx, [product.id]);
      if (increase)
        namesHeader(
          ctx,
          await adjust(ctx, { product_id: product.id, outlet_id: outlet, reason_id: increase.id, quantity: 2 }, null),
        );
      namesHeader(ctx, await batch(ctx, [{ product_id: product.id, outlet_id: outlet, set: { on_hand: 7 } }], null));
      await unchanged(ctx, [product.id], before);
    },
  }),
  rule({
    id: "inventory.insufficient-stock",
    area: "Inventory",
    title: "An adjustment that would take stock below zero answers 422 INSUFFICIENT_STOCK and writes nothing",
    spec: { section: SPEC.inventory, quote: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero)" },
    cost: 26,
    leniency: "Skipped when no listed adjustment reason accepts a decrease.",
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const all = await reasons(ctx);
      const product = await createProduct(ctx);
      await prepareLevel(ctx, product.id, outlet, 5);
      const decrease = await findAdjustReason(ctx, all, product.id, outlet, -1);
      const cases = fc.record({
        level: fc.integer({ min: 0, max: 1_000_000 }),
        over: fc.integer({ min: 1, max: 1_000_000 }),
      });
      await ctx.property(
        cases,
        async ({ level, over }) => {
          await prepareLevel(ctx, product.id, outlet, level / 1000);
          const before = await snapshot(ctx, [product.id]);
          const reply = await adjust(ctx, {
            product_id: product.id,
            outlet_id: outlet,
            reason_id: decrease.id,
            quantity: -(level + over) / 1000,
          });
          ctx.error(reply, 422, "INSUFFICIENT_STOCK");
          await unchanged(ctx, [product.id], before, "the level unchanged");
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "inventory.not-stock-tracked",
    area: "Inventory",
    title: "Stock writes for a product with has_inventory false answer 422 NOT_STOCK_TRACKED",
    spec: { section: SPEC.inventory, quote: "422 NOT_STOCK_TRACKED" },
    cost: 4,
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx, { has_inventory: false });
      ctx.check(
        product.doc.has_inventory === false,
        "the created product keeps has_inventory false",
        JSON.stringify(product.doc.has_inventory),
      );
      ctx.error(await setStock(ctx, product.id, outlet, { on_hand: 3 }), 422, "NOT_STOCK_TRACKED");
      ctx.error(
        await batch(ctx, [{ product_id: product.id, outlet_id: outlet, set: { on_hand: 3 } }]),
        422,
        "NOT_STOCK_TRACKED",
      );
    },
  }),
];
