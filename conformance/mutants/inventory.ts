import type { Mutant } from "./base.js";

export const inventoryMutants: readonly Mutant[] = [];
