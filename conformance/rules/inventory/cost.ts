import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  UUID,
  adjust,
  createProduct,
  milli,
  outletIds,
  reasons,
  setStock,
  snapshot,
  unchanged,
  type Reason,
} from "../support/inventory.js";
import { storePrefix } from "../support/access.js";
import { rule, SPEC } from "../rule.js";
import {
  controlDocOf,
  dataOf,
  errorCode,
  errorOf,
  type InventoryLevel,
  rowsOf,
  type StockWrite,
} from "../../shapes.js";

// Inventory rules 4: unit_cost on stock writes. What the API shows (the writes are accepted, a cost
// that is not integer cents is refused) runs on any target; the average cost itself is only seen
// through the control plane (GET /_sim/stores/{prefix}/stock/{product_id}/{outlet_id}).

const ok2xx = (reply: Reply): boolean => reply.status === 200 || reply.status === 201;

/** Codes of a refused reason: the next candidate is tried (reason types are not fixed by the spec). */
const REASON_REFUSALS = ["REASON_DIRECTION_MISMATCH", "REASON_NOT_ALLOWED"];

/**
 * Adjustments with a reason that accepts the direction: the listed non-system reasons are tried in
 * turn (a refused try writes nothing, Inventory rules 5) and the one that worked is kept per direction.
 */
class Adjuster {
  private readonly found = new Map<number, Reason>();

  constructor(
    private readonly candidates: readonly Reason[],
    private readonly productId: string,
    private readonly outletId: string,
  ) {}

  static async of(ctx: RuleContext, productId: string, outletId: string): Promise<Adjuster> {
    return new Adjuster(
      (await reasons(ctx)).filter((r) => !r.is_system),
      productId,
      outletId,
    );
  }

  /** The first answer that is not a reason refusal; skips the rule when every reason refuses the direction. */
  async send(ctx: RuleContext, quantity: number, extra: Record<string, unknown> = {}): Promise<Reply> {
    const sign = Math.sign(quantity);
    const known = this.found.get(sign);
    const order = known ? [known, ...this.candidates.filter((r) => r !== known)] : this.candidates;
    for (const reason of order) {
      const reply = await adjust(ctx, {
        product_id: this.productId,
        outlet_id: this.outletId,
        reason_id: reason.id,
        quantity,
        ...extra,
      });
      if (reply.status === 422 && REASON_REFUSALS.includes(errorCode(reply) ?? "")) continue;
      if (ok2xx(reply)) this.found.set(sign, reason);
      return reply;
    }
    throw new Skip(`no listed adjustment reason accepts ${sign > 0 ? "an increase" : "a decrease"}`);
  }
}

/** A stock write that must be accepted (200 or 201, the spec does not fix which). */
function accepted(ctx: RuleContext, reply: Reply, what: string): void {
  ctx.check(ok2xx(reply), `${what}: 200 or 201`, `status ${reply.status} ${reply.text.slice(0, 200)}`);
}

/** The level of one outlet, from GET /products/{id}/inventory (0 when there is no row). */
async function onHand(ctx: RuleContext, productId: string, outletId: string): Promise<number> {
  const reply = await ctx.call("GET", `/products/${productId}/inventory`);
  ctx.status(reply, 200);
  const row = (rowsOf<InventoryLevel>(reply) ?? []).find((r) => r?.outlet_id === outletId);
  return typeof row?.on_hand === "number" ? row.on_hand : 0;
}

// Values that are not integer cents: fractions, negatives, numbers sent as text.
const badCost = fc.oneof(
  fc
    .integer({ min: 1, max: 9_999_999 })
    .filter((n) => n % 100 !== 0)
    .map((n) => n / 100),
  fc.integer({ min: -1_000_000, max: -1 }),
  fc.integer({ min: 0, max: 1_000_000 }).map(String),
);

