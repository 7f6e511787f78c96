import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { OAuthUser } from "../../credentials.js";
import { givenClient } from "./given.js";
import { consentByPage } from "./sign-in.js";
import { apiRoot, controlOk, prefixOfBaseUrl, secret, sendUnpaced } from "./access.js";
import { bodyOf, listOf } from "../../shapes.js";

// Shared helpers of the OAuth rules (rules/oauth/ and limits.token-failures in rules/limits/addresses.ts).
// Spec, Authentication 3 to 8: the authorization code flow, headless through the control plane
// (POST /_sim/oauth/authorize with the fixture's admin user and client from GET /_sim/credentials), or
// without one a sign-in at the consent screen (--oauth-user, ./sign-in.ts), and the token endpoint at {api_root}/oauth/token with form bodies.

/** An OAuth client, and the store's admin user who consents (empty for a client given on the command line). */
export interface OAuthClient {
  readonly apiRoot: string;
  readonly userId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  /** Without a control plane: the merchant who signs in at the consent screen (--oauth-user). */
  readonly user?: OAuthUser;
}

/** The store's admin user (on growth) and an OAuth client with a redirect URI, from GET /_sim/credentials. */
export async function oauthClient(ctx: RuleContext): Promise<OAuthClient & { readonly prefix: string }> {
  if (!ctx.hasControl) return signInClient(ctx);
  const credentials = await controlOk(ctx, "GET", "/credentials");
  const prefix = prefixOfBaseUrl(ctx);
  const user = listOf(credentials?.users).find(
    (u) => u.store_prefix === prefix && u.role === "admin" && (u.plan === undefined || u.plan === "growth"),
  );
  const client = listOf(credentials?.oauth_clients).find(
    (c) => Array.isArray(c.redirect_uris) && c.redirect_uris.length > 0,
  );
  if (!user || !client)
    throw new Skip(`the control plane lists no admin user of store ${prefix} on growth, or no OAuth client`);
  secret(ctx, client.client_secret);
  return {
    apiRoot: apiRoot(ctx),
    prefix,
    userId: String(user.id),
    clientId: String(client.client_id),
    clientSecret: String(client.client_secret),
    redirectUri: String((client.redirect_uris as unknown[])[0]),
  };
}

/**
 * The client given to --oauth-client (and --oauth-redirect-uri), for a run without a control plane:
 * enough for token endpoint answers that need no authorization code (there is no user to consent).
 */
export function givenOAuthClient(ctx: RuleContext): OAuthClient {
  const c = givenClient(ctx);
  return {
    apiRoot: c.apiRoot,
    userId: "",
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    redirectUri: c.redirectUri ?? "",
  };
}

/**
 * Without a control plane: the client given to --oauth-client (with --oauth-redirect-uri) and the
 * merchant given to --oauth-user, who signs in at the consent screen ({auth_url}/oauth/authorize).
 */
export function signInClient(ctx: RuleContext): OAuthClient & { readonly prefix: string } {
  const user = ctx.run.credentials.oauthUser;
  if (!user)
    throw new Skip(
      "needs a merchant user of the store who may consent: --oauth-user EMAIL:PASSWORD, or the target's control plane (--control)",
      "--oauth-user",
    );
  const c = givenOAuthClient(ctx);
  if (!c.redirectUri)
    throw new Skip(
      "needs a redirect URI registered for the client given to --oauth-client: --oauth-redirect-uri URI",
      "--oauth-redirect-uri",
    );
  return { ...c, prefix: prefixOfBaseUrl(ctx), user };
}

export interface ConsentOptions {
  readonly scope?: string;
  readonly state?: string;
  readonly challenge?: string;
  readonly decision?: "allow" | "cancel";
}

export interface Consent {
  readonly code: string | null;
  readonly params: URLSearchParams;
  /** The state sent with the consent. */
  readonly state: string;
  /** The redirect's URL, as the control plane answered it. */
  readonly redirectTo: unknown;
}

