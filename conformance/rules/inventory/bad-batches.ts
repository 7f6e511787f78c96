import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import {
  UNKNOWN_ID,
  createProduct,
  findAdjustReason,
  milli,
  outletIds,
  prepareLevel,
  reasons,
  systemReason,
} from "../support/inventory.js";

// The bad batches of the all-or-nothing properties (Spec, Inventory rules 2, 3 and 5): a world of
// products and reasons, and a batch with one bad line of a given kind at a given place.

export type BadKind =
  | "unknown-sku"
  | "unknown-product"
  | "unknown-outlet"
  | "not-tracked"
  | "system-reason"
  | "four-decimals"
  | "below-zero"
  | "duplicate-pair";

export interface BatchWorld {
  readonly outlets: readonly string[];
  /** Products the good lines set (never written by a correct server: every batch fails). */
  readonly good: readonly string[];
  /** The product the bad lines are about. */
  readonly bad: string;
  readonly untracked: string;
  readonly systemReasonId?: string;
  readonly decreaseReasonId?: string;
  readonly kinds: readonly BadKind[];
}

export interface BadBatchCase {
  readonly pairs: readonly number[];
  readonly quantities: readonly number[];
  readonly kind: BadKind;
  readonly at: number;
}

/** Products and reasons for the bad-batch properties: three products of the run and one that tracks no stock. */
export async function batchWorld(ctx: RuleContext): Promise<BatchWorld> {
  const outlets = (await outletIds(ctx)).slice(0, 2);
  const all = await reasons(ctx);
  const good = [(await createProduct(ctx)).id, (await createProduct(ctx)).id];
  const bad = (await createProduct(ctx)).id;
  const untracked = (await createProduct(ctx, { has_inventory: false })).id;
  await prepareLevel(ctx, bad, outlets[0]!, 3);
  const decrease = await findAdjustReason(ctx, all, bad, outlets[0]!, -1).catch((e) =>
    e instanceof Skip ? undefined : Promise.reject(e),
  );
  const system = systemReason(all);
  const kinds: BadKind[] = [
    "unknown-sku",
    "unknown-product",
    "unknown-outlet",
    "not-tracked",
    "four-decimals",
    "duplicate-pair",
  ];
  if (system) kinds.push("system-reason");
  if (decrease) kinds.push("below-zero");
  return { outlets, good, bad, untracked, systemReasonId: system?.id, decreaseReasonId: decrease?.id, kinds };
}

export const badCases = (w: BatchWorld): fc.Arbitrary<BadBatchCase> => {
  const pairCount = w.good.length * w.outlets.length;
  return fc.record({
    pairs: fc.shuffledSubarray([...Array(pairCount).keys()], { minLength: 1 }),
    quantities: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: pairCount, maxLength: pairCount }),
    kind: fc.constantFrom(...w.kinds),
    at: fc.nat({ max: 1000 }),
  });
};

/**
 * The batch of a case: its good lines with one bad line inserted; which line indexes may be named; what
 * status and code. A good line sets its level to `base` (the level now) plus its quantity, so that
 * writing it would always show, however often the case runs.
 */
export function buildBadBatch(
  ctx: RuleContext,
  w: BatchWorld,
  c: BadBatchCase,
  base: (productId: string, outletId: string) => number = () => 0,
) {
  const pairOf = (i: number) => ({
    product_id: w.good[Math.floor(i / w.outlets.length)]!,
    outlet_id: w.outlets[i % w.outlets.length]!,
  });
  const lines: Record<string, unknown>[] = c.pairs.map((p, i) => {
    const pair = pairOf(p);
    return { ...pair, set: { on_hand: (milli(base(pair.product_id, pair.outlet_id)) + c.quantities[i]!) / 1000 } };
  });
  const at = c.at % (lines.length + 1);
  const outlet = w.outlets[c.at % w.outlets.length]!;
  let line: Record<string, unknown>;
  let statuses: number[] = [404, 422];
  let code: string | undefined;
  let named = [at];
  switch (c.kind) {
    case "unknown-sku":
      line = { sku: ctx.name("no-such-sku"), outlet_id: outlet, set: { on_hand: 1 } };
      break;
    case "unknown-product":
      line = { product_id: UNKNOWN_ID, outlet_id: outlet, set: { on_hand: 1 } };
      break;
    case "unknown-outlet":
      line = { product_id: w.bad, outlet_id: UNKNOWN_ID, set: { on_hand: 1 } };
      break;
    case "not-tracked":
      line = { product_id: w.untracked, outlet_id: outlet, set: { on_hand: 1 } };
      [statuses, code] = [[422], "NOT_STOCK_TRACKED"];
      break;
    case "system-reason":
      line = { product_id: w.bad, outlet_id: outlet, set: { on_hand: 1, reason_id: w.systemReasonId } };
      [statuses, code] = [[422], "REASON_NOT_ALLOWED"];
      break;
    case "four-decimals":
      line = { product_id: w.bad, outlet_id: outlet, set: { on_hand: 1.2345 } };
      [statuses, code] = [[400], "VALIDATION_FAILED"];
      break;
    case "below-zero":
      line = {
        product_id: w.bad,
        outlet_id: w.outlets[0],
        adjust: { quantity: -1_000_000, reason_id: w.decreaseReasonId },
      };
      [statuses, code] = [[422], "INSUFFICIENT_STOCK"];
      break;
    case "duplicate-pair": {
      // The pair of a good line again: whichever of the two the target names is fine.
      const of = c.at % lines.length;
      line = { ...pairOf(c.pairs[of]!), set: { on_hand: 1 } };
      statuses = [400, 409, 422];
      named = [at, of < at ? of : of + 1];
      break;
    }
  }
  lines.splice(at, 0, line);
  return { lines, statuses, code, named, at };
}
