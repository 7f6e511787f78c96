import type { Mutant } from "./base.js";

export const peopleMutants: readonly Mutant[] = [];
