import type { Area } from "../types.js";
import type { Rule } from "../rule.js";

/** Declares a rule (identity function for typing and a single place to add checks later). */
export const rule = (r: Rule): Rule => r;

/**
 * The area of each rule id prefix: a rule `prefix.what` has this area and is declared in
 * rules/<prefix>.ts or under rules/<prefix>/ (layout.test.ts checks both).
 */
export const AREAS = {
  envelope: "Envelope",
  auth: "Authentication",
  scopes: "Scopes",
  stores: "Store states",
  isolation: "Isolation",
  pagination: "Pagination",
  catalog: "Catalog",
  inventory: "Inventory",
  customers: "Customers",
  sales: "Sales",
  idempotency: "Idempotency",
  limits: "Limits",
  oauth: "OAuth",
  openapi: "OpenAPI",
  model: "Model",
} as const satisfies Record<string, Area>;

/** Spec section names used in `spec.section`, so reports cite the spec the same way. */
export const SPEC = {
  what: "What the service does",
  resources: "Resources and their fields",
  states: "States and transitions",
  endpoints: "Endpoints",
  productWrite: "Endpoints: Product write rules",
  deletes: "Endpoints: Delete rules",
  inventory: "Endpoints: Inventory rules",
  sales: "Endpoints: Sales list rules",
  paging: "Endpoints: Pagination and polling rules",
  auth: "Authentication",
  scopes: "Authentication: Scopes",
  errors: "Errors",
  limits: "Limits",
  idempotency: "Limits: Idempotency",
  versioning: "Versioning",
} as const;
