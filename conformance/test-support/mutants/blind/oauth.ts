import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import type { Mutant } from "../base.js";
import { bodyText, isReset, json, on, re, withJson } from "./util.js";

// Blind mutants of OAuth (Authentication 3 to 8) and of the OpenAPI document (rule 6, Versioning 2).

const isToken = (req: SimRequest): boolean => req.method === "POST" && req.path === "/oauth/token";
const form = (req: SimRequest): URLSearchParams => new URLSearchParams(bodyText(req));
const withForm = (req: SimRequest, f: URLSearchParams): SimRequest => ({
  ...req,
  body: new TextEncoder().encode(f.toString()),
});
const tokenJson = (req: SimRequest, res: SimResponse, f: (b: any) => any): SimResponse => {
  if (!isToken(req)) return res;
  const b = json(res);
  return b && typeof b === "object" ? withJson(res, f(b)) : res;
};
const dropState = (url: string): string => {
  try {
    const u = new URL(url);
    if (!u.searchParams.has("state")) return url;
    u.searchParams.delete("state");
    return u.toString();
  } catch {
    return url;
  }
};

export const oauthMutants: readonly Mutant[] = [
  {
    name: "blind.token-expires-in-7200",
    breaks: 'Authentication 6: "Token response fields: ... expires_in (3600)" (7200)',
    caughtBy: ["oauth.token-response-values", "oauth.token-expiry"],
    wrap: (next) => async (req) =>
      tokenJson(req, await next(req), (b) => (typeof b.expires_in === "number" ? { ...b, expires_in: 7200 } : b)),
  },
  {
    name: "blind.refresh-token-rotates",
    breaks:
      'Authentication 7: "The refresh token does not rotate." (each refresh answers a new refresh token; the old one keeps working)',
    caughtBy: ["oauth.refresh-no-rotate", "oauth.token-response-values"],
    wrap: (next) => {
      const alias = new Map<string, string>();
      let n = 0;
      return async (req) => {
        if (isReset(req)) alias.clear();
        if (!isToken(req)) return next(req);
        const f = form(req);
        if (f.get("grant_type") !== "refresh_token") return next(req);
        const given = f.get("refresh_token") ?? "";
        const real = alias.get(given) ?? given;
        if (real !== given) f.set("refresh_token", real);
        const res = await next(real !== given ? withForm(req, f) : req);
        return tokenJson(req, res, (b) => {
          if (typeof b.refresh_token !== "string") return b;
          const fresh = `${b.refresh_token.slice(0, -6)}rot${String(++n).padStart(3, "0")}`;
          alias.set(fresh, b.refresh_token);
          return { ...b, refresh_token: fresh };
        });
      };
    },
  },
  {
    name: "blind.token-error-standard-envelope",
    breaks:
      'Authentication 8: "Token endpoint errors use the OAuth shape {error, error_description}, not the standard envelope." (invalid_grant in the standard envelope)',
    caughtBy: ["oauth.error-shape", "oauth.code-once"],
    wrap: (next) => async (req) =>
      tokenJson(req, await next(req), (b) =>
        b.error === "invalid_grant"
          ? { error: { code: "invalid_grant", message: b.error_description ?? "invalid grant" } }
          : b,
      ),
  },
  {
    name: "blind.invalid-client-400",
    breaks: 'Authentication 8: "Bad client credentials answer 401 invalid_client." (400)',
    caughtBy: ["oauth.error-shape", "oauth.client-credentials-both-ways"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return isToken(req) && res.status === 401 && json(res)?.error === "invalid_client"
        ? { ...res, status: 400 }
        : res;
    },
  },
  {
    name: "blind.code-works-twice",
    breaks:
      'Authentication 4: "A code is valid for 10 minutes and works once." (the exchange is cached by code and answered again)',
    caughtBy: ["oauth.code-once"],
    wrap: (next) => {
      const answers = new Map<string, SimResponse>();
      return async (req) => {
        if (isReset(req)) answers.clear();
        if (!isToken(req)) return next(req);
        const f = form(req);
        const code = f.get("grant_type") === "authorization_code" ? f.get("code") : null;
        const old = code ? answers.get(code) : undefined;
        if (old) return old;
        const res = await next(req);
        if (code && res.status === 200) answers.set(code, res);
        return res;
      };
    },
  },
  {
    name: "blind.token-scope-commas",
    breaks: 'Authentication 6: "Token response fields: ... scope (space separated)" (comma separated)',
    caughtBy: ["oauth.token-response-values", "oauth.code-exchange"],
    wrap: (next) => async (req) =>
      tokenJson(req, await next(req), (b) =>
        typeof b.scope === "string" ? { ...b, scope: b.scope.split(" ").join(",") } : b,
      ),
  },
  {
    name: "blind.client-credentials-both-ways-accepted",
    breaks:
      'Authentication 5: "Client credentials are sent as HTTP Basic or as client_id and client_secret in the body, never both." (both are accepted; the header wins)',
    caughtBy: ["oauth.client-credentials-both-ways"],
    wrap: (next) => async (req) => {
      if (!isToken(req) || !/^basic /i.test(req.headers.authorization ?? "")) return next(req);
      const f = form(req);
      if (!f.has("client_id") && !f.has("client_secret")) return next(req);
      f.delete("client_id");
      f.delete("client_secret");
      return next(withForm(req, f));
    },
  },
  {
    name: "blind.authorize-drops-state",
    breaks:
      'Authentication 3: "the redirect carries code and the echoed state, or error=access_denied" (state is not echoed)',
    caughtBy: ["oauth.code-exchange", "oauth.cancel-access-denied"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path === "/_sim/oauth/authorize") {
        const b = json(res);
        return typeof b?.redirect_to === "string"
          ? withJson(res, { ...b, redirect_to: dropState(b.redirect_to) })
          : res;
      }
      const loc = res.headers["location"];
      return req.path.startsWith("/oauth/authorize") && loc
        ? { ...res, headers: { ...res.headers, location: dropState(loc) } }
        : res;
    },
  },
  {
    name: "blind.openapi-server-without-prefix",
    breaks:
      'What the service does 6: "GET /openapi.json under the store prefix serves the machine-readable description of the API, with the store prefix in its server URL." (the server URL is the API root)',
    caughtBy: ["openapi.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/openapi.json")) || res.status !== 200) return res;
      const b = json(res);
      const doc = b?.openapi ? b : b?.data;
      if (!Array.isArray(doc?.servers)) return res;
      const fixed = {
        ...doc,
        servers: doc.servers.map((s: { url: string }) => ({ ...s, url: s.url.replace(/\/[^/]+\/v1\/?$/, "") })),
      };
      return withJson(res, b?.openapi ? fixed : { data: fixed });
    },
  },
  {
    name: "blind.openapi-version-bumped",
    breaks: 'Versioning 2: "The API description version is 1.0.0 and has stayed so" (1.2.0 after the later changes)',
    caughtBy: ["openapi.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/openapi.json")) || res.status !== 200) return res;
      const b = json(res);
      return b?.info ? withJson(res, { ...b, info: { ...b.info, version: "1.2.0" } }) : res;
    },
  },
  {
    name: "blind.openapi-without-taxes",
    breaks:
      'What the service does: "The first release has 44 operations." (the document describes 43: GET /taxes is missing)',
    caughtBy: ["openapi.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/openapi.json")) || res.status !== 200) return res;
      const b = json(res);
      if (!b?.paths?.["/taxes"]) return res;
      const { "/taxes": _taxes, ...paths } = b.paths;
      return withJson(res, { ...b, paths });
    },
  },
];
