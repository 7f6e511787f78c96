import { Skip } from "../../outcomes.js";
import { batch, createProduct, levelKey, levels, outletIds, prepareLevel, setStock } from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";

// OUTLET_DELETED (Spec, Inventory rules), reached through the control plane only.

/** Last of the inventory rules: it deletes an outlet of the target for good. */
export const outletDeletedRule = rule({
  id: "inventory.outlet-deleted",
  area: "Inventory",
  title: "Stock writes at a deleted outlet answer 422 OUTLET_DELETED; a batch with such a line writes no line",
  spec: { section: SPEC.inventory, quote: "422 OUTLET_DELETED (nothing written; a batch writes no lines)" },
  needs: { control: true, destructive: true },
  cost: 10,
  leniency:
    "Needs the control plane (DELETE /_sim/stores/{prefix}/outlets/{id}); skipped when the store has fewer than 2 live outlets, so one always remains.",
  async run(ctx) {
    const me = await ctx.call("GET", "/me");
    ctx.status(me, 200);
    const outlets = await outletIds(ctx, 2);
    const [kept, doomed] = [outlets[0]!, outlets[outlets.length - 1]!];
    const product = await createProduct(ctx);
    await prepareLevel(ctx, product.id, kept, 2);
    await prepareLevel(ctx, product.id, doomed, 3);
    const before = await levels(ctx, product.id);
    const deleted = await ctx.control("DELETE", `/stores/${me.json.data.domain_prefix}/outlets/${doomed}`);
    if (deleted.status !== 204 && deleted.status !== 200)
      throw new Skip(`the control plane did not delete the outlet (status ${deleted.status})`);
    ctx.error(await setStock(ctx, product.id, doomed, { on_hand: 4 }), 422, "OUTLET_DELETED");
    const lines = [
      { product_id: product.id, outlet_id: kept, set: { on_hand: 5 } },
      { product_id: product.id, outlet_id: doomed, set: { on_hand: 4 } },
    ];
    ctx.error(await batch(ctx, lines), 422, "OUTLET_DELETED");
    const after = await levels(ctx, product.id);
    ctx.check(
      levelKey(after.get(kept)) === levelKey(before.get(kept)),
      `the level at the live outlet unchanged (${levelKey(before.get(kept))})`,
      levelKey(after.get(kept)),
    );
    ctx.check(
      !after.has(doomed),
      "no level row for the deleted outlet (one row per live outlet)",
      levelKey(after.get(doomed)),
    );
  },
});
