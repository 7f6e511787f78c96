import type { SimRequest, SimResponse } from "../../../../../src/http/types.js";
import type { Mutant } from "../../base.js";
import { clockOf } from "../../support.js";
import { clockMs, derived, errorCode, isReset, json, on, prefixOf, re, sub, type Next } from "../util.js";
import {
  apiReq,
  authorizeParams,
  bearer,
  clientOf,
  credentials,
  formOf,
  isConsent,
  isHeadlessAuthorize,
  isTokenCall,
  mapAuthorize,
  mapRedirect,
  mapTokenAnswer,
  redirectParam,
  s256,
  tokenAnswer,
  withClient,
  withForm,
} from "./util.js";

// OAuth details (Authentication 3 to 8): PKCE, who may connect, what a token may do, the token
// answer's fields, client authentication, disconnects.

const HOUR = 3_600_000;
const isAuthorize = (req: SimRequest): boolean => isHeadlessAuthorize(req) || isConsent(req);
const withBearer = (req: SimRequest, token: string): SimRequest => ({
  ...req,
  headers: { ...req.headers, authorization: `Bearer ${token}` },
});
const codeOf = (req: SimRequest): string | undefined => {
  const f = formOf(req);
  return isTokenCall(req) && f.get("grant_type") === "authorization_code" ? (f.get("code") ?? undefined) : undefined;
};
/** A headless authorization refused for its user (400 naming user_id), and who that user is. */
async function refusedUser(
  next: Next,
  req: SimRequest,
  res: SimResponse,
): Promise<{ user: { id: string; store_prefix: string; role: string; plan: string }; admin?: string } | undefined> {
  const fields: { field: string }[] = json(res)?.error?.fields ?? [];
  if (!isHeadlessAuthorize(req) || res.status !== 400 || !fields.some((f) => f.field === "user_id")) return undefined;
  const users = (await credentials(next, req)).users;
  const user = users.find((u) => u.id === authorizeParams(req)?.user_id);
  if (!user) return undefined;
  const admin = users.find((u) => u.store_prefix === user.store_prefix && u.role === "admin")?.id;
  return { user, ...(admin ? { admin } : {}) };
}

