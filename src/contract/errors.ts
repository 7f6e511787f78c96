// The error catalog of the spec's Errors table: the only place a status number comes from.

export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  PLAN_REQUIRED: 402,
  PLAN_USERS_EXCEEDED: 402,
  PRODUCT_LIMIT_REACHED: 402,
  RETAILER_PAUSED: 402,
  TRIAL_DECISION_REQUIRED: 402,
  RETAILER_CANCELLED: 403,
  RETAILER_SUSPENDED: 403,
  RETAILER_NOT_FOUND: 403,
  VALIDATION_FAILED: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  STALE_VERSION: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  UNPROCESSABLE: 422,
  NOT_STOCK_TRACKED: 422,
  REASON_DIRECTION_MISMATCH: 422,
  INSUFFICIENT_STOCK: 422,
  REASON_NOT_ALLOWED: 422,
  OUTLET_DELETED: 422,
  IMAGE_FETCH_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** Field errors one answer lists by default (the `fieldErrors` cap, `--cap field-errors=N`). */
export const DEFAULT_MAX_FIELD_ERRORS = 100;

/** How many field errors an entry made by `leftOut` stands for (hidden: JSON and comparisons never see it). */
const LEFT_OUT = Symbol("left out");

/**
 * The entry that ends a list of field errors cut short, in the shape of the others and named by the
 * root of what was checked (`body`, `query`): `{field: "body", message: "99900 more field errors were
 * left out"}` (docs/spec-choices.md, Requests).
 */
export function leftOut(count: number, root: string): FieldError {
  const message = count === 1 ? "1 more field error was left out" : `${count} more field errors were left out`;
  return Object.defineProperty({ field: root, message }, LEFT_OUT, { value: count, enumerable: false });
}

/**
 * At most `max` field errors, the first of each field only, then, when any were left out, one `leftOut`
 * entry counting them: the ones past `max`, and those the `leftOut` entries among `fields` already stood for.
 */
export function boundFields(fields: readonly FieldError[], max: number, root: string): FieldError[] {
  let omitted = 0;
  const kept: FieldError[] = [];
  for (const f of fields) {
    const stands = (f as { [LEFT_OUT]?: number })[LEFT_OUT];
    if (stands !== undefined) omitted += stands;
    else if (kept.some((k) => k.field === f.field)) continue;
    else if (kept.length < max) kept.push(f);
    else omitted += 1;
  }
  return omitted === 0 ? kept : [...kept, leftOut(omitted, root)];
}

/** The `error` member of the spec's envelope: `{error: {code, message, fields?}}`. */
export interface ApiError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly fields?: readonly FieldError[];
  /** Sent next to the error (spec: IMAGE_FETCH_FAILED carries the saved product in `data`). */
  readonly data?: unknown;
  /** Seconds for the Retry-After header of a 429. */
  readonly retryAfter?: number;
  /** The rule branch that refused (contract/coverage-branches.ts), for the coverage of a run. Never sent. */
  readonly branch?: string;
}

export function apiError(code: ErrorCode, message: string, fields?: readonly FieldError[]): ApiError {
  return fields && fields.length > 0 ? { code, message, fields } : { code, message };
}

export function isErrorCode(text: string): text is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, text);
}

/** The first catalog code answering with `status`, for faults that name only a status. */
export function codeForStatus(status: number): ErrorCode {
  const found = ERROR_CODES.find((code) => ERROR_STATUS[code] === status);
  return found ?? (status >= 500 ? "INTERNAL" : "VALIDATION_FAILED");
}

/** A refusal naming one field with dots (`lines.2`): the message is `field: message`. */
export function fieldError(code: ErrorCode, field: string, message: string): ApiError {
  return apiError(code, `${field}: ${message}`, [{ field, message }]);
}

/** The common validation failure of one field. */
export function invalid(field: string, message: string): ApiError {
  return fieldError("VALIDATION_FAILED", field, message);
}

export function notFound(what = "resource"): ApiError {
  return apiError("NOT_FOUND", `The requested ${what} was not found.`);
}
