import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
export { bodyOf as bodyJson, bodyText, withBody } from "../base.js";

// Shared mechanics of the blind mutants: request and response rewriting, nothing spec-specific.

export type Next = (req: SimRequest) => Promise<SimResponse>;

/** The path after `/{prefix}/v1`, or null for anything else (control plane, OAuth, images). */
export const sub = (req: SimRequest): string | null => /^\/[^/]+\/v1(\/.*)$/.exec(req.path)?.[1] ?? null;

/** `{prefix}` of an API request. */
export const prefixOf = (req: SimRequest): string | null => /^\/([^/]+)\/v1\//.exec(req.path)?.[1] ?? null;

/** True when the request is `method` on an API path matching `pattern` (anchored, after `/v1`). */
export const on = (req: SimRequest, method: string, pattern: RegExp): boolean => {
  const s = sub(req);
  return req.method === method && s !== null && pattern.test(s);
};

export const ID = "[^/]+";
export const re = (p: string): RegExp => new RegExp(`^${p.replace(/:id/g, ID)}$`);

export const params = (req: SimRequest): URLSearchParams => new URLSearchParams(req.query);

export const withQuery = (req: SimRequest, q: URLSearchParams): SimRequest => ({ ...req, query: q.toString() });

export const isJson = (res: SimResponse): boolean =>
  typeof res.body === "string" && !!res.headers["content-type"]?.startsWith("application/json");

export const json = (res: SimResponse): any => {
  if (!isJson(res)) return undefined;
  try {
    return JSON.parse(res.body as string);
  } catch {
    return undefined;
  }
};

/** The response with a new JSON body (headers kept). */
export const withJson = (res: SimResponse, body: unknown, status = res.status): SimResponse => ({
  ...res,
  status,
  headers: { ...res.headers, "content-type": "application/json; charset=utf-8" },
  body: JSON.stringify(body),
});

export const errorCode = (res: SimResponse): string | undefined => json(res)?.error?.code;

/** The same response carrying another error (status, code), keeping its headers and message. */
export const reError = (
  res: SimResponse,
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
): SimResponse => {
  const b = json(res);
  return withJson(res, { error: { code, message: b?.error?.message ?? code, ...extra } }, status);
};

/** A fresh error answer with the headers of `like` (rate limits, date). */
export const errorLike = (
  like: SimResponse,
  status: number,
  code: string,
  message: string,
  fields?: { field: string; message: string }[],
): SimResponse => withJson(like, { error: { code, message, ...(fields ? { fields } : {}) } }, status);

export const isReset = (req: SimRequest): boolean => req.method === "POST" && req.path === "/_sim/reset";

/** A control-plane or API request built from another (same origin, address). */
export const derived = (
  req: SimRequest,
  method: string,
  path: string,
  query = "",
  headers: Record<string, string | undefined> = {},
  body?: unknown,
): SimRequest => ({
  method,
  path,
  query,
  headers: { ...headers, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
  body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
  remoteAddress: req.remoteAddress,
  origin: req.origin,
});

/** The plaintext of a store's key by name, read from the control plane. */
export async function keyOf(next: Next, req: SimRequest, prefix: string, name: string): Promise<string | undefined> {
  const res = await next(derived(req, "GET", "/_sim/credentials"));
  const creds = json(res);
  const store = (creds?.stores ?? []).find((s: { prefix: string }) => s.prefix === prefix);
  return store?.keys?.find((k: { name: string }) => k.name === name)?.token;
}

/** The simulator's clock in ms, from the control plane. */
export async function clockMs(next: Next, req: SimRequest): Promise<number> {
  return Date.parse(json(await next(derived(req, "GET", "/_sim/clock")))?.now);
}

/** Replaces the Idempotency-Key (or drops it when `key` is undefined). */
export const withKey = (req: SimRequest, key: string | undefined): SimRequest => {
  const headers = { ...req.headers };
  if (key === undefined) delete headers["idempotency-key"];
  else headers["idempotency-key"] = key;
  return { ...req, headers };
};
