// Sentences several operations' descriptions share (each quotes the spec: see operation.ts, `description`).

/** Spec, Pagination and polling rules 4, for lists without tombstones. */
export const NO_MARKER =
  "Spec, Pagination and polling rules 4: “on other lists deleted rows return in normal shape with no marker”, so with `include_deleted=true` a deleted row reads like a live one.";

/** Spec, Limits, Idempotency paragraph: updates and deletes take no key. */
export const NO_KEY = "Spec, Limits: “`PATCH` and `DELETE` take none” (no `Idempotency-Key`).";

/** Spec, Limits: the customer endpoints' further limit (docs/spec-choices.md: the `/customers` routes). */
export const CUSTOMER_LIMIT =
  "Customer endpoints allow 30 requests per minute per credential on top of the general limit.";
