import { createHash } from "node:crypto";
import type { SimRequest, SimResponse } from "../../../../../src/http/types.js";
import { bodyText, derived, json, keyOf, prefixOf, sub, withJson, type Next } from "../util.js";

// Mechanics several category mutants share: credentials, side requests, scopes of routes, the OAuth
// endpoints' forms and redirects. Nothing here breaks anything by itself.

export interface Creds {
  stores: { prefix: string; plan: string; keys: { id: string; name: string; token: string; scopes: string[] }[] }[];
  oauth_clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  users: { id: string; store_prefix: string; role: string; plan: string }[];
}

/** The control plane's view of stores, keys, clients and users. */
export async function credentials(next: Next, req: SimRequest): Promise<Creds> {
  const c = json(await next(derived(req, "GET", "/_sim/credentials")));
  return { stores: c?.stores ?? [], oauth_clients: c?.oauth_clients ?? [], users: c?.users ?? [] };
}

/** The bearer token of a request. */
export const bearer = (req: SimRequest): string | undefined =>
  /^bearer +(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];

/** Percent-decoding that never throws (a malformed escape is kept as sent). */
export const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The i-th segment of the path after `/v1` (1-based: `/products/{id}` has the id at 2), lower case. */
export const seg = (req: SimRequest, i: number): string => decode((sub(req) ?? "").split("/")[i] ?? "").toLowerCase();

/** An API request of the mutant's own, to `/{prefix}/v1{path}` as `token`. */
export const apiReq = (
  req: SimRequest,
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  query = "",
): SimRequest =>
  derived(
    req,
    method,
    `/${prefixOf(req)}/v1${path}`,
    query,
    { authorization: token ? `Bearer ${token}` : undefined },
    body,
  );

/** The `data` of an API GET made with the store's `full` key (undefined unless 200). */
export async function readFull(next: Next, req: SimRequest, path: string, query = ""): Promise<any> {
  const token = await keyOf(next, req, prefixOf(req) ?? "", "full");
  const res = await next(apiReq(req, token, "GET", path, undefined, query));
  return res.status === 200 ? json(res)?.data : undefined;
}

/** Maps `data` (a document or a list of them) of a JSON answer. */
export const mapData = (res: SimResponse, f: (row: any) => any): SimResponse => {
  const b = json(res);
  if (!b || typeof b !== "object" || b.data === undefined || b.data === null) return res;
  return withJson(res, { ...b, data: Array.isArray(b.data) ? b.data.map(f) : f(b.data) });
};

export const isObject = (v: unknown): v is Record<string, any> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** True when the request body is not a JSON object (unreadable, an array, a scalar). */
export const badJsonBody = (req: SimRequest): boolean => {
  try {
    return !isObject(JSON.parse(bodyText(req)));
  } catch {
    return true;
  }
};

/**
 * The scope a route needs (spec, Endpoints and Authentication: the scope table): null for the routes
 * that need none, undefined for a path that is no route.
 */
export function scopeFor(method: string, s: string | null): string | null | undefined {
  if (s === null) return undefined;
  const write = method !== "GET";
  if (/^\/(me|store|outlets|payment-types|taxes|openapi\.json)$/.test(s)) return null;
  if (/^\/products\/[^/]+\/inventory$/.test(s)) return "inventory:read";
  if (/^\/products\/[^/]+\/inventory\/[^/]+$/.test(s) || /^\/inventory\/(adjustments|batch)$/.test(s))
    return "inventory:write";
  if (s === "/inventory/adjustment-reasons") return "inventory:read";
  if (/^\/(products|brands|categories|tags|suppliers)(\/[^/]+)?$/.test(s) || /^\/products\/[^/]+\/variants$/.test(s))
    return write ? "catalog:write" : "catalog:read";
  if (/^\/customers(\/[^/]+)?$/.test(s)) return write ? "customers:write" : "customers:read";
  if (/^\/customer-groups(\/[^/]+)?$/.test(s)) return "customers:read";
  if (/^\/sales(\/[^/]+)?$/.test(s)) return "sales:read";
  return undefined;
}

/** A write scope satisfies its read scope (spec, Authentication: scopes). */
export const grants = (scopes: readonly string[], need: string): boolean =>
  scopes.includes(need) || (need.endsWith(":read") && scopes.includes(need.replace(/:read$/, ":write")));

/**
 * The 401 the simulator gives an unknown credential, sent as this request with another token, its
 * message saying the credential expired: the headers (failed-authentication window) stay the server's own.
 */
