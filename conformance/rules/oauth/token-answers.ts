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
  type OAuthClient,
} from "../support/oauth.js";
import { SCOPES, closure, oauthError } from "../support/access.js";
import { accessTokenOf, bodyOf, expectData, type Identity, oauthCode, tokenAnswerOf } from "../../shapes.js";

// Spec, Authentication 5 to 7: the values of the token answer (code exchange and refresh) and how a
// client sends its credentials. Codes come from the control plane's headless consent
// (POST /_sim/oauth/authorize) through ../support/oauth.ts; the token endpoint is {api_root}/oauth/token.

/** A code for these scopes (the merchant allows, headless). */
async function codeFor(ctx: RuleContext, c: OAuthClient, scopes: readonly string[]): Promise<string> {
  return (await authorize(ctx, c, { scope: scopes.join(" ") })).code as string;
}

/** A URL without a trailing slash (URL already writes scheme and host in lower case), for comparison. */
function normalUrl(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  try {
    const u = new URL(value);
    return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return undefined;
  }
}

interface Expected {
  readonly scopes: readonly string[];
  readonly storeName: string;
  /** On a refresh: the refresh token held (the answer may leave it out; when present it is the same). */
  readonly heldRefresh?: string;
}

/** Spec, Authentication 6: each field of a token answer with its value. */
function tokenValues(
  ctx: RuleContext,
  reply: Reply,
  what: string,
  want: Expected,
): { access: string; refresh: string; base: string } {
  ctx.check(reply.status === 200, `${what}: 200`, `status ${reply.status} ${reply.text.slice(0, 200)}`);
  const t = tokenAnswerOf(reply);
  const access = ctx.defined(
    typeof t.access_token === "string" && t.access_token !== "" ? t.access_token : undefined,
    `${what}: access_token`,
    typeof t.access_token,
  );
  if (want.heldRefresh === undefined)
    ctx.check(
      typeof t.refresh_token === "string" && t.refresh_token !== "",
      `${what}: refresh_token`,
      typeof t.refresh_token,
    );
  else
    ctx.check(
      t.refresh_token === undefined || t.refresh_token === want.heldRefresh,
      `${what}: refresh_token left out or the same (it does not rotate)`,
      "another refresh_token",
    );
  ctx.check(t.token_type === "Bearer", `${what}: token_type "Bearer"`, JSON.stringify(t.token_type ?? null));
  ctx.check(t.expires_in === 3600, `${what}: expires_in 3600`, JSON.stringify(t.expires_in ?? null));
  const listed: string[] = typeof t.scope === "string" ? t.scope.split(" ") : [];
  const implied = closure(want.scopes);
  ctx.check(
    typeof t.scope === "string" &&
      !listed.includes("") &&
      want.scopes.every((s) => listed.includes(s)) &&
      listed.every((s) => implied.includes(s)),
    `${what}: scope space separated, the granted ${want.scopes.join(" ")} (and the read scopes they imply)`,
    JSON.stringify(t.scope ?? null),
  );
  ctx.check(
    t.store_name === want.storeName,
    `${what}: store_name ${JSON.stringify(want.storeName)} (GET /me)`,
    JSON.stringify(t.store_name ?? null),
  );
  ctx.check(
    normalUrl(t.api_base_url) === normalUrl(ctx.run.target.baseUrl),
    `${what}: api_base_url ${ctx.run.target.baseUrl}`,
    JSON.stringify(t.api_base_url ?? null),
  );
  return {
    access,
    refresh: typeof t.refresh_token === "string" ? t.refresh_token : (want.heldRefresh as string),
    base: String(t.api_base_url).replace(/\/+$/, ""),
  };
}

/** GET {api_base_url}/me with the token answers 200 (spec, Authentication 10: the prefix is found from api_base_url). */
async function works(ctx: RuleContext, base: string, access: string, what: string): Promise<void> {
  const me = await ctx.send("GET", `${base}/me`, { token: access });
  ctx.check(
    me.status === 200 && typeof bodyOf(me)?.data === "object",
    `GET ${base}/me with the access token of ${what}: 200 with an Identity`,
    `status ${me.status} ${me.text.slice(0, 160)}`,
  );
}

/**
 * The simulator's token answers (strict profile): `Cache-Control: no-store`, token_type `Bearer`,
 * api_base_url exactly {api_root}/{prefix}/v1, and scope exactly the granted scopes with the read
 * scopes their write scopes imply, separated by single spaces.
 */
