import { ERROR_STATUS, type ApiError } from "../contract/errors.js";
import { stringifyPayload } from "../kernel/raw-json.js";
import type { SimResponse } from "./types.js";

export const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): SimResponse {
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: stringifyPayload(payload) };
}

/** Spec, Errors: `{"error": {"code", "message", "fields"?}}` with the catalog's status (and `data` beside it when given). */
export function errorResponse(error: ApiError, headers: Record<string, string> = {}): SimResponse {
  const envelope = error.fields
    ? { code: error.code, message: error.message, fields: error.fields }
    : { code: error.code, message: error.message };
  const extra: Record<string, string> =
    error.retryAfter === undefined ? {} : { "retry-after": String(error.retryAfter) };
  const body = error.data === undefined ? { error: envelope } : { data: error.data, error: envelope };
  return jsonResponse(ERROR_STATUS[error.code], body, { ...extra, ...headers });
}

export function emptyResponse(status = 204, headers: Record<string, string> = {}): SimResponse {
  return { status, headers, body: null };
}
