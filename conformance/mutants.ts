import { createSimulator, type Simulator, type SimulatorOptions } from "../src/simulator.js";
import type { SimRequest, SimResponse } from "../src/http/types.js";

// Deliberately broken simulators, each violating one spec rule, to prove the suite detects it.
// A mutant wraps the simulator's handler: it rewrites requests or responses, never the engine.

export interface Mutant {
  readonly name: string;
  /** The spec rule it breaks, in words. */
  readonly breaks: string;
  /** Rule ids expected to catch it (at least one must fail). */
  readonly caughtBy: readonly string[];
  wrap(next: (req: SimRequest) => Promise<SimResponse>): (req: SimRequest) => Promise<SimResponse>;
}

const API = /^\/[^/]+\/v1\//;

/** Rewrites JSON bodies of API responses. */
const mapJson = (res: SimResponse, f: (body: any) => any): SimResponse => {
  if (typeof res.body !== "string" || !res.headers["content-type"]?.startsWith("application/json")) return res;
  return { ...res, body: JSON.stringify(f(JSON.parse(res.body))) };
};

export const MUTANTS: readonly Mutant[] = [
  {
    name: "unknown-path-200",
    breaks: "Errors: an unknown path answers 404 NOT_FOUND",
    caughtBy: ["envelope.unknown-path"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && res.status === 404 ? { status: 200, headers: { "content-type": "application/json" }, body: '{"data":{}}' } : res;
    },
  },
  {
    name: "empty-page-keeps-cursor",
    breaks: "Pagination 2: an empty page returns next_cursor null",
    caughtBy: ["pagination.empty-page-null-cursor"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) => (Array.isArray(b?.data) && b.data.length === 0 && "next_cursor" in b ? { ...b, next_cursor: "stale" } : b)),
  },
  {
    name: "cursor-skips-a-row",
    breaks: "Pagination 1: paging visits every row once",
    caughtBy: ["pagination.each-row-once"],
    wrap: (next) => async (req) =>
      mapJson(await next(req), (b) => (req.query.includes("cursor=") && Array.isArray(b?.data) && b.data.length > 1 ? { ...b, data: b.data.slice(1) } : b)),
  },
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