export const oauthMutants: readonly Mutant[] = [
  {
    name: "blind.oauth.pkce-plain-accepted",
    breaks:
      'Authentication 3: "optionally code_challenge with code_challenge_method=S256 for PKCE" (the plain method is accepted too: the challenge is then the verifier itself)',
    caughtBy: ["model.oauth"],
    wrap: (next) => async (req) => {
      const p = authorizeParams(req);
      if (p?.code_challenge_method !== "plain" || !p.code_challenge) return next(req);
      return next(
        mapAuthorize(req, (x) => ({
          ...x,
          code_challenge: s256(x.code_challenge ?? ""),
          code_challenge_method: "S256",
        })),
      );
    },
  },
  {
    name: "blind.oauth.pkce-verifier-unchecked",
    breaks:
      'Authentication 3: "Step 3: POST {api_root}/oauth/token with form fields grant_type=authorization_code, code, redirect_uri, and code_verifier if PKCE was used." (the challenge is never stored, so any code_verifier, or none, is accepted)',
    caughtBy: ["oauth.pkce"],
    wrap: (next) => {
      const flows = new Set<string>();
      const codes = new Set<string>();
      const flowOf = (p: Record<string, string>) => `${p.client_id}\n${p.state ?? ""}`;
      return async (req) => {
        if (isReset(req)) {
          flows.clear();
          codes.clear();
        }
        const p = authorizeParams(req);
        if (p) {
          const pkce = !!p.code_challenge && p.code_challenge_method === "S256";
          if (pkce && flows.size < 10_000) flows.add(flowOf(p));
          const res = await next(
            pkce ? mapAuthorize(req, ({ code_challenge: _c, code_challenge_method: _m, ...rest }) => rest) : req,
          );
          const code = redirectParam(res, "code");
          if (code && flows.delete(flowOf(p)) && codes.size < 10_000) codes.add(code);
          return res;
        }
        const code = codeOf(req);
        if (code === undefined || !codes.has(code)) return next(req);
        const f = formOf(req);
        f.delete("code_verifier");
        return next(withForm(req, f));
      };
    },
  },
  {
    name: "blind.oauth.non-admin-connects",
    breaks:
      "Authentication 3: \"Only store admins on the Growth plan can connect an app; others see a refusal screen.\" (a staff user's consent is recorded as the store admin's)",
    caughtBy: ["model.oauth"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const refused = await refusedUser(next, req, res);
      if (!refused || refused.user.role === "admin" || refused.user.plan !== "growth" || !refused.admin) return res;
      const admin = refused.admin;
      return next(mapAuthorize(req, (x) => ({ ...x, user_id: admin })));
    },
  },
  {
    name: "blind.oauth.lite-plan-connects",
    breaks:
      'Authentication 3: "Only store admins on the Growth plan can connect an app; others see a refusal screen." (the connect path checks the role, not the plan)',
    caughtBy: ["model.oauth"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const refused = await refusedUser(next, req, res);
      if (refused?.user.role !== "admin" || refused.user.plan === "growth") return res;
      const store = `/_sim/stores/${encodeURIComponent(refused.user.store_prefix)}`;
      await next(derived(req, "PATCH", store, "", {}, { plan: "growth" }));
      const again = await next(req);
      await next(derived(req, "PATCH", store, "", {}, { plan: refused.user.plan }));
      return again;
    },
  },
  {
    name: "blind.oauth.read-token-erases",
    breaks:
      'Authentication, Scopes: "customers:write | create and update customers, and permanently erase personal details" (an OAuth token granted customers:read may erase: app tokens map the customers scopes by resource)',
    caughtBy: ["model.oauth"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "DELETE", re("/customers/:id")) || errorCode(res) !== "INSUFFICIENT_SCOPE") return res;
      const token = bearer(req);
      const store = (await credentials(next, req)).stores.find((s) => s.prefix === prefixOf(req));
      if (!store || store.keys.some((k) => k.token === token)) return res;
      const me = json(await next(apiReq(req, token, "GET", "/me")))?.data;
      const writer = store.keys.find((k) => k.scopes.includes("customers:write"));
      return Array.isArray(me?.scopes) && me.scopes.includes("customers:read") && writer
        ? next(withBearer(req, writer.token))
        : res;
    },
  },
  {
    name: "blind.oauth.token-type-lowercase",
    breaks: 'Authentication 6: "Token response fields: access_token, refresh_token, token_type (Bearer)" (bearer)',
    caughtBy: ["oauth.code-exchange"],
    wrap: (next) => async (req) =>
      mapTokenAnswer(req, await next(req), (b) => ({ ...b, token_type: String(b.token_type).toLowerCase() })),
  },
  {
    name: "blind.oauth.api-base-url-without-prefix",
    breaks:
      'Authentication 10: "The store prefix is found with GET /me or from api_base_url." (api_base_url is {api_root}/v1, without the store prefix)',
    caughtBy: ["oauth.code-exchange"],
    wrap: (next) => async (req) =>
      mapTokenAnswer(req, await next(req), (b) =>
        typeof b.api_base_url === "string" ? { ...b, api_base_url: b.api_base_url.replace(/\/[^/]+\/v1$/, "/v1") } : b,
      ),
  },
  {
    name: "blind.oauth.disconnect-spares-access-tokens",
    breaks:
      'States and transitions, Credential: "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately" (a disconnect ends the refresh token; access tokens work until their hour ends)',
    caughtBy: ["oauth.disconnect-stops"],
    wrap: (next) => {
      const issued = new Map<string, { at: number; scopes: string[]; prefix: string }>();
      const standIn = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) {
          issued.clear();
          standIn.clear();
        }
        if (isTokenCall(req)) {
          const res = await next(req);
          const b = tokenAnswer(req, res);
          const prefix = /\/([^/]+)\/v1$/.exec(String(b?.api_base_url))?.[1];
          if (b && prefix && issued.size < 10_000)
            issued.set(b.access_token, { at: clockOf(res, 0), scopes: String(b.scope).split(" "), prefix });
          return res;
        }
        const token = bearer(req);
        const g = token !== undefined && sub(req) !== null ? issued.get(token) : undefined;
        if (!g || !token) return next(req);
        const alias = standIn.get(token);
        if (alias && (await clockMs(next, req)) - g.at < HOUR) return next(withBearer(req, alias));
        const res = await next(req);
        if (res.status !== 401 || !/revoked/i.test(String(json(res)?.error?.message)) || clockOf(res, 0) - g.at >= HOUR)
          return res;
        const made = json(
          await next(
            derived(req, "POST", `/_sim/stores/${g.prefix}/keys`, "", {}, { name: "token-cache", scopes: g.scopes }),
          ),
        )?.token;
        if (typeof made !== "string") return res;
        standIn.set(token, made);
        return next(withBearer(req, made));
      };
    },
  },
  {
    name: "blind.oauth.cancel-not-access-denied",
    breaks:
      'Authentication 3: "Step 2: the merchant allows or cancels; the redirect carries code and the echoed state, or error=access_denied." (a cancel redirects with error=user_cancelled)',
    caughtBy: ["oauth.cancel-access-denied"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return isAuthorize(req) && redirectParam(res, "error") === "access_denied"
        ? mapRedirect(res, (u) => u.searchParams.set("error", "user_cancelled"))
        : res;
    },
  },
  {
    name: "blind.oauth.code-redeemable-by-other-client",
    breaks:
      'Authentication 8: "A wrong, expired or used code or token answers invalid_grant." (the exchange authenticates the client, then takes the client from the code: another client\'s code is redeemed)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const owner = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) owner.clear();
        const p = authorizeParams(req);
        if (p) {
          const res = await next(req);
          const code = redirectParam(res, "code");
          if (code && p.client_id && owner.size < 10_000) owner.set(code, p.client_id);
          return res;
        }
        const code = codeOf(req);
        const o = code !== undefined ? owner.get(code) : undefined;
        const c = clientOf(req);
        if (!o || !c || c.id === o) return next(req);
        const clients = (await credentials(next, req)).oauth_clients;
        const presented = clients.some((x) => x.client_id === c.id && x.client_secret === c.secret);
        const real = clients.find((x) => x.client_id === o);
        return presented && real
          ? next(withClient(req, { id: real.client_id, secret: real.client_secret }))
          : next(req);
      };
    },
  },
  {
    name: "blind.oauth.refresh-without-client-auth",
    breaks:
      'Authentication 5: "Client credentials are sent as HTTP Basic or as client_id and client_secret in the body, never both." (a refresh without client credentials is served for the client the refresh token belongs to)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const owners = new Map<string, { id: string; secret: string }>();
      return async (req) => {
        if (isReset(req)) owners.clear();
        if (!isTokenCall(req)) return next(req);
        const f = formOf(req);
        const o = f.get("grant_type") === "refresh_token" ? owners.get(f.get("refresh_token") ?? "") : undefined;
        const sent = o && !clientOf(req) ? withClient(req, o) : req;
        const res = await next(sent);
        const client = clientOf(sent);
        const b = tokenAnswer(req, res);
        if (b && client && typeof b.refresh_token === "string" && owners.size < 10_000)
          owners.set(b.refresh_token, client);
        return res;
      };
    },
  },
  {
    name: "blind.oauth.plus-separated-scope-refused",
    breaks:
      'Authentication 3: "Step 1: send the merchant to {auth_url}/oauth/authorize with query response_type=code (the only value), client_id, redirect_uri, scope (space or plus separated)" (scopes are split on spaces only: catalog:read+sales:read answers invalid_scope)',
    caughtBy: ["oauth.code-exchange"],
    wrap: (next) => async (req) => {
      const p = authorizeParams(req);
      if (!p?.scope?.includes("+")) return next(req);
      return next(mapAuthorize(req, (x) => ({ ...x, scope: (x.scope ?? "").replace(/\+/g, ",") })));
    },
  },
];
