import type { Mutant } from "../base.js";
import { accessMutants } from "./access.js";
import { catalogDeleteMutants } from "./catalog-deletes.js";
import { catalogVariantMutants } from "./catalog-variants.js";
import { catalogWriteMutants } from "./catalog-writes.js";
import { envelopeMutants } from "./envelope.js";
import { fieldMutants } from "./fields.js";
import { idempotencyMutants } from "./idempotency.js";
import { inventoryMutants } from "./inventory.js";
import { oauthMutants } from "./oauth.js";
import { pagingMutants } from "./paging.js";
import { customerSalesMutants } from "./customers-sales.js";
import { probeMutants } from "./probes.js";

// Blind mutants: broken servers written from the spec alone, without reading the conformance rules,
// to measure what the suite lets escape (run conformance/test-support/mutants/blind/escape-report.ts).
// Each violates one spec sentence, quoted in `breaks`, and names in caughtBy the rules that catch it (seed 1,
// runs 5). Not merged into ../index.ts: conformance.test.ts proves them in a block of their own; an
// empty caughtBy is a mutant not (yet) caught, and that test says why it is left out.

export const BLIND_MUTANTS: readonly Mutant[] = [
  ...envelopeMutants,
  ...fieldMutants,
  ...pagingMutants,
  ...catalogWriteMutants,
  ...catalogDeleteMutants,
  ...catalogVariantMutants,
  ...inventoryMutants,
  ...customerSalesMutants,
  ...accessMutants,
  ...idempotencyMutants,
  ...oauthMutants,
  ...probeMutants,
];
