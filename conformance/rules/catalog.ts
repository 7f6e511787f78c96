import type { Rule } from "../types.js";
import { collectionRules } from "./catalog-collections.js";
import { deleteRules } from "./catalog-deletes.js";
import { feedRules } from "./catalog-feed.js";
import { imageRules } from "./catalog-images.js";
import { productRules } from "./catalog-products.js";
import { variantRules } from "./catalog-variants.js";
import { versionRules } from "./catalog-versions.js";

// The Catalog area: products, their collections, versions, variants, deletes and the product feed.
// Rules live in catalog-*.ts; shared helpers in catalog-support.ts.

export const catalogRules: readonly Rule[] = [
  ...productRules,
  ...collectionRules,
  ...versionRules,
  ...variantRules,
  ...deleteRules,
  ...feedRules,
  ...imageRules,
];
