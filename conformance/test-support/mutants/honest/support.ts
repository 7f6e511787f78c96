import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import { OPERATIONS } from "../../../../src/contract/operations/index.js";
import { Router } from "../../../../src/contract/router.js";
export { bodyText } from "../base.js";
import { bodyText } from "../base.js";

// Shared mechanics of the honest variants: rewriting request and response text, nothing spec-specific.
// An honest variant is a server that chose differently where the spec leaves the choice open; it
// translates consistently, so what it answers and what it is sent back agree with each other.

export type Next = (req: SimRequest) => Promise<SimResponse>;

/** The path after `/{prefix}/v1`, or null for anything else (control plane, OAuth, images). */
export const sub = (req: SimRequest): string | null => /^\/[^/]+\/v1(\/.*)$/.exec(req.path)?.[1] ?? null;

/** True for the simulator's control plane (`/_sim/...`), which stands for the operator's back office. */
export const isControl = (req: SimRequest): boolean => req.path.startsWith("/_sim/");

export const withText = (req: SimRequest, text: string): SimRequest => ({
  ...req,
  body: new TextEncoder().encode(text),
});

/** The request with its body text rewritten (bodies left as they are when nothing changes). */
export function mapBodyText(req: SimRequest, f: (text: string) => string): SimRequest {
  if (!req.body) return req;
  const text = bodyText(req);
  const out = f(text);
  return out === text ? req : withText(req, out);
}

/** The request with its query string rewritten. */
export const mapQuery = (req: SimRequest, f: (query: string) => string): SimRequest => {
  const query = f(req.query);
  return query === req.query ? req : { ...req, query };
};

const isJsonResponse = (res: SimResponse): res is SimResponse & { body: string } =>
  typeof res.body === "string" && !!res.headers["content-type"]?.startsWith("application/json");

/** The response with its JSON text rewritten. */
export function mapResponseText(res: SimResponse, f: (text: string) => string): SimResponse {
  if (!isJsonResponse(res)) return res;
  const body = f(res.body);
  return body === res.body ? res : { ...res, body };
}

/** The response with its parsed JSON body rewritten. */
export function mapResponseJson(res: SimResponse, f: (body: any) => any): SimResponse {
  if (!isJsonResponse(res)) return res;
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    return res;
  }
  return { ...res, body: JSON.stringify(f(parsed)) };
}

/** Every plain object in a JSON value, depth first, each given to `f` (which may change it in place). */
export function eachObject(value: unknown, f: (o: Record<string, any>) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachObject(item, f);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const child of Object.values(value)) eachObject(child, f);
  f(value as Record<string, any>);
}

/** Rewrites each `name=value` of a query string, keeping every other byte as sent. */
export function mapQueryParam(query: string, name: string, f: (value: string) => string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0 || pair.slice(0, eq) !== name) return pair;
      let value: string;
      try {
        value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, " "));
      } catch {
        return pair;
      }
      return `${name}=${encodeURIComponent(f(value))}`;
    })
    .join("&");
}

const ROUTES = new Router<true>();
for (const o of OPERATIONS) ROUTES.add(o.method, o.path, true);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The methods an API path (after `/v1`) has operations for: empty for an unknown path. */
export const methodsOf = (path: string): string[] => METHODS.filter((m) => ROUTES.match(m, path) !== undefined);

