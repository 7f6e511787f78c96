import { Skip } from "../../outcomes.js";
import { batch, createProduct, levelKey, levels, outletIds, prepareLevel, setStock } from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";
import { bodyOf, dataOf, type Identity } from "../../shapes.js";

// OUTLET_DELETED (Spec, Inventory rules), reached through the control plane only. The rule makes an
// outlet of its own (POST /_sim/stores/{prefix}/outlets) and deletes that one, so the store's outlets
// are as it found them: a run again finds the same live outlets.

export const outletDeletedRule = rule({
  id: "inventory.outlet-deleted",
  area: "Inventory",
  title: "Stock writes at a deleted outlet answer 422 OUTLET_DELETED; a batch with such a line writes no line",
  spec: { section: SPEC.inventory, quote: "422 OUTLET_DELETED (nothing written; a batch writes no lines)" },
  needs: { control: true },
  cost: 11,
  leniency:
    "Needs the control plane: it makes an outlet of its own (POST /_sim/stores/{prefix}/outlets), stocks it, and deletes that outlet (DELETE /_sim/stores/{prefix}/outlets/{id}); the store's own outlets are left as they were. Skipped when the control plane makes no outlet.",
  async run(ctx) {
    const me = await ctx.call("GET", "/me");
    ctx.status(me, 200);
    const prefix = ctx.defined(dataOf<Identity>(me)?.domain_prefix, "GET /me: {data: Identity}", me.text.slice(0, 200));
    const kept = (await outletIds(ctx, 1))[0];
    const made = await ctx.control("POST", `/stores/${prefix}/outlets`, { name: ctx.name("outlet") });
    const doomed: unknown = bodyOf(made)?.id;
    if (made.status !== 201 || typeof doomed !== "string")
      throw new Skip(`the control plane did not make an outlet (status ${made.status})`);
    let deleted = false;
    try {
      const product = await createProduct(ctx);
      await prepareLevel(ctx, product.id, kept, 2);
      await prepareLevel(ctx, product.id, doomed, 3);
      const before = await levels(ctx, product.id);
      const gone = await ctx.control("DELETE", `/stores/${prefix}/outlets/${doomed}`);
      if (gone.status !== 204 && gone.status !== 200)
        throw new Skip(`the control plane did not delete the outlet (status ${gone.status})`);
      deleted = true;
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
    } finally {
      // The outlet is the rule's own: whatever happened, it does not stay among the store's live outlets.
      if (!deleted) await ctx.control("DELETE", `/stores/${prefix}/outlets/${doomed}`).catch(() => undefined);
    }
  },
});