function tokenChoices(ctx: RuleContext, reply: Reply, scopes: readonly string[], what: string): void {
  const t = bodyOf(reply);
  const base = ctx.run.target.baseUrl.replace(/\/+$/, "");
  ctx.choice(
    "Token responses",
    reply.headers["cache-control"] === "no-store" && t?.token_type === "Bearer" && t?.api_base_url === base,
    `${what}: Cache-Control no-store, token_type "Bearer", api_base_url ${base}`,
    `Cache-Control ${JSON.stringify(reply.headers["cache-control"] ?? null)}, token_type ${JSON.stringify(t?.token_type ?? null)}, api_base_url ${JSON.stringify(t?.api_base_url ?? null)}`,
  );
  ctx.choice(
    "`scope`",
    typeof t?.scope === "string" && JSON.stringify(t.scope.split(" ").sort()) === JSON.stringify(closure(scopes)),
    `${what}: scope "${closure(scopes).join(" ")}" (the granted scopes and the read scopes they imply), in any order`,
    JSON.stringify(t?.scope ?? null),
  );
}

/** Spec, Authentication 5: both at once is refused, 400 invalid_request (RFC 6749 2.3.1) or 401 invalid_client, with no tokens. */
function refusedBothWays(ctx: RuleContext, both: Reply, what: string): void {
  ctx.check(
    (both.status === 400 && oauthCode(both) === "invalid_request") ||
      (both.status === 401 && oauthCode(both) === "invalid_client"),
    `${what} with the client's credentials both as HTTP Basic and in the body: 400 invalid_request or 401 invalid_client`,
    `status ${both.status} ${both.text.slice(0, 160)}`,
  );
  oauthError(ctx, both, String(oauthCode(both)), [both.status]);
  ctx.check(
    tokenAnswerOf(both).access_token === undefined,
    "no access_token when both ways are refused",
    "an access_token",
  );
}

/**
 * Without a control plane there is no code to exchange (the consent needs a browser): the client given
 * to --oauth-client is seen to authenticate each way alone by the answer to a made-up refresh token,
 * invalid_grant and not invalid_client (Authentication 8: a wrong token answers invalid_grant).
 */
async function withoutCode(ctx: RuleContext): Promise<void> {
  const c = givenOAuthClient(ctx);
  const madeUp = ctx.name("no-such-refresh-token");
  for (const how of ["basic", "body"] as const) {
    const alone = await refreshGrant(ctx, c, madeUp, how);
    ctx.check(
      INVALID_GRANT_STATUSES.includes(alone.status) && oauthCode(alone) === "invalid_grant",
      `a made-up refresh token with the client's credentials ${how === "basic" ? "as HTTP Basic" : "in the body"}: the client accepted and the token not, 400 or 401 invalid_grant`,
      `status ${alone.status} ${alone.text.slice(0, 160)}`,
    );
    oauthError(ctx, alone, "invalid_grant", INVALID_GRANT_STATUSES);
  }
  refusedBothWays(ctx, await refreshGrant(ctx, c, madeUp, "both"), "a refresh");
  const wrong = { ...c, clientSecret: `${c.clientSecret}x` };
  for (const how of ["basic", "body"] as const)
    oauthError(ctx, await refreshGrant(ctx, wrong, madeUp, how), "invalid_client", [401]);
}

/** Scopes the consent grants: a non-empty subset of the table, in table order. */
const scopeSets = fc.subarray([...SCOPES], { minLength: 1 });

