// docs/performance.md, The large world: a world answers before the sales its build deferred are
// in their feed; they are laid out in slices while the simulator is idle, or at once by a read of them,
// and what is read is what an eager build gives.
import { describe, expect, it } from "vitest";
import { largeFixture } from "../scenarios/fixtures/large.js";
import { layOutWhileIdle } from "./sandboxes.js";
import { call, makeSim } from "./test-support/sim.js";

const size = { products: 120, sales: 5_000, customers: 15 };
const lazy = () => makeSim({ fixture: largeFixture(3, size, { columns: true }), seed: 3 });
const eager = () => makeSim({ fixture: largeFixture(3, size), seed: 3 });
const turn = () => new Promise<void>((done) => setImmediate(done));

describe("Spec, Pagination and polling rules 1: sales laid out after the build are read as the eager build's", () => {
  it("a sales page read before the layout is done lays out the rest first and answers the same bytes", async () => {
    const sim = lazy();
    expect(sim.world.layOut(0)).toBe(true);
    const [page, expected] = await Promise.all([
      call(sim, "GET", "/demo/v1/sales?limit=200&order=desc"),
      call(eager(), "GET", "/demo/v1/sales?limit=200&order=desc"),
    ]);
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(200);
    expect(page.text).toBe(expected.text);
    expect(sim.world.layOut(0)).toBe(false);
  });

  it("an idle simulator lays the sales out in slices of 2,048, one per turn of the event loop", async () => {
    const sim = lazy();
    let turns = 0;
    while (sim.world.layOut(0)) {
      await turn();
      turns++;
      expect(turns).toBeLessThanOrEqual(3);
    }
    expect(turns).toBe(Math.ceil(size.sales / 2048));
    const first = await call(sim, "GET", "/demo/v1/sales?limit=1");
    expect(first.status).toBe(200);
    expect(first.text).toBe((await call(eager(), "GET", "/demo/v1/sales?limit=1")).text);
  });

  it("a layout that fails while the simulator is idle is logged and stops, and the process goes on", async () => {
    const logged: string[] = [];
    let calls = 0;
    const world = {
      discarded: false,
      log: (line: string) => logged.push(line),
      layOut: (max: number) => {
        calls++;
        if (max > 0) throw new Error("a row that cannot be laid out");
        return true;
      },
    };
    layOutWhileIdle(world);
    await turn();
    await turn();
    expect(calls).toBe(2);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^internal error laying out the sales: Error: a row that cannot be laid out/);
  });
});
