import { createSimulator, type Simulator, type SimulatorOptions } from "../../../src/simulator.js";
import type { Mutant } from "./base.js";
import { authMutants } from "./auth.js";
import { catalogMutants } from "./catalog.js";
import { customerMutants } from "./customers.js";
import { envelopeMutants } from "./envelope.js";
import { idempotencyMutants } from "./idempotency.js";
import { inventoryMutants } from "./inventory.js";
import { isolationMutants } from "./isolation.js";
import { limitMutants } from "./limits.js";
import { oauthMutants } from "./oauth.js";
import { openapiMutants } from "./openapi.js";
import { paginationMutants } from "./pagination.js";
import { salesMutants } from "./sales.js";
import { scopeMutants } from "./scopes.js";
import { storeMutants } from "./stores.js";

export type { Mutant } from "./base.js";

// The targeted mutants, one file per rule area: a mutant in mutants/<area>.ts is caught by rules of
// that area (layout.test.ts checks it). Helpers shared across areas are in base.ts and support.ts.

export const MUTANTS: readonly Mutant[] = [
  ...envelopeMutants,
  ...paginationMutants,
  ...catalogMutants,
  ...inventoryMutants,
  ...customerMutants,
  ...salesMutants,
  ...authMutants,
  ...scopeMutants,
  ...storeMutants,
  ...idempotencyMutants,
  ...limitMutants,
  ...oauthMutants,
  ...openapiMutants,
  ...isolationMutants,
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