/** An error answer in the spec's envelope, keeping the headers (rate limits) of the answer it replaces. */
export function errorAnswer(
  res: SimResponse,
  status: number,
  code: string,
  message: string,
  extra: Record<string, string> = {},
): SimResponse {
  return {
    status,
    headers: { ...res.headers, ...extra, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify({ error: { code, message } }),
  };
}

/** The parsed body of a JSON answer, or undefined. */
export function jsonOf(res: SimResponse): any {
  if (!isJsonResponse(res)) return undefined;
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

/** The error code of a JSON answer, or undefined. */
export function errorOf(
  res: SimResponse,
): { code?: string; message?: string; fields?: { field: string; message: string }[] } | undefined {
  if (!isJsonResponse(res)) return undefined;
  try {
    const e = JSON.parse(res.body)?.error;
    return typeof e === "object" && e !== null ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The request with this path. */
export const withPath = (req: SimRequest, path: string): SimRequest => (path === req.path ? req : { ...req, path });

/** The request's body as form fields (the token endpoint's), empty when it has none. */
export const formOf = (req: SimRequest): URLSearchParams => new URLSearchParams(bodyText(req));

/** The store prefix a request addresses: `/{prefix}/v1/...` or the control plane's `/stores/{prefix}/...`. */
export const prefixOf = (req: SimRequest): string | undefined =>
  /^\/([^/]+)\/v1(?:\/|$)/.exec(req.path)?.[1] ??
  /^\/_sim\/(?:sandboxes\/[^/]+\/)?stores\/([^/]+)(?:\/|$)/.exec(req.path)?.[1];

/** A control plane GET made by the variant beside the client's request (the back office looking something up). */
async function controlGet(next: Next, req: SimRequest, path: string): Promise<any> {
  const res = await next({ ...req, method: "GET", path, query: "", headers: {}, body: null, bodyTooLarge: false });
  if (res.status !== 200 || typeof res.body !== "string") return undefined;
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
}

/**
 * The stored state of the store a request addresses, as `GET /_sim/snapshot` shows it (its sandbox's
 * snapshot for a sandbox's store), or undefined. Reading it counts toward no limit of the API: it is
 * how a variant looks up what its server knows (a reason's state, a product's SKU) without a request
 * the client would see counted.
 */
export async function storeState(next: Next, req: SimRequest): Promise<any> {
  const prefix = prefixOf(req);
  if (prefix === undefined) return undefined;
  const inSnapshot = (snapshot: any) => snapshot?.stores?.find((s: any) => s?.settings?.prefix === prefix);
  const found = inSnapshot(await controlGet(next, req, "/_sim/snapshot"));
  if (found !== undefined) return found;
  const sandboxes = await controlGet(next, req, "/_sim/sandboxes");
  const sandbox = Array.isArray(sandboxes)
    ? sandboxes.find((s: any) => s?.stores?.some((st: any) => st?.prefix === prefix))
    : undefined;
  return sandbox ? inSnapshot(await controlGet(next, req, `/_sim/sandboxes/${sandbox.id}/snapshot`)) : undefined;
}

/** The live rows of a snapshot table (`{seq, deleted_at, value}` entries) as `{...value, seq}`. */
export const liveRows = (table: unknown): any[] =>
  Array.isArray(table) ? table.filter((r) => r?.deleted_at === null).map((r) => ({ ...r.value, seq: r.seq })) : [];

const UTF8 = new TextDecoder("utf-8", { fatal: true });

const mapValues = (headers: Readonly<Record<string, string | undefined>>, f: (text: string) => string) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === undefined ? v : f(v)]));

/**
 * A server that writes some text differently everywhere it writes it and reads it back everywhere a
 * client sends it: `back` rewrites the request (path, query, headers, body), `forth` the answer
 * (headers, text body). The two must be inverse bijections, so whatever a client echoes is read as
 * what it was given.
 */
export function bothWays(back: (text: string) => string, forth: (text: string) => string) {
  return (next: Next): Next =>
    async (req) => {
      let body = req.body;
      if (body) {
        try {
          const text = UTF8.decode(body);
          const out = back(text);
          if (out !== text) body = new TextEncoder().encode(out);
        } catch {
          // not text: sent on as it is
        }
      }
      const res = await next({
        ...req,
        path: back(req.path),
        query: back(req.query),
        headers: mapValues(req.headers, back),
        body,
      });
      return {
        ...res,
        headers: mapValues(res.headers, forth) as Record<string, string>,
        ...(typeof res.body === "string" ? { body: forth(res.body) } : {}),
      };
    };
}
