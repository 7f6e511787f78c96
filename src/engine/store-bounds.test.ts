// Tests of the bounds of a store's own state (docs/interfaces.md, Caps): the stock movements it
// remembers (`movement-history`, the newest kept) and the rendered rows its JSON caches keep
// (`row-cache`). Answers stay exact whatever the caps: a cap bounds memory, never what a client sees.
import { describe, expect, it } from "vitest";
import { call } from "../test-support/sim.js";
import { demo, put } from "../test-support/inventory.js";

describe("docs/interfaces.md, Caps: movement-history, the stock movements a store remembers", () => {
  it("with movement-history 5, eight stock writes leave the newest five movements, oldest first", async () => {
    const d = await demo({ caps: { movementHistory: 5 } });
    const tote = d.product["TOTE-CANVAS"];
    const made: string[] = [];
    for (let i = 1; i <= 8; i++) {
      const reply = await put(d, tote, d.main, { on_hand: 100 + i });
      expect(reply.status).toBe(200);
      made.push(reply.json.data.movement_id);
    }
    const history = d.sim.world.stores.get("demo")!.inventory.adjustments;
    expect(history.length).toBe(5);
    expect(history.toArray().map((m) => m.movement_id)).toEqual(made.slice(3));
    expect(history.toArray().map((m) => m.delta)).toEqual([1000, 1000, 1000, 1000, 1000]);
  });
});

describe("docs/interfaces.md, Caps: row-cache, the rendered rows each JSON cache keeps", () => {
  it("with row-cache 3, reading every product and sale keeps 3 rows per cache, and the pages are those of an uncapped simulator", async () => {
    const capped = await demo({ caps: { rowCache: 3 } });
    const plain = await demo();
    for (const path of ["/demo/v1/products?limit=200", "/demo/v1/sales?limit=200"]) {
      const page = await call(capped.sim, "GET", path);
      expect(page.status).toBe(200);
      expect(page.json.data.length).toBeGreaterThan(3);
      expect(page.text).toBe((await call(plain.sim, "GET", path)).text);
      // Read again: rows served from the cache and rows rendered anew give the same bytes.
      expect((await call(capped.sim, "GET", path)).text).toBe(page.text);
    }
    const store = capped.sim.world.stores.get("demo")!;
    expect(store.catalog.productJson.size).toBe(3);
    expect(store.sales.saleJson.size).toBe(3);
    expect(plain.sim.world.stores.get("demo")!.catalog.productJson.size).toBeGreaterThan(3);
  });
});
