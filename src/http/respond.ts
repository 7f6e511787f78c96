import { ERROR_STATUS, type ApiError } from "../contract/errors.js";
import { payloadParts, stringifyPayload } from "../kernel/raw-json.js";
import type { SimResponse } from "./types.js";

export const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): SimResponse {
  const allHeaders = { "content-type": JSON_TYPE, ...headers };
  const parts = payloadParts(payload);
  if (parts === undefined) return { status, headers: allHeaders, body: stringifyPayload(payload) };
  return partsResponse(status, allHeaders, parts);
}

/** The parts of the answers whose body is still the bytes they were made with (see `bodyParts`). */
const PARTS = new WeakMap<SimResponse, readonly Uint8Array[]>();

/**
 * The body of an answer as the parts it was assembled from (cached rows' UTF-8 bytes), for an adapter that
 * can send them as they are; undefined for an answer made otherwise, copied (`{...res}`) or whose body was
 * replaced, whose `body` is then what to send.
 */
export function bodyParts(res: SimResponse): readonly Uint8Array[] | undefined {
  return PARTS.get(res);
}

/** An answer whose `body` text is joined from its parts only when read (the node adapter never reads it). */
function partsResponse(status: number, headers: Record<string, string>, parts: readonly Uint8Array[]): SimResponse {
  let body: string | Uint8Array | null | undefined;
  const res: SimResponse = {
    status,
    headers,
    get body(): string | Uint8Array | null {
      body ??= Buffer.concat(parts).toString("utf8");
      return body;
    },
    set body(value: string | Uint8Array | null) {
      body = value;
      PARTS.delete(res);
    },
  };
  PARTS.set(res, parts);
  return res;
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