const acceptedRule = rule({
  id: "inventory.unit-cost-accepted",
  area: "Inventory",
  title:
    "Stock sets and adjustments (up and down) accept unit_cost in integer cents; a unit_cost that is not integer cents is refused and writes nothing",
  spec: {
    section: SPEC.endpoints,
    quote:
      "PUT | /products/{id}/inventory/{outlet_id} | inventory:write | {on_hand (number), reason_id?, unit_cost? (integer cents)}",
  },
  cost: 30,
  leniency:
    "What becomes of the cost is seen only through a control plane (inventory.unit-cost-average). A negative unit_cost may be refused with 400 VALIDATION_FAILED or a 422 (the spec gives cents, not a sign); a fraction or a number as text must be 400 VALIDATION_FAILED (What the service does 2: money is never a decimal).",
  choices: ["Success statuses", 'Adjustment response ("not shown")'],
  async run(ctx) {
    const [outlet] = await outletIds(ctx);
    const product = await createProduct(ctx);
    const adjuster = await Adjuster.of(ctx, product.id, outlet);
    accepted(
      ctx,
      await setStock(ctx, product.id, outlet, { on_hand: 10, unit_cost: 250 }),
      "PUT stock {on_hand: 10, unit_cost: 250}",
    );
    ctx.check(
      (await onHand(ctx, product.id, outlet)) === 10,
      "on_hand 10 after the set with a unit_cost",
      "another level",
    );
    const increase = await adjuster.send(ctx, 5, { unit_cost: 400 });
    accepted(ctx, increase, "an adjustment of +5 with unit_cost 400");
    ctx.choice(
      "Success statuses",
      increase.status === 201,
      "POST /inventory/adjustments: 201",
      `status ${increase.status}`,
    );
    const { adjustment_id, movement_id, ...result } = dataOf<StockWrite>(increase) ?? {};
    ctx.choice(
      'Adjustment response ("not shown")',
      JSON.stringify(result) === '{"changed":true,"previous":10,"on_hand":15,"delta":5}' &&
        [adjustment_id, movement_id].every((id) => UUID.test(String(id))),
      "the stock write result {changed: true, previous: 10, on_hand: 15, delta: 5, adjustment_id, movement_id}",
      increase.text.slice(0, 300),
    );
    ctx.check(
      (await onHand(ctx, product.id, outlet)) === 15,
      "on_hand 15 after the increase with a unit_cost",
      "another level",
    );
    // Spec, Inventory rules 4: on a decrease the cost is ignored, not refused.
    accepted(
      ctx,
      await adjuster.send(ctx, -3, { unit_cost: 999 }),
      "an adjustment of -3 with unit_cost 999 (ignored on a decrease)",
    );
    ctx.check(
      (await onHand(ctx, product.id, outlet)) === 12,
      "on_hand 12 after the decrease with a unit_cost",
      "another level",
    );
    accepted(
      ctx,
      await setStock(ctx, product.id, outlet, { on_hand: 8, unit_cost: 0 }),
      "PUT stock {on_hand: 8, unit_cost: 0}",
    );
    const fraction = await setStock(ctx, product.id, outlet, { on_hand: 9, unit_cost: 12.5 });
    ctx.error(fraction, 400, "VALIDATION_FAILED");
    const cases = fc.record({ cost: badCost, on: fc.constantFrom("set", "adjust-up", "adjust-down") });
    await ctx.property(
      cases,
      async ({ cost, on }) => {
        const before = await snapshot(ctx, [product.id]);
        const reply =
          on === "set"
            ? await setStock(ctx, product.id, outlet, { on_hand: 9, unit_cost: cost })
            : await adjuster.send(ctx, on === "adjust-up" ? 2 : -1, { unit_cost: cost });
        const negative = typeof cost === "number" && Number.isInteger(cost) && cost < 0;
        if (negative && reply.status === 422) ctx.envelope(reply);
        else ctx.error(reply, 400, "VALIDATION_FAILED");
        await unchanged(ctx, [product.id], before, `nothing written for unit_cost ${JSON.stringify(cost)}`);
      },
      Math.min(ctx.run.runs, 6),
    );
  },
});

/** The stock and average cost of one outlet, through the control plane. */
async function stockView(
  ctx: RuleContext,
  prefix: string,
  productId: string,
  outletId: string,
): Promise<{ on_hand: number; average_cost: number }> {
  const reply = await ctx.control("GET", `/stores/${encodeURIComponent(prefix)}/stock/${productId}/${outletId}`);
  if (reply.status === 404 && /No control route/i.test(String(errorOf(reply)?.message ?? "")))
    throw new Skip("the control plane does not show stock and average cost");
  const view = controlDocOf(reply);
  const onHand = view?.on_hand;
  const averageCost = view?.average_cost;
  if (
    reply.status !== 200 ||
    typeof onHand !== "number" ||
    typeof averageCost !== "number" ||
    !Number.isInteger(averageCost)
  )
    throw new Mismatch(
      "the control view {on_hand, average_cost (integer cents)}",
      `status ${reply.status} ${reply.text.slice(0, 200)}`,
    );
  return { on_hand: onHand, average_cost: averageCost };
}

type Step =
  | { readonly kind: "set"; readonly to: number; readonly cost?: number }
  | { readonly kind: "adjust"; readonly by: number; readonly cost?: number };

const cost = fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined, freq: 2 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record(
    { kind: fc.constant("set" as const), to: fc.integer({ min: 0, max: 60_000 }), cost },
    { requiredKeys: ["kind", "to"] },
  ),
  fc.record(
    {
      kind: fc.constant("adjust" as const),
      by: fc.integer({ min: -40_000, max: 40_000 }).filter((n) => n !== 0),
      cost,
    },
    { requiredKeys: ["kind", "by"] },
  ),
);

