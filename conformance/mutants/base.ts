import type { SimRequest, SimResponse } from "../../src/http/types.js";

// Deliberately broken simulators, each violating one spec rule, to prove the suite detects it.
// A mutant wraps the simulator's handler: it rewrites requests or responses, or replays requests.

export interface Mutant {
  readonly name: string;
  /** The spec rule it breaks, in words. */
  readonly breaks: string;
  /** Rule ids expected to catch it (at least one must fail). */
  readonly caughtBy: readonly string[];
  wrap(next: (req: SimRequest) => Promise<SimResponse>): (req: SimRequest) => Promise<SimResponse>;
}

export const API = /^\/[^/]+\/v1\//;

/** Rewrites JSON bodies of API responses. */
export const mapJson = (res: SimResponse, f: (body: any) => any): SimResponse => {
  if (typeof res.body !== "string" || !res.headers["content-type"]?.startsWith("application/json")) return res;
  return { ...res, body: JSON.stringify(f(JSON.parse(res.body))) };
};

