import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  batch,
  createProduct,
  describeLevels,
  findAdjustReason,
  freshKey,
  levelKey,
  levels,
  levelsOf,
  namesLine,
  outletIds,
  reasons,
  snapshot,
  unchanged,
} from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";
import { type BadKind, badCases, batchWorld, buildBadBatch } from "./bad-batches.js";
import { type BatchLine, errorOf, exactError, rowsOf } from "../../shapes.js";

// Inventory rules 2, 3 and 5 on POST /inventory/batch. The bad batches are built in bad-batches.ts;
// OUTLET_DELETED is in outlet-deleted.ts.

function refused(ctx: RuleContext, reply: Reply, statuses: readonly number[], code: string | undefined): void {
  ctx.status(reply, ...statuses);
  if (code) ctx.error(reply, reply.status, code);
  else ctx.envelope(reply);
}

/** Spec, Resources: InventoryBatchLineResult. `sku` only on lines given by sku; `replayed` true only on a replay. */
function lineResults(
  ctx: RuleContext,
  reply: Reply,
  sent: readonly Record<string, unknown>[],
  replay: boolean,
): readonly BatchLine[] {
  ctx.status(reply, 200, 201);
  ctx.choice("Success statuses", reply.status === 200, "POST /inventory/batch: 200", `status ${reply.status}`);
  const data = rowsOf<BatchLine>(reply);
  if (data?.length !== sent.length)
    throw new Mismatch(`{data: [InventoryBatchLineResult]} with ${sent.length} lines`, reply.text.slice(0, 300));
  const numberOrNull = (v: unknown) => v === null || typeof v === "number";
  data.forEach((r, i) => {
    ctx.check(
      typeof r?.product_id === "string" &&
        typeof r.outlet_id === "string" &&
        (r.changed === null || typeof r.changed === "boolean") &&
        numberOrNull(r.previous) &&
        numberOrNull(r.on_hand) &&
        numberOrNull(r.delta),
      "lines {product_id, outlet_id, changed, previous, on_hand, delta}",
      JSON.stringify(r),
    );
    const bySku = sent[i]?.sku !== undefined;
    ctx.check(
      bySku ? typeof r.sku === "string" : !("sku" in r),
      bySku ? `line ${i} echoing its sku` : `no sku on line ${i}, given by product_id`,
      JSON.stringify(r),
    );
    if (replay)
      ctx.check(r.replayed === true, `replayed: true on every line of a replay (line ${i})`, JSON.stringify(r));
    else
      ctx.check(
        r.replayed === undefined || r.replayed === false,
        `replayed false or absent on line ${i} of a first answer`,
        JSON.stringify(r),
      );
    ctx.choice("`replayed`", r.replayed === replay, `replayed ${replay} on line ${i}`, JSON.stringify(r));
    ctx.choice(
      "`changed`, `previous`, `on_hand`, `delta` of batch lines",
      typeof r.changed === "boolean" && [r.previous, r.on_hand, r.delta].every((n) => typeof n === "number"),
      `changed, previous, on_hand and delta filled on line ${i}`,
      JSON.stringify(r),
    );
  });
  return data;
}

/** The field a refused body reference names (docs/spec-choices.md, "Unknown product or outlet"). */
const REFERENCE_FIELD: Partial<Record<BadKind, string>> = {
  "unknown-sku": "sku",
  "unknown-product": "product_id",
  "unknown-outlet": "outlet_id",
};

