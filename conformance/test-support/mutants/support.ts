import type { SimRequest, SimResponse } from "../../../src/http/types.js";
import { bodyOf } from "./base.js";
export { bodyOf, bodyText as textOf, withBody, withRaw } from "./base.js";

// Helpers the mutants of several areas share: reading and rewriting requests and responses, answers
// as the simulator would write them, and requests a mutant makes behind the client's back.

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

export type Next = (req: SimRequest) => Promise<SimResponse>;

const PRODUCTS = /^\/[^/]+\/v1\/products$/;
const PRODUCT = /^\/[^/]+\/v1\/products\/([^/]+)$/;

/** A product create or update. */
export const isProductWrite = (req: SimRequest): boolean =>
  (req.method === "POST" && PRODUCTS.test(req.path)) || (req.method === "PATCH" && PRODUCT.test(req.path));
/** A product write that imports an image from an https address. */
export const importsImage = (req: SimRequest): boolean =>
  isProductWrite(req) && typeof bodyOf(req)?.image_url === "string" && bodyOf(req).image_url.startsWith("https://");
export const idOf = (id: unknown): string => String(id).toLowerCase();

/** A control-plane or API request of the mutant's own. */
export const own = (
  req: SimRequest,
  method: string,
  path: string,
  body?: unknown,
  authorization?: string,
): SimRequest => {
  const bytes = body === undefined ? null : new TextEncoder().encode(JSON.stringify(body));
  const headers: Record<string, string> = bytes
    ? { "content-type": "application/json", "content-length": String(bytes.length) }
    : {};
  if (authorization) headers.authorization = authorization;
  return { method, path, query: "", headers, body: bytes, remoteAddress: req.remoteAddress, origin: req.origin };
};

/** The stores and keys of the simulator (control: GET /_sim/credentials). */
export async function stores(
  next: Next,
  req: SimRequest,
): Promise<
  { prefix: string; plan: string; status: string; keys: { token: string; name: string; scopes: string[] }[] }[]
> {
  return jsonOf(await next(own(req, "GET", "/_sim/credentials")))?.stores ?? [];
}

/** The query with `name` set to `value` (left out: removed). */
export const setQuery = (query: string, name: string, value: string | undefined): string => {
  const parts = query.split("&").filter((p) => p !== "" && !p.startsWith(`${name}=`));
  if (value !== undefined) parts.push(`${name}=${value}`);
  return parts.join("&");
};

/** The request with this raw body, Content-Length left as it was. */
export const withText = (req: SimRequest, text: string): SimRequest => ({
  ...req,
  body: new TextEncoder().encode(text),
});

/** The simulator's clock as its Date header tells it (limits count on that clock, not on real time). */
export const clockOf = (res: SimResponse, last: number): number => {
  const at = Date.parse(res.headers["date"] ?? "");
  return Number.isNaN(at) ? last : at;
};

export const rateHeadersOf = (res: SimResponse): Record<string, string> =>
  Object.fromEntries(Object.entries(res.headers).filter(([k]) => k === "ratelimit" || k === "ratelimit-policy"));

/** A JSON response (by its Content-Type). */
export const isJsonResponse = (res: SimResponse) =>
  typeof res.body === "string" && (res.headers["content-type"] ?? "").startsWith("application/json");

/** The error code of a JSON response, if it has one. */
export const errorCode = (res: SimResponse): unknown => {
  if (!isJsonResponse(res)) return undefined;
  try {
    return JSON.parse(res.body as string)?.error?.code;
  } catch {
    return undefined;
  }
};

/** The response without these headers. */
export const withoutHeaders = (res: SimResponse, ...names: string[]): SimResponse => ({
  ...res,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !names.includes(k.toLowerCase()))),
});
