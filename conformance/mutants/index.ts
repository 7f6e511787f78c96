import { createSimulator, type Simulator, type SimulatorOptions } from "../../src/simulator.js";
import { API, mapJson, type Mutant } from "./base.js";
import { accessMutants } from "./access.js";
import { catalogMutants } from "./catalog.js";
import { catalogExtraMutants } from "./catalog-extra.js";
import { extraMutants } from "./extra.js";
import { inventoryMutants } from "./inventory.js";
import { peopleMutants } from "./people.js";
import { gapMutants } from "./gaps.js";

export type { Mutant } from "./base.js";

const basic: readonly Mutant[] = [
  {
    name: "unknown-path-200",
    breaks: "Errors: an unknown path answers 404 NOT_FOUND",
    caughtBy: ["envelope.unknown-path"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && res.status === 404
        ? { status: 200, headers: { "content-type": "application/json" }, body: '{"data":{}}' }
        : res;
    },
  },
  {
    name: "empty-page-keeps-cursor",
    breaks: "Pagination 2: an empty page returns next_cursor null",
    caughtBy: ["pagination.empty-page-null-cursor"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) =>
        Array.isArray(b?.data) && b.data.length === 0 && "next_cursor" in b ? { ...b, next_cursor: "stale" } : b,
      ),
  },
  {
    name: "cursor-skips-a-row",
    breaks: "Pagination 1: paging visits every row once",
    caughtBy: ["pagination.each-row-once"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) =>
        req.query.includes("cursor=") && Array.isArray(b?.data) && b.data.length > 1
          ? { ...b, data: b.data.slice(1) }
          : b,
      ),
  },
];

export const MUTANTS: readonly Mutant[] = [
  ...basic,
  ...catalogMutants,
  ...inventoryMutants,
  ...peopleMutants,
  ...accessMutants,
  ...extraMutants,
  ...catalogExtraMutants,
  ...gapMutants,
];

/** A simulator whose handler is wrapped by the mutant. */
export function mutantSimulator(mutant: Mutant): (options: SimulatorOptions) => Simulator {
  return (options) => {
    const sim = createSimulator(options);
    const original = sim.handle.bind(sim);
    sim.handle = mutant.wrap(original);
    return sim;
  };
}
