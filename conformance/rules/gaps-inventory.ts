import fc from "fast-check";
import { Skip, type Reply, type RuleContext } from "../context.js";
import type { Rule } from "../types.js";
import { poolProducts } from "./catalog-support.js";
import {
  adjust,
  batch,
  createProduct,
  findAdjustReason,
  levelKey,
  levels,
  namesLine,
  outletIds,
  prepareLevel,
  reasons,
  setStock,
  snapshot,
  unchanged,
} from "./inventory-support.js";
import { storePrefix } from "./people-support.js";
import { rule, SPEC } from "./rule.js";

// Inventory sentences no other rule checked: the level's version, the shape and count of batch lines,
// and a disabled adjustment reason. Every rule stocks only products of the run.

/** A refused batch: 400 or 422 in the error envelope naming line `index` (or a field inside it). */
function refusesLine(ctx: RuleContext, reply: Reply, index: number, what: string): void {
  ctx.check(
    reply.status === 400 || reply.status === 422,
    `${what}: 400 or 422`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  ctx.envelope(reply);
  ctx.check(
    namesLine(reply, index),
    `${what}: error.fields naming lines.${index} or a field inside it`,
    JSON.stringify(reply.json?.error?.fields ?? null),
  );
}

type BadLine =
  | "set-and-adjust"
  | "neither-set-nor-adjust"
  | "product-id-and-sku"
  | "neither-product-id-nor-sku"
  | "no-outlet";
const BAD_LINES: readonly BadLine[] = [
  "set-and-adjust",
  "neither-set-nor-adjust",
  "product-id-and-sku",
  "neither-product-id-nor-sku",
  "no-outlet",
];

export const inventoryGapRules: Rule[] = [
  rule({
    id: "inventory.level-version-rises",
    area: "Inventory",
    title: "A stock level's version is a bigint as a string and rises with every change of the level",
    spec: { section: SPEC.resources, quote: "version | string (bigint as string)" },
    cost: 16,
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx);
      // Spec, Resources: InventoryLevel `version` is "bigint as string"; every row's version "increases with every change to that row".
      const steps = fc
        .array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 4 })
        .map((qs) => qs.map((q) => q / 1000));
      await ctx.property(
        steps,
        async (quantities) => {
          let last = (await levels(ctx, product.id)).get(outlet!);
          for (const q of quantities) {
            await prepareLevel(ctx, product.id, outlet!, q);
            const now = (await levels(ctx, product.id)).get(outlet!);
            ctx.check(
              now !== undefined && /^\d+$/.test(String(now.version)),
              "a level row whose version is a bigint as a string",
              levelKey(now),
            );
            if (last !== undefined) {
              const moved = now!.on_hand !== last.on_hand;
              const rose = BigInt(now!.version) > BigInt(last.version);
              ctx.check(
                moved ? rose : now!.version === last.version,
                moved
                  ? `a higher version than ${last.version} after on_hand ${last.on_hand} -> ${q}`
                  : `version ${last.version} kept when on_hand stays ${q}`,
                levelKey(now),
              );
            }
            last = now;
          }
        },
        Math.min(ctx.run.runs, 4),
      );
    },
  }),

  rule({
    id: "inventory.batch-line-shape",
    area: "Inventory",
    title:
      "A batch line without exactly one of set or adjust, exactly one of product_id or sku, or without outlet_id is refused naming the line, and the batch writes nothing",
    spec: {
      section: SPEC.inventory,
      quote:
        "Each batch line has exactly one of set (absolute) or adjust (relative), and exactly one of product_id or sku, plus outlet_id.",
    },
    cost: 40,
    leniency: "400 or 422, naming the line (lines.N) or a field inside it.",
    async run(ctx) {
      const outlets = await outletIds(ctx);
      const reason = (await reasons(ctx)).find((r) => !r.is_system);
      const product = await createProduct(ctx);
      const other = await createProduct(ctx);
      await prepareLevel(ctx, product.id, outlets[0]!, 5);
      const adjustment = { quantity: 1, ...(reason ? { reason_id: reason.id } : {}) };
      const badLine = (kind: BadLine): Record<string, unknown> => {
        const line = { product_id: product.id, outlet_id: outlets[0], set: { on_hand: 6 } };
        switch (kind) {
          case "set-and-adjust":
            return { ...line, adjust: adjustment };
          case "neither-set-nor-adjust":
            return { product_id: product.id, outlet_id: outlets[0] };
          case "product-id-and-sku":
            return { ...line, sku: product.sku };
          case "neither-product-id-nor-sku":
            return { outlet_id: outlets[0], set: { on_hand: 6 } };
          case "no-outlet":
            return { product_id: product.id, set: { on_hand: 6 } };
        }
      };
      // Each case tries every kind of bad line, next to a good one (before or after it).
      await ctx.property(
        fc.record({ first: fc.boolean(), q: fc.integer({ min: 1, max: 1_000_000 }) }),
        async ({ first, q }) => {
          for (const kind of BAD_LINES) {
            const before = await snapshot(ctx, [product.id, other.id]);
            const good = { product_id: other.id, outlet_id: outlets[0], set: { on_hand: q / 1000 } };
            const lines = first ? [badLine(kind), good] : [good, badLine(kind)];
            refusesLine(ctx, await batch(ctx, lines), first ? 0 : 1, `a batch with a line of ${kind}`);
            await unchanged(ctx, [product.id, other.id], before);
          }
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),

  rule({
    id: "inventory.batch-line-count",
    area: "Inventory",
    title: "A batch of no lines, or of 101 lines, answers 400 VALIDATION_FAILED and writes nothing",
    spec: { section: SPEC.limits, quote: "Batch lines | 100" },
    cost: 70,
    leniency: "The 101 lines are otherwise valid sets of distinct product and outlet pairs of the run's own products.",
    async run(ctx) {
      const outlets = await outletIds(ctx);
      // Spec, Endpoints: POST /inventory/batch takes "1 to 100 lines".
      ctx.error(await batch(ctx, []), 400, "VALIDATION_FAILED", ["lines"]);
      const products = await poolProducts(ctx, Math.ceil(101 / outlets.length));
      const lines = products
        .flatMap((p) => outlets.map((outlet_id) => ({ product_id: p.id, outlet_id, set: { on_hand: 1 } })))
        .slice(0, 101);
      const watched = [products[0]!.id, products[products.length - 1]!.id];
      const before = await snapshot(ctx, watched);
      const reply = await batch(ctx, lines);
      ctx.check(
        reply.status === 400 && reply.json?.error?.code === "VALIDATION_FAILED",
        "a batch of 101 lines: 400 VALIDATION_FAILED",
        `status ${reply.status} ${reply.text.slice(0, 200)}`,
      );
      ctx.envelope(reply);
      await unchanged(ctx, watched, before);
    },
  }),

  rule({
    id: "inventory.disabled-reason-refused",
    area: "Inventory",
    title:
      "A disabled adjustment reason answers 422 REASON_NOT_ALLOWED to an adjustment and to a set, and nothing is written",
    spec: { section: SPEC.inventory, quote: "422 REASON_NOT_ALLOWED (system reason or disabled reason)" },
    cost: 16,
    needs: { control: true },
    leniency:
      "Reasons are disabled through the control plane (PATCH /_sim/stores/{prefix}/adjustment-reasons/{id}) and enabled again after.",
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const prefix = await storePrefix(ctx);
      const all = await reasons(ctx);
      const product = await createProduct(ctx);
      await prepareLevel(ctx, product.id, outlet!, 5);
      // A reason that records an increase, so the writes below differ from accepted ones only by the reason being disabled.
      const reason = await findAdjustReason(ctx, all, product.id, outlet!, 1);
      const path = `/stores/${encodeURIComponent(prefix)}/adjustment-reasons/${reason.id}`;
      const disabled = await ctx.control("PATCH", path, { enabled: false });
      if (disabled.status !== 200)
        throw new Skip(`the control plane did not disable a reason (status ${disabled.status})`);
      try {
        const before = await snapshot(ctx, [product.id]);
        const level = (await levels(ctx, product.id)).get(outlet!)!;
        ctx.error(
          await adjust(ctx, { product_id: product.id, outlet_id: outlet, reason_id: reason.id, quantity: 1 }),
          422,
          "REASON_NOT_ALLOWED",
        );
        ctx.error(
          await setStock(ctx, product.id, outlet!, { on_hand: level.on_hand + 2, reason_id: reason.id }),
          422,
          "REASON_NOT_ALLOWED",
        );
        await unchanged(ctx, [product.id], before);
      } finally {
        const enabled = await ctx.control("PATCH", path, { enabled: true });
        if (enabled.status !== 200)
          throw new Error(`could not enable the reason ${reason.name} again: status ${enabled.status}`);
      }
      ctx.status(
        await adjust(ctx, { product_id: product.id, outlet_id: outlet, reason_id: reason.id, quantity: 1 }),
        200,
        201,
      );
    },
  }),
];
