import type { Mutant } from "./base.js";

export const catalogMutants: readonly Mutant[] = [];
