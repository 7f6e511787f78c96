import type { SimRequest, SimResponse } from "../../src/http/types.js";
export { bodyOf, bodyText as textOf, withBody, withRaw } from "./base.js";

// Helpers of the mutants for the gap rules (conformance/rules/gaps-*.ts): reading and rewriting
// requests and responses, and requests a mutant makes behind the client's back.

export const API_PATH = (rest: string): RegExp => new RegExp(`^/[^/]+/v1${rest}$`);
export const CONTROL_PATH = (rest: string): RegExp => new RegExp(`^/_sim${rest}$`);

export const jsonOf = (res: SimResponse): any => {
  if (typeof res.body !== "string" || res.body === "") return undefined;
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
};

export const codeOf = (res: SimResponse): unknown => jsonOf(res)?.error?.code;

/** An answer with these status and body, keeping the response's other headers (rate limits, date). */
export const answer = (res: SimResponse, status: number, body: unknown): SimResponse => {
  const { "content-type": _t, "content-length": _l, ...headers } = res.headers;
  if (body === undefined) return { ...res, status, headers, body: "" };
  return {
    ...res,
    status,
    headers: { ...headers, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(body),
  };
};

export const apiError = (
  res: SimResponse,
  status: number,
  code: string,
  message: string,
  fields?: { field: string; message: string }[],
): SimResponse => answer(res, status, { error: { code, message, ...(fields ? { fields } : {}) } });

/** Another request of the same caller (same credential and address), made by the mutant. */
export const sideRequest = (req: SimRequest, method: string, path: string, query = ""): SimRequest => {
  const { "content-length": _l, "content-type": _t, "idempotency-key": _k, ...headers } = req.headers;
  return { ...req, method, path, query, headers, body: null };
};

/** `/demo/v1` of a request path. */
export const prefixOf = (path: string): string => /^\/[^/]+\/v1/.exec(path)?.[0] ?? "";

/** A query parameter's value, decoded. */
export const param = (query: string, name: string): string | undefined =>
  new URLSearchParams(query).get(name) ?? undefined;