export const inventoryBatchRules = [
  rule({
    id: "inventory.batch-all-or-nothing",
    area: "Inventory",
    title: "A batch with one bad line anywhere writes nothing: every level and version stays as it was",
    spec: {
      section: SPEC.inventory,
      quote: "A batch is all or nothing: a bad line (for example an unknown sku) writes nothing.",
    },
    cost: 45,
    leniency: "An unknown product, sku or outlet may answer 404 or 422; a repeated pair 400, 409 or 422.",
    async run(ctx) {
      const w = await batchWorld(ctx);
      const watched = [...w.good, w.bad];
      await ctx.property(
        badCases(w),
        async (c) => {
          const now = await levelsOf(ctx, watched);
          const before = describeLevels(now);
          const { lines, statuses, code } = buildBadBatch(ctx, w, c, (p, o) => now.get(p)?.get(o)?.on_hand ?? 0);
          refused(ctx, await batch(ctx, lines), statuses, code);
          const after = await snapshot(ctx, watched);
          ctx.check(after === before, `every level and version unchanged: ${before}`, after);
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "inventory.batch-line-named",
    area: "Inventory",
    title: "A refused batch names the failing line in error.fields (lines.N or a field inside it)",
    spec: {
      section: SPEC.errors,
      quote:
        "fields appears only for field-specific problems; nested fields are named with dots (for example lines.2).",
    },
    cost: 15,
    leniency:
      "For a repeated pair, either of the two lines may be named. A 404 NOT_FOUND for an unknown product, sku or outlet may name no field.",
    choices: ["Unknown product or outlet", "A repeated product and outlet pair in a batch"],
    async run(ctx) {
      const w = await batchWorld(ctx);
      await ctx.property(
        badCases(w),
        async (c) => {
          const { lines, statuses, code, named, at } = buildBadBatch(ctx, w, c);
          const reply = await batch(ctx, lines);
          refused(ctx, reply, statuses, code);
          const field = REFERENCE_FIELD[c.kind];
          if (field)
            ctx.choice(
              "Unknown product or outlet",
              exactError(reply, 422, "UNPROCESSABLE", `lines.${at}.${field}`),
              `422 UNPROCESSABLE naming lines.${at}.${field}`,
              reply.text.slice(0, 300),
            );
          if (c.kind === "duplicate-pair")
            ctx.choice(
              "A repeated product and outlet pair in a batch",
              exactError(reply, 400, "VALIDATION_FAILED", `lines.${Math.max(...named)}`),
              `400 VALIDATION_FAILED naming the later line, lines.${Math.max(...named)}`,
              reply.text.slice(0, 300),
            );
          // A 404 NOT_FOUND for an unknown product, sku or outlet (docs/spec-choices.md: 404 or 422 for
          // body references) may name no field: the ambient checks allow none on NOT_FOUND.
          if (reply.status === 404 && errorOf(reply)?.fields === undefined) return;
          ctx.check(
            named.some((i) => namesLine(reply, i)),
            `error.fields naming ${named.map((i) => `lines.${i}`).join(" or ")}`,
            JSON.stringify(errorOf(reply)?.fields),
          );
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "inventory.batch-pair-once",
    area: "Inventory",
    title:
      "A product and outlet pair given twice in one batch (by id, or by id and by sku) is refused and writes nothing",
    spec: { section: SPEC.inventory, quote: "A product and outlet pair may appear only once per batch." },
    cost: 6,
    leniency: "400, 409 or 422.",
    choices: ["A repeated product and outlet pair in a batch"],
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx, { sku: ctx.name("Pair") });
      const before = await snapshot(ctx, [product.id]);
      const byId = { product_id: product.id, outlet_id: outlet };
      const laterLine = (reply: Reply) =>
        ctx.choice(
          "A repeated product and outlet pair in a batch",
          exactError(reply, 400, "VALIDATION_FAILED", "lines.1"),
          "400 VALIDATION_FAILED naming the later line, lines.1",
          reply.text.slice(0, 300),
        );
      const twiceById = await batch(ctx, [
        { ...byId, set: { on_hand: 1 } },
        { ...byId, set: { on_hand: 2 } },
      ]);
      refused(ctx, twiceById, [400, 409, 422], undefined);
      laterLine(twiceById);
      const byIdAndSku = await batch(ctx, [
        { ...byId, set: { on_hand: 1 } },
        { sku: product.sku.toUpperCase(), outlet_id: outlet, set: { on_hand: 2 } },
      ]);
      refused(ctx, byIdAndSku, [400, 404, 409, 422], undefined);
      laterLine(byIdAndSku);
      await unchanged(ctx, [product.id], before);
    },
  }),
  rule({
    id: "inventory.batch-sku-matching",
    area: "Inventory",
    title: "A batch sku matches a live product's sku without regard to case, and never a barcode or a deleted product",
    spec: {
      section: SPEC.inventory,
      quote: "A sku is matched case-insensitively against live products only, never against barcodes.",
    },
    cost: 11,
    leniency: "An unmatched sku may answer 404 or 422; the echoed sku may be as sent or the product's own.",
    choices: [
      "Success statuses",
      "`replayed`",
      "`changed`, `previous`, `on_hand`, `delta` of batch lines",
      "`sku` on a batch line result",
      "Unknown product or outlet",
    ],
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx, { sku: ctx.name("Sku") });
      const barcode = ctx.name("barcode");
      const coded = await createProduct(ctx, { codes: [{ type: "custom", code: barcode }] });
      const gone = await createProduct(ctx, { sku: ctx.name("Gone") });
      ctx.status(await ctx.call("DELETE", `/products/${gone.id}`), 204);
      const sku = product.sku === product.sku.toUpperCase() ? product.sku.toLowerCase() : product.sku.toUpperCase();
      ctx.check(sku !== product.sku, "a sku with letters (to vary their case)", product.sku);
      const sent = [{ sku, outlet_id: outlet, set: { on_hand: 2.5 } }];
      const [line] = lineResults(ctx, await batch(ctx, sent), sent, false);
      ctx.check(
        line?.product_id === product.id && line.outlet_id === outlet,
        `the line applied to product ${product.id}`,
        JSON.stringify(line),
      );
      ctx.check(
        String(line?.sku).toLowerCase() === product.sku.toLowerCase(),
        `the sku echoed (${sku})`,
        JSON.stringify(line?.sku),
      );
      ctx.choice(
        "`sku` on a batch line result",
        line?.sku === sku,
        `the sku echoed as sent, ${sku}`,
        JSON.stringify(line?.sku),
      );
      const level = (await levels(ctx, product.id)).get(outlet);
      ctx.check(level?.on_hand === 2.5, "on_hand 2.5 after the batch", levelKey(level));
      const codedBefore = await snapshot(ctx, [coded.id]);
      for (const unmatched of [barcode, gone.sku]) {
        const reply = await batch(ctx, [{ sku: unmatched, outlet_id: outlet, set: { on_hand: 4 } }]);
        refused(ctx, reply, [404, 422], undefined);
        ctx.choice(
          "Unknown product or outlet",
          exactError(reply, 422, "UNPROCESSABLE", "lines.0.sku"),
          `422 UNPROCESSABLE naming lines.0.sku for ${unmatched}`,
          reply.text.slice(0, 300),
        );
      }
      await unchanged(ctx, [coded.id], codedBefore, "the product with that barcode untouched");
    },
  }),
  rule({
    id: "inventory.batch-replay",
    area: "Inventory",
    title:
      "A batch replayed with its Idempotency-Key returns the same lines, each marked replayed: true, and writes nothing again",
    spec: { section: SPEC.inventory, quote: "A replayed batch marks every line replayed: true." },
    cost: 40,
    leniency: "replayed may be absent (rather than false) on a first answer.",
    choices: ["Success statuses", "`replayed`", "`changed`, `previous`, `on_hand`, `delta` of batch lines"],
    async run(ctx) {
      const outlets = await outletIds(ctx);
      const first = await createProduct(ctx, { sku: ctx.name("Replay") });
      const second = await createProduct(ctx);
      // An increasing adjustment line, when a reason allows one: a second write would show in the level.
      const increase = await findAdjustReason(ctx, await reasons(ctx), second.id, outlets[0]!, 1).catch((e) =>
        e instanceof Skip ? undefined : Promise.reject(e),
      );
      const cases = fc.record({
        q1: fc.integer({ min: 1, max: 1_000_000 }),
        q2: fc.integer({ min: 1, max: 1_000_000 }),
        bySku: fc.boolean(),
        adjustLine: fc.boolean(),
      });
      await ctx.property(
        cases,
        async ({ q1, q2, bySku, adjustLine }) => {
          const before = await snapshot(ctx, [first.id, second.id]);
          const lines: Record<string, unknown>[] = [
            {
              ...(bySku ? { sku: first.sku } : { product_id: first.id }),
              outlet_id: outlets[0],
              set: { on_hand: q1 / 1000 },
            },
            increase && adjustLine
              ? {
                  product_id: second.id,
                  outlet_id: outlets[0],
                  adjust: { quantity: q2 / 1000, reason_id: increase.id },
                }
              : { product_id: second.id, outlet_id: outlets[outlets.length - 1], set: { on_hand: q2 / 1000 } },
          ];
          const key = freshKey(ctx);
          const original = lineResults(ctx, await batch(ctx, lines, key), lines, false);
          const written = await snapshot(ctx, [first.id, second.id]);
          const replay = await batch(ctx, lines, key);
          const again = lineResults(ctx, replay, lines, true);
          ctx.check(
            replay.headers["idempotent-replayed"] === "true",
            "the header Idempotent-Replayed: true",
            JSON.stringify(replay.headers["idempotent-replayed"]),
          );
          const strip = (rows: readonly BatchLine[]) => JSON.stringify(rows.map(({ replayed: _r, ...rest }) => rest));
          ctx.check(
            strip(again) === strip(original),
            `the same lines as the first answer: ${strip(original)}`,
            strip(again),
          );
          const after = await snapshot(ctx, [first.id, second.id]);
          ctx.check(after === written, `nothing written by the replay (${written}; before the batch ${before})`, after);
        },
        Math.min(ctx.run.runs, 4),
      );
    },
  }),
];
