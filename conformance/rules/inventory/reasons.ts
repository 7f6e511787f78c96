import fc from "fast-check";
import { Mismatch, Skip } from "../../outcomes.js";
import {
  adjust,
  createProduct,
  findAdjustReason,
  levelKey,
  levels,
  outletIds,
  prepareLevel,
  reasons,
  setStock,
  snapshot,
  systemReason,
  unchanged,
  type Reason,
} from "../support/inventory.js";
import { storePrefix } from "../support/access.js";
import { rule, SPEC } from "../rule.js";
import { writeResult } from "./levels.js";
import { errorCode } from "../../shapes.js";

// The reasons a stock write refuses (system, wrong direction, disabled; Spec, Inventory rules) and the
// InventoryLevel's version rising with each change. Every rule stocks only products it created.

export const stockReasonRules = [
  rule({
    id: "inventory.system-reason-refused",
    area: "Inventory",
    title: 'The system reason "Stock set via API" sent explicitly answers 422 REASON_NOT_ALLOWED and writes nothing',
    spec: { section: SPEC.inventory, quote: "422 REASON_NOT_ALLOWED (system reason or disabled reason)" },
    cost: 7,
    leniency: "Skipped when GET /inventory/adjustment-reasons lists no system reason.",
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const system = systemReason(await reasons(ctx));
      if (!system) throw new Skip("the adjustment reason list shows no system reason");
      const product = await createProduct(ctx);
      await prepareLevel(ctx, product.id, outlet, 2);
      const before = await snapshot(ctx, [product.id]);
      ctx.error(
        await setStock(ctx, product.id, outlet, { on_hand: 3, reason_id: system.id }),
        422,
        "REASON_NOT_ALLOWED",
      );
      ctx.error(
        await adjust(ctx, { product_id: product.id, outlet_id: outlet, reason_id: system.id, quantity: 1 }),
        422,
        "REASON_NOT_ALLOWED",
      );
      await unchanged(ctx, [product.id], before);
    },
  }),
  rule({
    id: "inventory.reason-direction-mismatch",
    area: "Inventory",
    title:
      "A set whose reason does not match the direction of change answers 422 REASON_DIRECTION_MISMATCH and writes nothing",
    spec: {
      section: SPEC.inventory,
      quote: "422 REASON_DIRECTION_MISMATCH (reason on a set does not match the direction of change)",
    },
    cost: 16,
    leniency:
      "Reason type values are not fixed by the spec: a reason with a direction is found by trying sets (then adjustments) both ways; skipped when no listed reason refuses either direction.",
    choices: ["Reason checks"],
    async run(ctx) {
      const [outlet] = await outletIds(ctx);
      const candidates = (await reasons(ctx)).filter((r) => !r.is_system);
      const product = await createProduct(ctx);
      const start = 5;
      await prepareLevel(ctx, product.id, outlet, start);
      const tryDirection = async (reason: Reason, to: number): Promise<"mismatch" | "accepted" | "not-allowed"> => {
        const before = await snapshot(ctx, [product.id]);
        const reply = await setStock(ctx, product.id, outlet, { on_hand: to, reason_id: reason.id });
        if (reply.status === 422 && errorCode(reply) === "REASON_DIRECTION_MISMATCH") {
          ctx.error(reply, 422, "REASON_DIRECTION_MISMATCH");
          await unchanged(ctx, [product.id], before);
          return "mismatch";
        }
        if (reply.status === 422 && errorCode(reply) === "REASON_NOT_ALLOWED") return "not-allowed";
        writeResult(ctx, reply, to, start);
        await prepareLevel(ctx, product.id, outlet, start);
        return "accepted";
      };
      const usable: Reason[] = [];
      for (const reason of candidates) {
        const outcome = await tryDirection(reason, start - 2);
        if (outcome === "mismatch") return;
        if (outcome === "accepted") usable.push(reason);
      }
      for (const reason of usable) if ((await tryDirection(reason, start + 2)) === "mismatch") return;
      // No set was refused. If an adjustment shows that one of these reasons has a direction, the set
      // the same way should have been refused too.
      for (const reason of usable) {
        for (const sign of [-1, 1]) {
          const reply = await adjust(ctx, {
            product_id: product.id,
            outlet_id: outlet,
            reason_id: reason.id,
            quantity: sign,
          });
          if (reply.status === 422 && errorCode(reply) === "REASON_DIRECTION_MISMATCH") {
            throw new Mismatch(
              `a set ${sign < 0 ? "decreasing" : "increasing"} stock with reason "${reason.name}" refused with 422 REASON_DIRECTION_MISMATCH, as the adjustment the same way is`,
              "the set was accepted",
            );
          }
          if (reply.status === 200 || reply.status === 201) await prepareLevel(ctx, product.id, outlet, start);
        }
      }
      ctx.choice(
        "Reason checks",
        false,
        "a set refused with REASON_DIRECTION_MISMATCH by a reason of type increase or decrease",
        `none of ${JSON.stringify(candidates.map((r) => `${r.name} (${r.type})`))} refused a direction`,
      );
      throw new Skip(
        `none of the ${candidates.length} listed non-system reasons refused a direction on a set or an adjustment; reason types are not discoverable`,
      );
    },
  }),
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
          let last = (await levels(ctx, product.id)).get(outlet);
          for (const q of quantities) {
            await prepareLevel(ctx, product.id, outlet, q);
            const now = (await levels(ctx, product.id)).get(outlet);
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
      await prepareLevel(ctx, product.id, outlet, 5);
      // A reason that records an increase, so the writes below differ from accepted ones only by the reason being disabled.
      const reason = await findAdjustReason(ctx, all, product.id, outlet, 1);
      const path = `/stores/${encodeURIComponent(prefix)}/adjustment-reasons/${reason.id}`;
      const disabled = await ctx.control("PATCH", path, { enabled: false });
      if (disabled.status !== 200)
        throw new Skip(`the control plane did not disable a reason (status ${disabled.status})`);
      try {
        const before = await snapshot(ctx, [product.id]);
        const level = ctx.defined(
          (await levels(ctx, product.id)).get(outlet),
          `a level row for outlet ${outlet}`,
          "none",
        );
        ctx.error(
          await adjust(ctx, { product_id: product.id, outlet_id: outlet, reason_id: reason.id, quantity: 1 }),
          422,
          "REASON_NOT_ALLOWED",
        );
        ctx.error(
          await setStock(ctx, product.id, outlet, { on_hand: level.on_hand + 2, reason_id: reason.id }),
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
