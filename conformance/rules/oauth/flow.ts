import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { rule, SPEC } from "../rule.js";
import {
  authorize,
  exchange,
  givenOAuthClient,
  INVALID_GRANT_STATUSES,
  oauthClient,
  refreshGrant,
  token,
  type OAuthClient,
} from "../support/oauth.js";
import { advance, oauthError, prefixOfBaseUrl, WAITS_FOR } from "../support/access.js";
import { accessTokenOf, bodyOf, dataOf, type Identity, oauthCode, tokenAnswerOf } from "../../shapes.js";

// Spec, Authentication 3 to 8: the authorization code flow, headless through the control plane
// (POST /_sim/oauth/authorize with the fixture's admin user and client from GET /_sim/credentials) or
// without one by a sign-in at the consent screen (--oauth-client, --oauth-redirect-uri, --oauth-user),
// and the token endpoint at {api_root}/oauth/token with form bodies (helpers in ../support/oauth.ts).

/** The client, and the store prefix its token answers' api_base_url ends in. */
type OAuth = OAuthClient & { readonly prefix: string };

/** Without a control plane, a code comes from a sign-in at the consent screen. */
const SIGN_IN = ["oauthClient", "oauthUser"] as const;

const setup = (ctx: RuleContext): Promise<OAuth> => oauthClient(ctx);

/** The client given to --oauth-client, for a run without a control plane. */
const givenOAuth = (ctx: RuleContext): OAuth => ({ ...givenOAuthClient(ctx), prefix: prefixOfBaseUrl(ctx) });

