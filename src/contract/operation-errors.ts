import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "./errors.js";
import type { Operation } from "./operation.js";
import { pathParams } from "./path.js";

// The error codes (and so the statuses) each operation can answer: the OpenAPI document's error responses
// and the coverage of a run read the same list.

/** The codes of a store's plan and status (spec, Errors: 402 and 403 but INSUFFICIENT_SCOPE). */
export const STORE_STATE_CODES: readonly ErrorCode[] = [
  "PLAN_REQUIRED",
  "PLAN_USERS_EXCEEDED",
  "RETAILER_PAUSED",
  "TRIAL_DECISION_REQUIRED",
  "RETAILER_CANCELLED",
  "RETAILER_SUSPENDED",
  "RETAILER_NOT_FOUND",
];

/** Codes every operation can answer (authentication, store state, limits, query validation, faults). */
const COMMON_ERRORS: readonly ErrorCode[] = [
  "UNAUTHORIZED",
  "VALIDATION_FAILED",
  ...STORE_STATE_CODES,
  "RATE_LIMITED",
  "INTERNAL",
];

/**
 * The codes only an injected fault answers (`POST {control_url}/faults`): the spec's server fault
 * (Errors: "INTERNAL | 500 | server fault; retry after a short delay"). The simulator never fails of
 * itself, so the coverage of a run keeps what only these make apart from its score.
 */
export const FAULT_ONLY_CODES: readonly ErrorCode[] = ["INTERNAL"];

/** The codes `op` can answer, in the catalog's order. */
export function errorCodes(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...op.errors]);
  if (op.scope !== null) codes.add("INSUFFICIENT_SCOPE");
  if (pathParams(op.path).length > 0) codes.add("NOT_FOUND");
  if (op.idempotency !== "none") {
    codes.add("IDEMPOTENCY_IN_PROGRESS");
    codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  return ERROR_CODES.filter((c) => codes.has(c));
}

/** The statuses `op` can answer: its success and those of its error codes, ascending. */
export function operationStatuses(op: Operation): number[] {
  return [...new Set([op.successStatus, ...errorCodes(op).map((code) => ERROR_STATUS[code])])].sort((a, b) => a - b);
}

/** The codes `op` answers with `status`, in the catalog's order. */
export const codesAt = (op: Operation, status: number): ErrorCode[] =>
  errorCodes(op).filter((code) => ERROR_STATUS[code] === status);
