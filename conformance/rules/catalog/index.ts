import type { Rule } from "../../rule.js";
import { atomicWriteRules } from "./atomic-write.js";
import { collectionReplaceRules } from "./collections-replace.js";
import { collectionRules } from "./collections.js";
import { deleteRules } from "./deletes.js";
import { feedRules } from "./feed.js";
import { imageRules } from "./images.js";
import { productWriteRules } from "./product-writes.js";
import { productRules } from "./products.js";
import { variantRules } from "./variants.js";
import { refusalRules } from "./refusals.js";
import { taxonomyDeleteRules } from "./taxonomy-deletes.js";
import { taxonomyListRules } from "./taxonomy-lists.js";
import { versionRules } from "./versions.js";

// The Catalog area: products, their collections, versions, variants, deletes and the product feed.
// Shared helpers are in ../support/catalog.ts and ../support/images.ts.

export const catalogRules: readonly Rule[] = [
  ...productRules,
  ...productWriteRules,
  ...collectionRules,
  ...collectionReplaceRules,
  ...atomicWriteRules,
  ...versionRules,
  ...variantRules,
  ...deleteRules,
  ...taxonomyDeleteRules,
  ...taxonomyListRules,
  ...feedRules,
  ...imageRules,
  ...refusalRules,
];
