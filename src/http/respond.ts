import { ERROR_STATUS, type ApiError } from "../contract/errors.js";
import { payloadParts } from "../kernel/raw-json.js";
import { BODY_PARTS, BRANCHES, type BodyParts, JOINED_FROM, type SimResponse } from "./types.js";

export const JSON_TYPE = "application/json; charset=utf-8";

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): SimResponse {
  const allHeaders = { "content-type": JSON_TYPE, ...headers };
  const parts = payloadParts(payload);
  if (parts === undefined) return { status, headers: allHeaders, body: JSON.stringify(payload) };
  let length = 0;
  for (const part of parts) length += part.length;
  if (length >= PARTS_FROM_BYTES) return partsResponse(status, allHeaders, parts, length);
  const text = Buffer.concat(parts, length).toString("utf8");
  const res: SimResponse = { status, headers: allHeaders, body: text, [JOINED_FROM]: undefined };
  res[JOINED_FROM] = { of: res, text, parts, length };
  return res;
}

/**
 * From this size an answer of cached rows keeps its parts: below it (a product, a short page) one string
 * sent in one write with the headers costs less than gathering parts.
 */
const PARTS_FROM_BYTES = 16 * 1024;

/**
 * The body of an answer as the parts it was assembled from (cached rows' UTF-8 bytes), for an adapter that
 * can send them as they are; undefined for an answer made otherwise, copied (`{...res}`) or whose body was
 * replaced, whose `body` is then what to send.
 */
export function bodyParts(res: SimResponse): BodyParts | undefined {
  const held = res[BODY_PARTS];
  return held !== undefined && held.of === res ? held : undefined;
}

/**
 * The cached parts an answer's body is made of, sent as parts or joined into its text: undefined when it
 * was made otherwise, copied, or its body replaced. For keeping the bytes without the text.
 */
export function bodySource(
  res: SimResponse,
): { readonly parts: readonly Uint8Array[]; readonly length: number } | undefined {
  const sent = bodyParts(res);
  if (sent !== undefined) return sent;
  const joined = res[JOINED_FROM];
  return joined !== undefined && joined.of === res && joined.text === res.body ? joined : undefined;
}

/** An answer whose `body` text is joined from its parts only when read (the node adapter never reads it). */
function partsResponse(
  status: number,
  headers: Record<string, string>,
  parts: readonly Uint8Array[],
  length: number,
): SimResponse {
  let body: string | Uint8Array | null | undefined;
  const res: SimResponse = {
    status,
    headers,
    get body(): string | Uint8Array | null {
      body ??= Buffer.concat(parts, length).toString("utf8");
      return body;
    },
    set body(value: string | Uint8Array | null) {
      body = value;
      res[BODY_PARTS] = undefined;
    },
    [BODY_PARTS]: undefined,
  };
  res[BODY_PARTS] = { of: res, parts, length };
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
  const response = jsonResponse(ERROR_STATUS[error.code], body, { ...extra, ...headers });
  if (error.branch !== undefined) response[BRANCHES] = [error.branch];
  return response;
}

/** Names the rule branch an answer exercised (contract/coverage-branches.ts, `marked`). */
export function marked(response: SimResponse, branch: string): SimResponse {
  response[BRANCHES] = [...(response[BRANCHES] ?? []), branch];
  return response;
}

export function emptyResponse(status = 204, headers: Record<string, string> = {}): SimResponse {
  return { status, headers, body: null };
}