/** The exact weighted average (Inventory rules 4): the old stock at the old average and the added quantity at unit_cost. */
const blend = (heldMilli: number, average: number, addedMilli: number, unitCost: number): number =>
  heldMilli + addedMilli <= 0 ? unitCost : (heldMilli * average + addedMilli * unitCost) / (heldMilli + addedMilli);

const averageRule = rule({
  id: "inventory.unit-cost-average",
  area: "Inventory",
  title:
    "unit_cost on a set becomes the average cost; on an adjustment it is blended in (weighted) when stock goes up and ignored otherwise; left out, the average is kept",
  spec: {
    section: SPEC.inventory,
    quote:
      "unit_cost (integer cents): on a set, it becomes the outlet's average cost; on an adjustment, it is blended into the average when stock goes up and ignored otherwise. If left out, the average is kept.",
  },
  needs: { control: true },
  cost: 75,
  choices: ["Average cost", "Quantities"],
  leniency:
    "The average is seen only through the control plane. The blend is the quantity-weighted average; the spec does not say how it rounds, so ±1 cent of the exact value is accepted. A set with a unit_cost that leaves on_hand as it was may keep the average or take the cost (Inventory rules 1: it changes nothing). A decrease that would go below zero is sent as a decrease to 0.",
  async run(ctx) {
    const prefix = await storePrefix(ctx);
    const [outlet] = await outletIds(ctx);
    const product = await createProduct(ctx);
    const adjuster = await Adjuster.of(ctx, product.id, outlet);
    await ctx.property(
      fc.array(step, { minLength: 1, maxLength: 6 }),
      async (steps) => {
        // Each case goes on from where the last left the level: the model starts from what the control plane shows.
        let model = await stockView(ctx, prefix, product.id, outlet);
        for (const s of steps) {
          const held = milli(model.on_hand);
          let reply: Reply;
          let next: number;
          let allowed: number[];
          let exact: number | undefined;
          if (s.kind === "set") {
            next = s.to;
            reply = await setStock(ctx, product.id, outlet, {
              on_hand: s.to / 1000,
              ...(s.cost === undefined ? {} : { unit_cost: s.cost }),
            });
            allowed =
              s.cost === undefined ? [model.average_cost] : next === held ? [model.average_cost, s.cost] : [s.cost];
          } else {
            const by = s.by < 0 && held + s.by < 0 ? -held : s.by;
            if (by === 0) continue;
            next = held + by;
            reply = await adjuster.send(ctx, by / 1000, s.cost === undefined ? {} : { unit_cost: s.cost });
            if (s.cost !== undefined && by > 0) exact = blend(held, model.average_cost, by, s.cost);
            allowed = [model.average_cost];
          }
          const what =
            s.kind === "set"
              ? `a set to ${next / 1000}${s.cost === undefined ? " without unit_cost" : ` with unit_cost ${s.cost}`}`
              : `an adjustment of ${(next - held) / 1000}${s.cost === undefined ? " without unit_cost" : ` with unit_cost ${s.cost}`}`;
          accepted(ctx, reply, what);
          const seen = await stockView(ctx, prefix, product.id, outlet);
          ctx.check(milli(seen.on_hand) === next, `${what}: on_hand ${next / 1000}`, `on_hand ${seen.on_hand}`);
          ctx.choice(
            "Quantities",
            seen.on_hand === next / 1000,
            `${what}: on_hand exactly ${next / 1000}`,
            `on_hand ${seen.on_hand}`,
          );
          if (exact !== undefined) {
            ctx.check(
              Math.abs(seen.average_cost - exact) <= 1,
              `${what} from ${held / 1000} at average ${model.average_cost}: the weighted average ${exact.toFixed(2)} (±1 cent)`,
              `average_cost ${seen.average_cost}`,
            );
            ctx.choice(
              "Average cost",
              seen.average_cost === Math.round(exact),
              `${what} from ${held / 1000} at average ${model.average_cost}: ${exact} rounded half up, ${Math.round(exact)}`,
              `average_cost ${seen.average_cost}`,
            );
          } else {
            const why =
              s.kind === "set"
                ? s.cost === undefined
                  ? "the average kept"
                  : "the unit_cost as the average"
                : s.cost === undefined
                  ? "the average kept"
                  : "the unit_cost ignored on a decrease";
            ctx.check(
              allowed.includes(seen.average_cost),
              `${what} from ${held / 1000} at average ${model.average_cost}: ${why} (${allowed.join(" or ")})`,
              `average_cost ${seen.average_cost}`,
            );
          }
          model = seen;
        }
      },
      Math.min(ctx.run.runs, 8),
    );
  },
});

export const unitCostRules = [acceptedRule, averageRule];
