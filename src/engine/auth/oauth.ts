import { createHash } from "node:crypto";
import { safeEqual, sha256 } from "../../kernel/digest.js";
import { isScope, normalizeScopes, type Scope } from "../../contract/scopes.js";
import type { Env } from "../../kernel/env.js";
import type { Rng } from "../../kernel/random.js";
import { POLICIES, retryAfterSeconds, type RateLimiter } from "../limits.js";
import type { StoreState } from "../store.js";
import type { OAuthClientRecord, UserRecord } from "./accounts.js";
import { stateAt, type CredentialRegistry, type Connection } from "./credentials.js";
import { CODE_TTL_MS, type OAuthState } from "./oauth-state.js";

// Spec, Authentication 3 to 8: the authorization code flow with optional PKCE (S256), codes that live
// 10 minutes and work once, access tokens of one hour, refresh tokens that do not rotate, and errors
// in the OAuth shape {error, error_description}.

export const ACCESS_TOKEN_TTL_S = 3600;
/**
 * The longest value an authorization request's parameter may have (docs/spec-choices.md, OAuth): a
 * `state` of a megabyte would be kept with every sign-in and echoed into every redirect.
 */
export const MAX_AUTHORIZE_PARAM = 1024;

/**
 * What the OAuth flow reads and writes: the registered apps, the stores (plan and name), its codes and
 * connections, the credential registry its access tokens join, the token-failure limit, the clock and
 * the two seeded streams (connection and credential ids; codes and tokens).
 */
export interface OAuthContext {
  readonly env: Pick<Env, "clock" | "ids">;
  readonly secrets: Rng;
  readonly stores: ReadonlyMap<string, StoreState>;
  readonly oauthClients: readonly OAuthClientRecord[];
  readonly oauth: OAuthState;
  readonly credentials: CredentialRegistry;
  readonly limits: RateLimiter;
}

export interface AuthorizeParams {
  readonly response_type?: string;
  readonly client_id?: string;
  readonly redirect_uri?: string;
  readonly scope?: string;
  readonly state?: string;
  readonly code_challenge?: string;
  readonly code_challenge_method?: string;
}

/** A checked authorization request, or why it fails: an error page (never a redirect) or an error redirect. */
export type AuthorizeCheck =
  | { readonly kind: "page_error"; readonly message: string }
  | { readonly kind: "redirect"; readonly to: string }
  | {
      readonly kind: "ok";
      readonly client: OAuthClientRecord;
      readonly redirectUri: string;
      readonly scopes: readonly Scope[];
      readonly state: string | undefined;
      readonly challenge: string | null;
    };

function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

const PKCE = /^[A-Za-z0-9_-]{43}$/;