/** The merchant's decision on the consent screen, headless (scope catalog:read and "allow" unless told): the redirect's query, unchecked. */
export async function consent(ctx: RuleContext, o: OAuthClient, options: ConsentOptions = {}): Promise<Consent> {
  const body = {
    user_id: o.userId,
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    scope: options.scope ?? "catalog:read",
    state: options.state ?? ctx.name("state"),
    decision: options.decision ?? "allow",
    ...(options.challenge ? { code_challenge: options.challenge, code_challenge_method: "S256" } : {}),
  };
  const redirectTo = o.user
    ? await consentByPage(ctx, o.user, {
        apiRoot: o.apiRoot,
        clientId: o.clientId,
        redirectUri: o.redirectUri,
        scope: body.scope,
        state: body.state,
        challenge: options.challenge,
        decision: body.decision,
      })
    : String((await controlOk(ctx, "POST", "/oauth/authorize", body))?.redirect_to);
  const params = new URL(redirectTo).searchParams;
  const code = params.get("code");
  secret(ctx, code);
  return { code, params, state: body.state, redirectTo };
}

/** {@link consent}; when the merchant allows, the redirect carries a code and echoes the state (spec, Authentication 4). */
export async function authorize(ctx: RuleContext, o: OAuthClient, options: ConsentOptions = {}): Promise<Consent> {
  const answer = await consent(ctx, o, options);
  if ((options.decision ?? "allow") === "allow") {
    ctx.check(
      answer.code !== null && answer.params.get("state") === answer.state,
      `a redirect with a code and the echoed state ${answer.state}`,
      String(answer.redirectTo).replace(/code=[^&]*/, "code=<redacted>"),
    );
  }
  return answer;
}

export type ClientAuth = "body" | "basic" | "both";

/**
 * POST {api_root}/oauth/token with a form body; the client's credentials as HTTP Basic, in the body,
 * or both (spec, Authentication 5). `unpaced` sends it past the Pacer (for rules that count 429s).
 */
export async function token(
  ctx: RuleContext,
  o: OAuthClient,
  fields: Record<string, string>,
  how: ClientAuth = "body",
  unpaced = false,
): Promise<Reply> {
  const form = new URLSearchParams(fields);
  const headers: Record<string, string> = {};
  if (how !== "basic") {
    form.set("client_id", o.clientId);
    form.set("client_secret", o.clientSecret);
  }
  // RFC 6749 2.3.1: Basic credentials are form-encoded before base64.
  if (how !== "body")
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString("base64")}`;
  const options = { raw: form.toString(), contentType: "application/x-www-form-urlencoded", token: null, headers };
  const url = `${o.apiRoot}/oauth/token`;
  const reply = unpaced ? await sendUnpaced(ctx, "POST", url, options) : await ctx.send("POST", url, options);
  secret(ctx, bodyOf(reply)?.access_token, bodyOf(reply)?.refresh_token);
  return reply;
}

/** Spec, Authentication 5: a code exchanged at the token endpoint (with the client's redirect URI, and any extra fields such as code_verifier). */
export const exchange = (
  ctx: RuleContext,
  o: OAuthClient,
  code: string,
  extra: Record<string, string> = {},
  how: ClientAuth = "body",
): Promise<Reply> =>
  token(ctx, o, { grant_type: "authorization_code", code, redirect_uri: o.redirectUri, ...extra }, how);

/** Spec, Authentication 7: a refresh token exchanged for a new access token. */
export const refreshGrant = (
  ctx: RuleContext,
  o: OAuthClient,
  refreshToken: string,
  how: ClientAuth = "body",
): Promise<Reply> => token(ctx, o, { grant_type: "refresh_token", refresh_token: refreshToken }, how);

/** Spec, Authentication 8: a wrong, expired or used code or token answers invalid_grant, 400 (RFC 6749 5.2) or 401. */
export const INVALID_GRANT_STATUSES = [400, 401];
