import { describe, expect, it } from "vitest";
import type { SimRequest, SimResponse } from "../src/http/types.js";
import { createSimulator } from "../src/simulator.js";
import type { Mutant } from "./test-support/mutants/index.js";
import { conformance } from "./run.js";

// docs/conformance.md, Running it against staging: another team writes to the same store while the
// suite runs. Rows they add between two reads of a rule are theirs, not the server's fault: a correct
// server with such a writer passes or skips every rule, never fails one.

const PRODUCTS = /^\/[^/]+\/v1\/products$/;

/** Before every other product the suite creates, another writer creates `burst` products of its own. */
function burstWriter(burst: number): Mutant & { written: number } {
  const writer = {
    name: "burst-writer",
    breaks: "nothing: another writer's rows land between the suite's reads",
    caughtBy: [],
    written: 0,
    wrap: (next: (req: SimRequest) => Promise<SimResponse>) => {
      let posts = 0;
      return async (req: SimRequest) => {
        if (req.method === "POST" && PRODUCTS.test(req.path) && posts++ % 2 === 0)
          for (let i = 0; i < burst; i++) {
            const res = await next({
              ...req,
              query: "",
              headers: { authorization: req.headers.authorization ?? "", "content-type": "application/json" },
              body: new TextEncoder().encode(
                JSON.stringify({ name: `Team B item ${writer.written}`, retail_price: 100 }),
              ),
            });
            if (res.status === 201 || res.status === 200) writer.written++;
          }
        return next(req);
      };
    },
  };
  return writer;
}

describe("Another writer's rows between a rule's reads fail no rule (spec, Pagination; docs/conformance.md, Staging)", () => {
  it.each([1, 3])(
    "bursts of %i products before the suite's creates: every rule of the catalog passes or skips",
    async (burst) => {
      const writer = burstWriter(burst);
      // A staging run: the target over HTTP, no control plane (rate limits off: this is not about them).
      const sim = createSimulator({ clock: "system", seed: 1, control: false, rateLimits: false });
      sim.handle = writer.wrap(sim.handle.bind(sim));
      const { url } = await sim.listen(0);
      const report = await conformance({
        target: `${url}/demo/v1`,
        token: sim.token("demo", "full"),
        seed: 1,
        runs: 3,
        rules: "*",
      }).finally(() => sim.close());
      expect(writer.written).toBeGreaterThan(0);
      expect(report.rules.filter((r) => r.status === "failed" || r.status === "flaky").map((r) => r.id)).toEqual([]);
      const passed = report.rules.filter((r) => r.status === "passed").map((r) => r.id);
      expect(passed).toEqual(
        expect.arrayContaining(["pagination.each-row-once", "pagination.limit-range-and-default"]),
      );
      expect(passed.length).toBeGreaterThan(60);
    },
    120_000,
  );
});