export function checkAuthorize(ctx: OAuthContext, q: AuthorizeParams): AuthorizeCheck {
  const client = ctx.oauthClients.find((c) => c.clientId === q.client_id);
  if (!client) return { kind: "page_error", message: "The app (client_id) is not registered." };
  // The redirect URI must match a registered one exactly; a wrong one never receives a redirect.
  if (q.redirect_uri === undefined || !client.redirectUris.includes(q.redirect_uri)) {
    return { kind: "page_error", message: "The redirect_uri is not registered for this app." };
  }
  const fail = (error: string, description: string): AuthorizeCheck => ({
    kind: "redirect",
    to: withQuery(q.redirect_uri as string, { error, error_description: description, state: q.state }),
  });
  const long = (Object.keys(q) as (keyof AuthorizeParams)[]).find((k) => (q[k]?.length ?? 0) > MAX_AUTHORIZE_PARAM);
  if (long !== undefined) {
    // An oversized state is not echoed: the redirect would carry it.
    const description = `${long} must be at most ${MAX_AUTHORIZE_PARAM} characters`;
    const state = long === "state" ? undefined : q.state;
    return {
      kind: "redirect",
      to: withQuery(q.redirect_uri, { error: "invalid_request", error_description: description, state }),
    };
  }
  if (q.response_type === undefined) return fail("invalid_request", "response_type is required");
  if (q.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
  const requested = (q.scope ?? "").split(/[ +]+/).filter((s) => s !== "");
  if (requested.length === 0 || !requested.every(isScope))
    return fail("invalid_scope", "scope must name one or more of the API's scopes");
  let challenge: string | null = null;
  if (q.code_challenge !== undefined || q.code_challenge_method !== undefined) {
    if (q.code_challenge_method !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
    if (q.code_challenge === undefined || !PKCE.test(q.code_challenge))
      return fail("invalid_request", "code_challenge must be a base64url SHA-256 digest");
    challenge = q.code_challenge;
  }
  return {
    kind: "ok",
    client,
    redirectUri: q.redirect_uri,
    scopes: normalizeScopes(requested as Scope[]),
    state: q.state,
    challenge,
  };
}

/** Spec, Authentication 3: only store admins on the Growth plan can connect an app. */
export function userRefusal(ctx: OAuthContext, user: UserRecord): string | undefined {
  if (user.role !== "admin") return "Only a store admin can connect an app. Ask an admin of your store.";
  if (ctx.stores.get(user.storePrefix)?.settings.plan !== "growth")
    return "Connecting apps needs the Growth plan. The store's owner can change the plan in billing.";
  return undefined;
}

/** rule oauth.code-exchange: the merchant's decision: a redirect with a code and the echoed state (exchanged in exchangeCode), or with error=access_denied. */
export function decide(
  ctx: OAuthContext,
  checked: Extract<AuthorizeCheck, { kind: "ok" }>,
  user: UserRecord,
  allow: boolean,
): string {
  // rule oauth.cancel-access-denied: a cancelled authorization redirects with error=access_denied and the state.
  if (!allow) return withQuery(checked.redirectUri, { error: "access_denied", state: checked.state });
  const code = `rsc_code_${ctx.secrets.token(32)}`;
  const now = ctx.env.clock.now();
  ctx.oauth.codes.add(
    sha256(code),
    {
      clientId: checked.client.clientId,
      userId: user.id,
      storePrefix: user.storePrefix,
      redirectUri: checked.redirectUri,
      scopes: checked.scopes,
      challenge: checked.challenge,
      expiresAt: now + CODE_TTL_MS,
      used: false,
    },
    now,
  );
  return withQuery(checked.redirectUri, { code, state: checked.state });
}

export interface TokenAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers?: Record<string, string>;
}

const oauthError = (
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
): TokenAnswer => ({
  status,
  body: { error, error_description: description },
  headers,
});

/**
 * The client id and secret of an `Authorization: Basic` header (RFC 6749 2.3.1: each form-urlencoded
 * before base64), or undefined when the header is not Basic or holds no colon.
 */
export function basicCredentials(authorization: string | undefined): { id: string; secret: string } | undefined {
  const encoded = /^basic (.*)$/i.exec(authorization ?? "")?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded.trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return undefined;
  return { id: safeDecode(decoded.slice(0, colon)), secret: safeDecode(decoded.slice(colon + 1)) };
}

/** rule oauth.client-credentials-both-ways: client credentials as HTTP Basic or in the body, never both. */
function authenticateClient(
  ctx: OAuthContext,
  form: URLSearchParams,
  authorization: string | undefined,
): OAuthClientRecord | TokenAnswer {
  const inBody = form.has("client_id") || form.has("client_secret");
  const basic = authorization !== undefined && /^basic /i.test(authorization);
  if (inBody && basic)
    return oauthError(400, "invalid_request", "Send client credentials as HTTP Basic or in the body, never both.");
  let id: string | null = null;
  let secret: string | null = null;
  if (basic) {
    const given = basicCredentials(authorization);
    id = given?.id ?? null;
    secret = given?.secret ?? null;
  } else {
    id = form.get("client_id");
    secret = form.get("client_secret");
  }
  const client = ctx.oauthClients.find((c) => c.clientId === id);
  // rule oauth.error-shape: token endpoint errors are {error, error_description}: bad client credentials 401 invalid_client.
  if (!client || secret === null || !safeEqual(client.clientSecret, secret)) {
    return oauthError(
      401,
      "invalid_client",
      "The client credentials are not valid.",
      basic ? { "www-authenticate": 'Basic realm="retail-sim"' } : undefined,
    );
  }
  return client;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** `POST {api_root}/oauth/token`. Failures count per address; past 30 in 5 minutes they answer invalid_request. */
export function tokenEndpoint(
  ctx: OAuthContext,
  form: URLSearchParams | undefined,
  authorization: string | undefined,
  address: string,
  apiRoot: string,
): TokenAnswer {
  const now = ctx.env.clock.now();
  const window = ctx.limits.peek(POLICIES.tokenFailures, address, now);
  // rule limits.token-failures: token endpoint failures, 30 per 5 minutes per address, then 429.
  if (window.used >= window.policy.limit) {
    return oauthError(429, "invalid_request", "Too many failed token requests from this address; retry later.", {
      "retry-after": String(retryAfterSeconds(window)),
    });
  }
  const answer = form
    ? exchange(ctx, form, authorization, now, apiRoot)
    : oauthError(400, "invalid_request", "Send the form as application/x-www-form-urlencoded.");
  if (answer.status >= 400) ctx.limits.hit(POLICIES.tokenFailures, address, now, { address });
  return answer;
}

function exchange(
  ctx: OAuthContext,
  form: URLSearchParams,
  authorization: string | undefined,
  now: number,
  apiRoot: string,
): TokenAnswer {
  const seen = new Set<string>();
  for (const [name] of form) {
    if (seen.has(name)) return oauthError(400, "invalid_request", `${name} is given more than once.`);
    seen.add(name);
  }
  const client = authenticateClient(ctx, form, authorization);
  if ("status" in client) return client;
  const grant = form.get("grant_type");
  if (grant === null) return oauthError(400, "invalid_request", "grant_type is required.");
  if (grant === "authorization_code") return exchangeCode(ctx, client, form, now, apiRoot);
  if (grant === "refresh_token") return refresh(ctx, client, form, now, apiRoot);
  return oauthError(400, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
}

function exchangeCode(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: URLSearchParams,
  now: number,
  apiRoot: string,
): TokenAnswer {
  const codeText = form.get("code");
  const redirectUri = form.get("redirect_uri");
  if (codeText === null || redirectUri === null)
    return oauthError(400, "invalid_request", "code and redirect_uri are required.");
  // A code past its 10 minutes is gone (spec, Authentication 4): it answers as an unknown one.
  const code = ctx.oauth.codes.get(sha256(codeText), now);
  if (!code || code.clientId !== client.clientId) return oauthError(400, "invalid_grant", "The code is not valid.");
  // rule oauth.code-once: a code works once: a second exchange answers invalid_grant.
  if (code.used) {
    // A code used twice: the first exchange may have been stolen, so its connection is cut too.
    if (code.connection) code.connection.state = "revoked";
    return oauthError(400, "invalid_grant", "The code has been used.");
  }
  if (redirectUri !== code.redirectUri)
    return oauthError(400, "invalid_grant", "redirect_uri does not match the authorization request.");
  const verifier = form.get("code_verifier");
  // rule oauth.pkce: with a S256 code_challenge only the matching code_verifier exchanges the code.
  if (code.challenge !== null) {
    if (verifier === null)
      return oauthError(400, "invalid_grant", "code_verifier is required: the authorization used PKCE.");
    const digest = createHash("sha256").update(verifier).digest("base64url");
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || digest !== code.challenge)
      return oauthError(400, "invalid_grant", "code_verifier does not match the code_challenge.");
  } else if (verifier !== null) {
    return oauthError(400, "invalid_grant", "code_verifier was sent, but the authorization did not use PKCE.");
  }
  code.used = true;
  const connection: Connection = {
    id: ctx.env.ids.uuid(),
    clientId: client.clientId,
    userId: code.userId,
    storePrefix: code.storePrefix,
    scopes: code.scopes,
    name: client.name,
    createdAt: now,
    lastUsedAt: now,
    state: "active",
  };
  code.connection = connection;
  const refreshToken = `rsr_${ctx.secrets.token(48)}`;
  ctx.oauth.connect(connection, refreshToken);
  return issue(ctx, connection, refreshToken, now, apiRoot);
}

/** rule oauth.refresh-no-rotate: refresh with grant_type=refresh_token; the refresh token does not rotate. */
function refresh(
  ctx: OAuthContext,
  client: OAuthClientRecord,
  form: URLSearchParams,
  now: number,
  apiRoot: string,
): TokenAnswer {
  const token = form.get("refresh_token");
  if (token === null) return oauthError(400, "invalid_request", "refresh_token is required.");
  const connection = ctx.oauth.refresh.get(sha256(token));
  if (!connection || connection.clientId !== client.clientId)
    return oauthError(400, "invalid_grant", "The refresh token is not valid.");
  connection.state = stateAt(connection, now);
  // rule oauth.disconnect-stops: a disconnected connection's refresh token answers invalid_grant (its access tokens go with it: engine/control.ts).
  if (connection.state !== "active")
    return oauthError(
      400,
      "invalid_grant",
      `The connection is ${connection.state === "revoked" ? "disconnected" : "expired"}.`,
    );
  connection.lastUsedAt = now;
  return issue(ctx, connection, token, now, apiRoot);
}

function issue(
  ctx: OAuthContext,
  connection: Connection,
  refreshToken: string,
  now: number,
  apiRoot: string,
): TokenAnswer {
  const store = ctx.stores.get(connection.storePrefix);
  const accessToken = `rsa_${ctx.secrets.token(40)}`;
  // Only the digest is kept: an access token is shown once, in this answer.
  ctx.oauth.addToken(
    connection,
    {
      id: ctx.env.ids.uuid(),
      kind: "access_token",
      name: connection.name,
      storePrefix: connection.storePrefix,
      scopes: connection.scopes,
      createdAt: now,
      lastUsedAt: null,
      state: "active",
      expiresAt: now + ACCESS_TOKEN_TTL_S * 1000,
      connection,
    },
    accessToken,
    now,
  );
  return {
    status: 200,
    body: {
      access_token: accessToken,
      refresh_token: refreshToken,
      // rule oauth.token-response-values: token_type Bearer, expires_in 3600, the scopes space separated, the store name, the API base URL.
      token_type: "Bearer",
      expires_in: ACCESS_TOKEN_TTL_S,
      scope: connection.scopes.join(" "),
      store_name: store?.settings.name ?? connection.storePrefix,
      api_base_url: `${apiRoot}/${connection.storePrefix}/v1`,
    },
  };
}
