import {
  basicCredentials,
  checkAuthorize,
  decide,
  tokenEndpoint,
  userRefusal,
  type AuthorizeParams,
} from "../engine/auth/oauth.js";
import { TICKET_TTL_MS } from "../engine/auth/oauth-state.js";
import { signIn } from "../engine/auth/sign-in.js";
import { POLICIES, policyHeader, rateLimitHeader } from "../engine/limits.js";
import type { World } from "../engine/world.js";
import { consentPage, errorPage, refusalPage, signInPage } from "./oauth-pages.js";
import { jsonResponse } from "./respond.js";
import type { SimRequest, SimResponse } from "./types.js";

// {auth_url}/oauth/authorize (the consent screen) and {api_root}/oauth/token (spec, Authentication).

const PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
] as const;

const html = (status: number, body: string, headers: Record<string, string> = {}): SimResponse => ({
  status,
  headers: {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    ...headers,
  },
  body,
});
const redirect = (to: string): SimResponse => ({
  status: 302,
  headers: { location: to, "cache-control": "no-store" },
  body: null,
});

function readForm(req: SimRequest): URLSearchParams | undefined {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers["content-type"] ?? "")) return undefined;
  return new URLSearchParams(req.body ? Buffer.from(req.body).toString("utf8") : "");
}

const pick = (source: URLSearchParams): AuthorizeParams & Record<string, string | undefined> =>
  Object.fromEntries(PARAMS.flatMap((k) => (source.has(k) ? [[k, source.get(k) as string]] : [])));

/**
 * The OAuth client a request to /oauth/authorize or /oauth/token comes from (the query's or form's
 * `client_id`, or HTTP Basic), so it is served by the world that registered the client.
 */
export function oauthClientId(req: SimRequest): string | undefined {
  const basic = basicCredentials(req.headers.authorization);
  if (basic !== undefined) return basic.id;
  const source = req.method === "GET" ? new URLSearchParams(req.query) : readForm(req);
  return source?.get("client_id") ?? undefined;
}

export function handleAuthorize(world: World, req: SimRequest): SimResponse {
  const source = req.method === "GET" ? new URLSearchParams(req.query) : readForm(req);
  if (req.method !== "GET" && req.method !== "POST") return html(405, errorPage("Use GET or POST."));
  if (!source) return html(400, errorPage("The form must be sent as application/x-www-form-urlencoded."));
  const params = pick(source);
  const checked = checkAuthorize(world, params);
  if (checked.kind === "page_error") return html(400, errorPage(checked.message));
  if (checked.kind === "redirect") return redirect(checked.to);
  const app = checked.client.name;
  const step = req.method === "GET" ? "start" : source.get("step");
  const now = world.env.clock.now();
  if (step === "sign_in") {
    const signedIn = signIn(world, source.get("email") ?? "", source.get("password"), req.remoteAddress, now);
    if (!signedIn.ok) {
      const retry = signedIn.retryAfter === undefined ? undefined : { "retry-after": String(signedIn.retryAfter) };
      return html(signedIn.status, signInPage(app, params, signedIn.message), retry);
    }
    const user = signedIn.user;
    const refusal = userRefusal(world, user);
    if (refusal) return html(403, refusalPage(refusal));
    const ticket = world.secrets.token(32);
    // The decision applies to the request shown on the consent page, whatever the form posts back.
    world.oauth.tickets.add(ticket, { userId: user.id, expiresAt: now + TICKET_TTL_MS, params }, now);
    const store = world.stores.get(user.storePrefix)?.settings.name ?? user.storePrefix;
    return html(200, consentPage(app, store, checked.scopes, params, ticket));
  }
  if (step === "decide") {
    const ticket = world.oauth.tickets.get(source.get("ticket") ?? "", now);
    const user = ticket && world.users.find((u) => u.id === ticket.userId);
    if (!user) return html(401, signInPage(app, params, "Your sign-in has expired. Sign in again."));
    world.oauth.tickets.delete(source.get("ticket") ?? "");
    const shown = checkAuthorize(world, (ticket as { params: AuthorizeParams }).params);
    if (shown.kind !== "ok") return html(400, errorPage("The authorization request changed."));
    return redirect(decide(world, shown, user, source.get("decision") === "allow"));
  }
  return html(200, signInPage(app, params));
}

export function handleToken(world: World, req: SimRequest): SimResponse {
  // Spec, Limits: every response carries the rate-limit headers; the token endpoint's limit is its failures per address.
  const limits = () => {
    const window = world.limits.peek(POLICIES.tokenFailures, req.remoteAddress, world.env.clock.now());
    return { "ratelimit-policy": policyHeader(window.policy), ratelimit: rateLimitHeader(window) };
  };
  const headers = { "cache-control": "no-store", pragma: "no-cache" };
  if (req.method !== "POST")
    return jsonResponse(
      405,
      { error: "invalid_request", error_description: "Use POST." },
      { ...headers, ...limits(), allow: "POST" },
    );
  const answer = tokenEndpoint(world, readForm(req), req.headers.authorization, req.remoteAddress, req.origin);
  return jsonResponse(answer.status, answer.body, { ...headers, ...limits(), ...answer.headers });
}
