import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import { poolProducts } from "../support/catalog.js";
import {
  batch,
  createProduct,
  namesLine,
  outletIds,
  prepareLevel,
  reasons,
  snapshot,
  unchanged,
} from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";
import { errorCode, errorOf, exactError } from "../../shapes.js";

// Spec, Inventory rules: the shape of a batch line (set or adjust, product_id or sku, an outlet) and
// the number of lines in a batch. Every rule stocks only products of the run.

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
    JSON.stringify(errorOf(reply)?.fields ?? null),
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

/** What the simulator names in a refused line, after `lines.N` (docs/spec-choices.md, "Exactly one of ..."). */
const NAMED: Record<BadLine, string> = {
  "set-and-adjust": "",
  "neither-set-nor-adjust": "",
  "product-id-and-sku": ".product_id",
  "neither-product-id-nor-sku": ".product_id",
  "no-outlet": ".outlet_id",
};

export const batchLineRules: Rule[] = [
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
    choices: ["Exactly one of `set`/`adjust`, `product_id`/`sku`"],
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
            const reply = await batch(ctx, lines);
            refusesLine(ctx, reply, first ? 0 : 1, `a batch with a line of ${kind}`);
            const field = `lines.${first ? 0 : 1}${NAMED[kind]}`;
            ctx.choice(
              "Exactly one of `set`/`adjust`, `product_id`/`sku`",
              exactError(reply, 400, "VALIDATION_FAILED", field),
              `a batch with a line of ${kind}: 400 VALIDATION_FAILED naming ${field}`,
              reply.text.slice(0, 300),
            );
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
        reply.status === 400 && errorCode(reply) === "VALIDATION_FAILED",
        "a batch of 101 lines: 400 VALIDATION_FAILED",
        `status ${reply.status} ${reply.text.slice(0, 200)}`,
      );
      ctx.envelope(reply);
      await unchanged(ctx, watched, before);
    },
  }),
];
