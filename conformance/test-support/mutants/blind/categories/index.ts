import type { Mutant } from "../../base.js";
import { doubleMutants } from "./double.js";
import { edgeMutants } from "./edges.js";
import { oauthMutants } from "./oauth.js";
import { stateMutants } from "./state.js";
import { timeMutants } from "./time.js";

// Blind mutants by category, written from the spec alone, apart from the code that judges them: each
// breaks one sentence, quoted in its `breaks`, and names in caughtBy a rule that fails against it alone
// (seed 1, runs 20: conformance/model.test.ts). Witnessed in witness.test.ts: a short request sequence
// whose answer differs from the honest simulator's.

export const CATEGORY_MUTANTS: Readonly<Record<"state" | "edges" | "double" | "time" | "oauth", readonly Mutant[]>> = {
  state: stateMutants,
  edges: edgeMutants,
  double: doubleMutants,
  time: timeMutants,
  oauth: oauthMutants,
};

export const ALL_CATEGORY_MUTANTS: readonly Mutant[] = Object.values(CATEGORY_MUTANTS).flat();