export async function expiredAnswer(next: Next, req: SimRequest): Promise<SimResponse> {
  const token = bearer(req) ?? "none";
  const res = await next({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}.lapsed` } });
  if (res.status !== 401) return res;
  return withJson(res, { error: { code: "UNAUTHORIZED", message: "The credential has expired." } });
}

// ---- OAuth ---------------------------------------------------------------------------------------

export const isTokenCall = (req: SimRequest): boolean => req.method === "POST" && req.path === "/oauth/token";
export const isHeadlessAuthorize = (req: SimRequest): boolean =>
  req.method === "POST" && /^\/_sim(\/sandboxes\/[^/]+)?\/oauth\/authorize$/.test(req.path);
export const isConsent = (req: SimRequest): boolean => req.path === "/oauth/authorize";

export const formOf = (req: SimRequest): URLSearchParams => new URLSearchParams(bodyText(req));
export const withForm = (req: SimRequest, f: URLSearchParams): SimRequest => {
  const bytes = new TextEncoder().encode(f.toString());
  return { ...req, body: bytes, headers: { ...req.headers, "content-length": String(bytes.length) } };
};

/** The client credentials of a token request: HTTP Basic or the form's (spec, Authentication 5). */
export function clientOf(req: SimRequest): { id: string; secret: string } | undefined {
  const basic = /^basic +(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (basic) {
    const text = Buffer.from(basic, "base64").toString("utf8");
    const at = text.indexOf(":");
    if (at < 0) return undefined;
    const dec = (s: string) => decode(s.replace(/\+/g, " "));
    return { id: dec(text.slice(0, at)), secret: dec(text.slice(at + 1)) };
  }
  const f = formOf(req);
  const id = f.get("client_id");
  return id === null ? undefined : { id, secret: f.get("client_secret") ?? "" };
}

/** The token request with these client credentials in the form, and no Basic header. */
export const withClient = (req: SimRequest, client: { id: string; secret: string }): SimRequest => {
  const f = formOf(req);
  f.set("client_id", client.id);
  f.set("client_secret", client.secret);
  const { authorization: _a, ...headers } = req.headers;
  return withForm({ ...req, headers }, f);
};

/** The authorization request's parameters, whichever way it came (headless JSON, consent page query or form). */
export function authorizeParams(req: SimRequest): Record<string, string> | undefined {
  if (isHeadlessAuthorize(req)) {
    try {
      const b = JSON.parse(bodyText(req));
      return isObject(b) ? Object.fromEntries(Object.entries(b).map(([k, v]) => [k, String(v)])) : undefined;
    } catch {
      return undefined;
    }
  }
  if (!isConsent(req)) return undefined;
  const p = req.method === "GET" ? new URLSearchParams(req.query) : formOf(req);
  return Object.fromEntries(p.entries());
}

/** The authorization request with its parameters rewritten by `f` (which may delete or set keys). */
export function mapAuthorize(req: SimRequest, f: (p: Record<string, string>) => Record<string, string>): SimRequest {
  const params = authorizeParams(req);
  if (!params) return req;
  const out = f({ ...params });
  if (isHeadlessAuthorize(req)) {
    // Every field of the headless body is a string.
    const bytes = new TextEncoder().encode(JSON.stringify(out));
    return { ...req, body: bytes, headers: { ...req.headers, "content-length": String(bytes.length) } };
  }
  const p = new URLSearchParams(out);
  return req.method === "GET" ? { ...req, query: p.toString() } : withForm(req, p);
}

/** Where an authorization answer sends the browser: the headless `redirect_to` or the Location header. */
export const redirectOf = (res: SimResponse): string | undefined => {
  const to = res.headers["location"] ?? json(res)?.redirect_to;
  return typeof to === "string" ? to : undefined;
};

export const redirectParam = (res: SimResponse, name: string): string | undefined => {
  const to = redirectOf(res);
  try {
    return to ? (new URL(to).searchParams.get(name) ?? undefined) : undefined;
  } catch {
    return undefined;
  }
};

/** The answer with its redirect rewritten by `f`. */
export const mapRedirect = (res: SimResponse, f: (url: URL) => void): SimResponse => {
  const to = redirectOf(res);
  if (!to) return res;
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    return res;
  }
  f(url);
  if (res.headers["location"]) return { ...res, headers: { ...res.headers, location: url.toString() } };
  return withJson(res, { ...json(res), redirect_to: url.toString() });
};

/** RFC 7636 4.2: the S256 challenge of a verifier. */
export const s256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");

/** The token answer (200) of a token call, or undefined. */
export const tokenAnswer = (req: SimRequest, res: SimResponse): any => {
  if (!isTokenCall(req) || res.status !== 200) return undefined;
  const b = json(res);
  return isObject(b) && typeof b.access_token === "string" ? b : undefined;
};

/** Token answers (200) of the token endpoint, rewritten by `f`. */
export const mapTokenAnswer = (req: SimRequest, res: SimResponse, f: (b: any) => any): SimResponse => {
  const b = tokenAnswer(req, res);
  return b ? withJson(res, f(b)) : res;
};