/** Spec, Authentication 6: the token response's fields. */
function tokenFields(
  ctx: RuleContext,
  reply: Reply,
  o: OAuth,
  scopes: readonly string[],
): { access: string; refresh: string } {
  ctx.check(
    reply.status === 200,
    "the token endpoint answers 200",
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  const t = tokenAnswerOf(reply);
  const access = ctx.defined(
    typeof t.access_token === "string" && t.access_token !== "" ? t.access_token : undefined,
    "access_token",
    JSON.stringify(t.access_token ?? null).slice(0, 20),
  );
  const refresh = ctx.defined(
    typeof t.refresh_token === "string" && t.refresh_token !== "" ? t.refresh_token : undefined,
    "refresh_token",
    typeof t.refresh_token,
  );
  ctx.check(
    typeof t.token_type === "string" && /^bearer$/i.test(t.token_type),
    "token_type Bearer",
    JSON.stringify(t.token_type ?? null),
  );
  ctx.check(t.expires_in === 3600, "expires_in 3600", JSON.stringify(t.expires_in ?? null));
  const granted = typeof t.scope === "string" ? t.scope.split(" ") : [];
  ctx.check(
    typeof t.scope === "string" && !granted.includes("") && scopes.every((s) => granted.includes(s)),
    `scope space separated, with ${scopes.join(" ")}`,
    JSON.stringify(t.scope ?? null),
  );
  ctx.check(typeof t.store_name === "string", "store_name", JSON.stringify(t.store_name ?? null));
  ctx.check(
    typeof t.api_base_url === "string" && t.api_base_url.replace(/\/+$/, "").endsWith(`/${o.prefix}/v1`),
    `api_base_url ending in /${o.prefix}/v1`,
    JSON.stringify(t.api_base_url ?? null),
  );
  return { access, refresh };
}

const unreserved = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".split(""));
const verifierArb = fc.string({ unit: unreserved, minLength: 43, maxLength: 128 });
const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");

export const flowRules = [
  rule({
    id: "oauth.code-exchange",
    area: "OAuth",
    title:
      "An allowed authorization redirects with a code and the state; the code exchanges for the token fields; the token works within its scopes (space or + separated)",
    spec: {
      section: SPEC.auth,
      quote:
        "Token response fields: access_token, refresh_token, token_type (Bearer), expires_in (3600), scope (space separated), store_name, api_base_url.",
    },
    needs: { control: true, orCredentials: SIGN_IN },
    cost: 9,
    leniency:
      "token_type in any letter case (RFC 6749 7.1); scope may list read scopes implied by write ones; api_base_url may end in a slash.",
    async run(ctx) {
      const o = await setup(ctx);
      const { code } = await authorize(ctx, o, { scope: "catalog:read" });
      const { access } = tokenFields(ctx, await exchange(ctx, o, code as string), o, ["catalog:read"]);
      const me = await ctx.call("GET", "/me", { token: access });
      ctx.status(me, 200);
      const scopes: unknown = dataOf<Identity>(me)?.scopes;
      ctx.check(
        Array.isArray(scopes) && scopes.includes("catalog:read"),
        "GET /me with the access token lists catalog:read",
        JSON.stringify(scopes),
      );
      ctx.status(await ctx.call("GET", "/products?limit=1", { token: access }), 200);
      ctx.error(await ctx.call("GET", "/customers?limit=1", { token: access }), 403, "INSUFFICIENT_SCOPE");
      // Scopes may be separated by "+" as well as by spaces (spec, Authentication 3).
      const plus = await authorize(ctx, o, { scope: "catalog:read+sales:read" });
      const both = tokenFields(ctx, await exchange(ctx, o, plus.code as string), o, ["catalog:read", "sales:read"]);
      ctx.status(await ctx.call("GET", "/sales?limit=1", { token: both.access }), 200);
    },
  }),
  rule({
    id: "oauth.cancel-access-denied",
    area: "OAuth",
    title: "A cancelled authorization redirects with error=access_denied and the echoed state",
    spec: { section: SPEC.auth, quote: "the redirect carries code and the echoed state, or error=access_denied." },
    needs: { control: true, orCredentials: SIGN_IN },
    cost: 2,
    async run(ctx) {
      const o = await setup(ctx);
      const state = ctx.name("state");
      const { params } = await authorize(ctx, o, { state, decision: "cancel" });
      ctx.check(
        params.get("error") === "access_denied" && params.get("state") === state && params.get("code") === null,
        `error=access_denied, state=${state}, no code`,
        params.toString(),
      );
    },
  }),
  rule({
    id: "oauth.code-once",
    area: "OAuth",
    title: "A code works once: a second exchange answers invalid_grant",
    spec: { section: SPEC.auth, quote: "A code is valid for 10 minutes and works once." },
    needs: { control: true, orCredentials: SIGN_IN },
    cost: 4,
    leniency: "invalid_grant with status 400 (RFC 6749 5.2) or 401.",
    async run(ctx) {
      const o = await setup(ctx);
      const { code } = await authorize(ctx, o);
      tokenFields(ctx, await exchange(ctx, o, code as string), o, ["catalog:read"]);
      oauthError(ctx, await exchange(ctx, o, code as string), "invalid_grant", INVALID_GRANT_STATUSES);
    },
  }),
  rule({
    id: "oauth.pkce",
    area: "OAuth",
    title: "PKCE S256: the matching code_verifier exchanges the code; another verifier, or none, answers invalid_grant",
    spec: { section: SPEC.auth, quote: "optionally code_challenge with code_challenge_method=S256 for PKCE" },
    needs: { control: true, orCredentials: SIGN_IN },
    cost: 23,
    leniency:
      "A missing verifier may answer invalid_request or invalid_grant; each attempt uses a code of its own, so a server that burns a code on a failed attempt passes.",
    async run(ctx) {
      const o = await setup(ctx);
      const pairs = fc.tuple(verifierArb, verifierArb).filter(([a, b]) => a !== b);
      await ctx.property(
        pairs,
        async ([verifier, wrong]) => {
          const challenge = s256(verifier);
          const refused = await authorize(ctx, o, { challenge });
          oauthError(
            ctx,
            await exchange(ctx, o, refused.code as string, { code_verifier: wrong }),
            "invalid_grant",
            INVALID_GRANT_STATUSES,
          );
          const allowed = await authorize(ctx, o, { challenge });
          tokenFields(ctx, await exchange(ctx, o, allowed.code as string, { code_verifier: verifier }), o, [
            "catalog:read",
          ]);
        },
        Math.min(ctx.run.runs, 5),
      );
      const bare = await authorize(ctx, o, { challenge: s256("a".repeat(43)) });
      const missing = await exchange(ctx, o, bare.code as string);
      ctx.check(
        missing.status >= 400 &&
          missing.status <= 401 &&
          ["invalid_grant", "invalid_request"].includes(oauthCode(missing) ?? ""),
        "no code_verifier for a PKCE code: invalid_grant or invalid_request",
        `status ${missing.status} ${missing.text.slice(0, 160)}`,
      );
    },
  }),
  rule({
    id: "oauth.error-shape",
    area: "OAuth",
    title:
      "Token endpoint errors are {error, error_description}: bad client credentials 401 invalid_client, an unknown code invalid_grant, credentials sent both ways refused",
    spec: {
      section: SPEC.auth,
      quote: "Token endpoint errors use the OAuth shape {error, error_description}, not the standard envelope.",
    },
    needs: { control: true, orCredentials: ["oauthClient"] },
    cost: 4,
    leniency:
      "Client credentials sent both as Basic and in the body: 400 or 401, any OAuth error value. Without a control plane the client is the one given to --oauth-client; without --oauth-redirect-uri the made-up grant is a refresh token instead of a code (Authentication 8: a wrong code or token answers invalid_grant).",
    async run(ctx) {
      const o = ctx.hasControl ? await setup(ctx) : givenOAuth(ctx);
      const unknownCode: Record<string, string> = o.redirectUri
        ? { grant_type: "authorization_code", code: ctx.name("no-such-code"), redirect_uri: o.redirectUri }
        : { grant_type: "refresh_token", refresh_token: ctx.name("no-such-refresh-token") };
      oauthError(
        ctx,
        await token(ctx, { ...o, clientSecret: `${o.clientSecret}x` }, unknownCode),
        "invalid_client",
        [401],
      );
      oauthError(ctx, await token(ctx, o, unknownCode), "invalid_grant", INVALID_GRANT_STATUSES);
      const both = await token(ctx, o, unknownCode, "both");
      ctx.check(
        [400, 401].includes(both.status) &&
          typeof oauthCode(both) === "string" &&
          typeof bodyOf(both)?.error_description === "string",
        "client credentials both ways: 400 or 401 {error, error_description}",
        `status ${both.status} ${both.text.slice(0, 160)}`,
      );
    },
  }),
  rule({
    id: "oauth.refresh-no-rotate",
    area: "OAuth",
    title: "A refresh gives a working access token and the refresh token does not rotate (it works again)",
    spec: {
      section: SPEC.auth,
      quote: "Refresh with grant_type=refresh_token and refresh_token. The refresh token does not rotate.",
    },
    needs: { control: true, orCredentials: SIGN_IN },
    cost: 7,
    leniency: "A refresh answer may leave refresh_token out (RFC 6749 6); when present it is the same token.",
    async run(ctx) {
      const o = await setup(ctx);
      const { code } = await authorize(ctx, o);
      const { refresh } = tokenFields(ctx, await exchange(ctx, o, code as string, {}, "basic"), o, ["catalog:read"]);
      for (const attempt of ["first", "second"]) {
        const renewed = await refreshGrant(ctx, o, refresh);
        const access = ctx.defined(
          renewed.status === 200 ? accessTokenOf(renewed) : undefined,
          `the ${attempt} refresh with the same refresh token: 200 with an access_token`,
          `status ${renewed.status} ${renewed.text.slice(0, 160)}`,
        );
        const again = tokenAnswerOf(renewed).refresh_token;
        if (again !== undefined) ctx.check(again === refresh, "the same refresh_token back", "another one");
        ctx.status(await ctx.call("GET", "/me", { token: access }), 200);
      }
    },
  }),
  rule({
    id: "oauth.code-expiry",
    area: "OAuth",
    title: "A code older than 10 minutes answers invalid_grant",
    spec: { section: SPEC.auth, quote: "A code is valid for 10 minutes and works once." },
    needs: { control: true, clock: true, orCredentials: SIGN_IN, waits: { seconds: 601, for: WAITS_FOR.code } },
    cost: 4,
    async run(ctx) {
      const o = await setup(ctx);
      const { code } = await authorize(ctx, o);
      await advance(ctx, 601);
      oauthError(ctx, await exchange(ctx, o, code as string), "invalid_grant", INVALID_GRANT_STATUSES);
    },
  }),
  rule({
    id: "oauth.token-expiry",
    area: "OAuth",
    title: "An access token stops after 3600 seconds (401); a refresh gives a new one",
    spec: {
      section: SPEC.auth,
      quote: "An access token lasts 1 hour. Refresh with grant_type=refresh_token and refresh_token.",
    },
    needs: { control: true, clock: true, orCredentials: SIGN_IN, waits: { seconds: 3601, for: WAITS_FOR.token } },
    cost: 8,
    async run(ctx) {
      const o = await setup(ctx);
      const { code } = await authorize(ctx, o);
      const { access, refresh } = tokenFields(ctx, await exchange(ctx, o, code as string), o, ["catalog:read"]);
      ctx.status(await ctx.call("GET", "/me", { token: access }), 200);
      await advance(ctx, 3601);
      ctx.error(await ctx.call("GET", "/me", { token: access }), 401, "UNAUTHORIZED");
      const renewed = await refreshGrant(ctx, o, refresh);
      ctx.status(renewed, 200);
      const renewedAccess = ctx.defined(
        accessTokenOf(renewed),
        "the refresh's access_token",
        renewed.text.slice(0, 160),
      );
      ctx.status(await ctx.call("GET", "/me", { token: renewedAccess }), 200);
    },
  }),
];
