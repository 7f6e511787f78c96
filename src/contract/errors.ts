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

/** The `error` member of the spec's envelope: `{error: {code, message, fields?}}`. */
export interface ApiError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly fields?: readonly FieldError[];
  /** Sent next to the error (spec: IMAGE_FETCH_FAILED carries the saved product in `data`). */
  readonly data?: unknown;
  /** Seconds for the Retry-After header of a 429. */
  readonly retryAfter?: number;
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

/** Validation failures name the field with dots (`lines.2`); this builds the common one-field case. */
export function invalid(field: string, message: string): ApiError {
  return apiError("VALIDATION_FAILED", `${field}: ${message}`, [{ field, message }]);
}

export function notFound(what = "resource"): ApiError {
  return apiError("NOT_FOUND", `The requested ${what} was not found.`);
}