export const tokenAnswerRules = [
  rule({
    id: "oauth.token-response-values",
    area: "OAuth",
    title:
      "The token answer of a code exchange and of a refresh: token_type Bearer, expires_in 3600, the granted scopes space separated, the store's name, a working api_base_url",
    spec: {
      section: SPEC.auth,
      quote:
        "Token response fields: access_token, refresh_token, token_type (Bearer), expires_in (3600), scope (space separated), store_name, api_base_url.",
    },
    needs: { control: true, orCredentials: ["oauthClient", "oauthUser"] },
    cost: 25,
    leniency:
      "scope may also list the read scopes implied by granted write scopes, in any order; api_base_url may end in a slash; a refresh answer may leave refresh_token out (RFC 6749 6), and when present it is the same token.",
    choices: ["Token responses", "`scope`"],
    async run(ctx) {
      const c = await oauthClient(ctx);
      await ctx.property(
        scopeSets,
        async (scopes) => {
          const me = await ctx.call("GET", "/me");
          ctx.status(me, 200);
          const want = { scopes, storeName: expectData<Identity>(me, "GET /me: {data: Identity}").store_name };
          const exchanged = await exchange(ctx, c, await codeFor(ctx, c, scopes));
          const first = tokenValues(ctx, exchanged, "the code exchange", want);
          tokenChoices(ctx, exchanged, scopes, "the code exchange");
          await works(ctx, first.base, first.access, "the code exchange");
          const refreshed = await refreshGrant(ctx, c, first.refresh);
          const renewed = tokenValues(ctx, refreshed, "the refresh", { ...want, heldRefresh: first.refresh });
          tokenChoices(ctx, refreshed, scopes, "the refresh");
          await works(ctx, renewed.base, renewed.access, "the refresh");
        },
        Math.min(ctx.run.runs, 4),
      );
    },
  }),
  rule({
    id: "oauth.client-credentials-both-ways",
    area: "OAuth",
    title:
      "Client credentials work as HTTP Basic and in the body, each alone; both at once are refused; a wrong secret answers 401 invalid_client either way",
    spec: {
      section: SPEC.auth,
      quote: "Client credentials are sent as HTTP Basic or as client_id and client_secret in the body, never both.",
    },
    needs: { control: true, orCredentials: ["oauthClient"] },
    cost: 13,
    leniency:
      "The spec does not say how both at once are refused: 400 invalid_request (RFC 6749 2.3.1: one method per request) or 401 invalid_client, in the OAuth error shape and without tokens. WWW-Authenticate on a refused Basic attempt is not checked (the strict profile holds it). Without a control plane (no code without a browser) the client given to --oauth-client is checked on a made-up refresh token: each way alone answers invalid_grant (400 or 401), not invalid_client; both at once and a wrong secret are refused as above; that an exchange and a refresh succeed each way needs the control plane.",
    choices: ["Bad client credentials"],
    async run(ctx) {
      if (!ctx.hasControl && !ctx.run.credentials.oauthUser) return withoutCode(ctx);
      const c = await oauthClient(ctx);
      const me = await ctx.call("GET", "/me");
      ctx.status(me, 200);
      const want = {
        scopes: ["catalog:read"],
        storeName: expectData<Identity>(me, "GET /me: {data: Identity}").store_name,
      };
      const first = tokenValues(
        ctx,
        await exchange(ctx, c, await codeFor(ctx, c, want.scopes), {}, "basic"),
        "a code exchange with HTTP Basic",
        want,
      );
      for (const how of ["basic", "body"] as const) {
        const renewed = await refreshGrant(ctx, c, first.refresh, how);
        const access = ctx.defined(
          renewed.status === 200 ? accessTokenOf(renewed) : undefined,
          `a refresh with the client's credentials ${how === "basic" ? "as HTTP Basic" : "in the body"}: 200 with an access_token`,
          `status ${renewed.status} ${renewed.text.slice(0, 160)}`,
        );
        ctx.status(await ctx.call("GET", "/me", { token: access }), 200);
      }
      refusedBothWays(ctx, await refreshGrant(ctx, c, first.refresh, "both"), "a refresh");
      const both2 = await exchange(ctx, c, await codeFor(ctx, c, want.scopes), {}, "both");
      ctx.check(
        [400, 401].includes(both2.status) && tokenAnswerOf(both2).access_token === undefined,
        "a code exchange with the client's credentials both ways: refused (400 or 401), no tokens",
        `status ${both2.status} ${both2.text.slice(0, 160)}`,
      );
      const wrong = { ...c, clientSecret: `${c.clientSecret}x` };
      for (const how of ["basic", "body"] as const) {
        const refused = await refreshGrant(ctx, wrong, first.refresh, how);
        oauthError(ctx, refused, "invalid_client", [401]);
        if (how === "basic")
          ctx.choice(
            "Bad client credentials",
            /^Basic\b/.test(refused.headers["www-authenticate"] ?? ""),
            "a wrong secret as HTTP Basic: WWW-Authenticate: Basic",
            `WWW-Authenticate ${JSON.stringify(refused.headers["www-authenticate"] ?? null)}`,
          );
      }
    },
  }),
];
