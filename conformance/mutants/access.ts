import type { Mutant } from "./base.js";

export const accessMutants: readonly Mutant[] = [];
