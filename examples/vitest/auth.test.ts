// Credentials: API keys and their scopes, revocation and idleness, the failed-authentication limit, and the
// OAuth authorization code flow through the consent page (spec, Authentication and Limits). The clock is the
// sandbox's: moved, never waited for.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { oauthToken, outcome, RetailClient } from "./client.js";
import { advance, clientOf, controlOk, createSandbox, removeSandbox, reset, type Sandbox, store } from "./sandbox.js";

let sb: Sandbox;
let api: RetailClient;

beforeAll(async () => {
  sb = await createSandbox();
  api = clientOf(sb);
});
afterAll(() => removeSandbox(sb));
beforeEach(() => reset(sb));

describe("API keys (spec, Authentication)", () => {
  it("GET /me names the store and the key's scopes", async () => {
    const me = (await api.send("GET", "/me")).data.data;
    expect([me.domain_prefix, me.key.name, me.scopes.length]).toEqual([store(sb).prefix, "full", 7]);
  });

  it("a key without the scope a call needs answers 403 INSUFFICIENT_SCOPE; its read scope still reads", async () => {
    const made = await controlOk(sb, "POST", `/stores/${store(sb).prefix}/keys`, {
      name: "catalog reader",
      scopes: ["catalog:read"],
    });
    const reader = api.withCredential(made.token);
    expect(await outcome(reader.send("GET", "/products"))).toEqual([200]);
    expect(await outcome(reader.send("POST", "/brands", { body: { name: "Fjord" } }))).toEqual([
      403,
      "INSUFFICIENT_SCOPE",
    ]);
    expect(await outcome(reader.send("GET", "/customers"))).toEqual([403, "INSUFFICIENT_SCOPE"]);
  });

  it("a revoked key answers 401 UNAUTHORIZED at once", async () => {
    const { keyId } = store(sb);
    expect(await outcome(api.send("GET", "/me"))).toEqual([200]);
    await controlOk(sb, "POST", `/keys/${keyId}/revoke`);
    expect(await outcome(api.send("GET", "/me"))).toEqual([401, "UNAUTHORIZED"]);
  });

  it("a key idle for 90 days stops working (401); one used within them keeps working", async () => {
    const used = clientOf(sb, "demo", "read");
    await advance(sb, 89 * 86_400);
    expect(await outcome(used.send("GET", "/products", { query: { limit: 1 } }))).toEqual([200]);
    await advance(sb, 2 * 86_400);
    expect(await outcome(api.send("GET", "/me"))).toEqual([401, "UNAUTHORIZED"]);
    expect(await outcome(used.send("GET", "/me"))).toEqual([200]);
  });

  it("30 failed authentications in 5 minutes; the 31st answers 429; 5 minutes later, 401 again", async () => {
    const bad = api.withCredential("rsk_not_a_key");
    for (let n = 0; n < 30; n++) expect(await outcome(bad.send("GET", "/me"))).toEqual([401, "UNAUTHORIZED"]);
    expect(await outcome(bad.send("GET", "/me"))).toEqual([429, "RATE_LIMITED"]);
    await advance(sb, 300);
    expect(await outcome(bad.send("GET", "/me"))).toEqual([401, "UNAUTHORIZED"]);
  });
});

/** The OAuth parties of the sandbox: its client, its redirect URI and the demo store's admin. */
const parties = () => {
  const client = sb.oauth_clients[0]!;
  const admin = sb.users.find((u) => u.store_prefix === store(sb).prefix && u.role === "admin")!;
  return { client, redirect_uri: client.redirect_uris[0]!, admin };
};

/** The hidden fields of the page's form. */
const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );

/**
 * A merchant on the consent page ({auth_url}/oauth/authorize): signs in as the demo admin and allows or cancels.
 * Answers the redirect's query (`code` and `state`, or `error`).
 */
async function consent(scope: string, decision: "allow" | "cancel", extra: Record<string, string> = {}) {
  const { client, redirect_uri, admin } = parties();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri,
    scope,
    state: "s1",
    ...extra,
  });
  const signIn = await fetch(`${sb.api_root}/oauth/authorize?${query}`);
  expect(signIn.status).toBe(200);
  const form = (fields: Record<string, string>) =>
    fetch(`${sb.api_root}/oauth/authorize`, { method: "POST", body: new URLSearchParams(fields), redirect: "manual" });
  const consentPage = await form({ ...hiddenFields(await signIn.text()), email: admin.email, password: "retail-sim" });
  expect(consentPage.status).toBe(200);
  const decided = await form({ ...hiddenFields(await consentPage.text()), decision });
  expect(decided.status).toBe(302);
  return new URL(decided.headers.get("location")!).searchParams;
}

const exchange = (code: string, more: Record<string, string> = {}) => {
  const { client, redirect_uri } = parties();
  return oauthToken(sb.api_root, {
    grant_type: "authorization_code",
    code,
    redirect_uri,
    client_id: client.client_id,
    client_secret: client.client_secret,
    ...more,
  });
};

describe("OAuth (spec, Authentication 3 to 8)", () => {
  it("a code from the consent page exchanges for tokens that call the API; an hour later, refresh (no rotation)", async () => {
    const redirect = await consent("catalog:read inventory:read", "allow");
    expect(redirect.get("state")).toBe("s1");
    const tokens = await exchange(redirect.get("code")!);
    expect([tokens.status, tokens.body.token_type, tokens.body.expires_in, tokens.body.api_base_url]).toEqual([
      200,
      "Bearer",
      3600,
      store(sb).baseUrl,
    ]);
    const app = new RetailClient(tokens.body.api_base_url, tokens.body.access_token);
    expect(await outcome(app.send("GET", "/products", { query: { limit: 1 } }))).toEqual([200]);
    expect(await outcome(app.send("POST", "/brands", { body: { name: "Fjord" } }))).toEqual([
      403,
      "INSUFFICIENT_SCOPE",
    ]);
    // An access token lasts an hour; the refresh token gives a new one and stays the same.
    await advance(sb, 61 * 60);
    expect(await outcome(app.send("GET", "/me"))).toEqual([401, "UNAUTHORIZED"]);
    const { client } = parties();
    const refreshed = await oauthToken(
      sb.api_root,
      { grant_type: "refresh_token", refresh_token: tokens.body.refresh_token },
      client,
    );
    expect([refreshed.status, refreshed.body.refresh_token]).toEqual([200, tokens.body.refresh_token]);
    expect(await outcome(app.withCredential(refreshed.body.access_token).send("GET", "/me"))).toEqual([200]);
  });

  it("PKCE: a code asked for with an S256 challenge exchanges with its verifier only, and once", async () => {
    const verifier = "a-verifier-of-at-least-43-characters-for-pkce-s256";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const redirect = await consent("catalog:read", "allow", {
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const without = await exchange(redirect.get("code")!, {
      code_verifier: "another-verifier-of-43-characters-long-xxxxx",
    });
    expect([without.status, without.body.error]).toEqual([400, "invalid_grant"]);
    const redirect2 = await consent("catalog:read", "allow", {
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect((await exchange(redirect2.get("code")!, { code_verifier: verifier })).status).toBe(200);
    const again = await exchange(redirect2.get("code")!, { code_verifier: verifier });
    expect([again.status, again.body.error]).toEqual([400, "invalid_grant"]);
  });

  it("Cancel on the consent page redirects with error=access_denied and the state", async () => {
    const redirect = await consent("catalog:read", "cancel");
    expect([redirect.get("error"), redirect.get("state"), redirect.get("code")]).toEqual(["access_denied", "s1", null]);
  });

  it("the consent page refuses a redirect_uri the client did not register with 400, redirecting nowhere", async () => {
    const { client } = parties();
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "https://elsewhere.example/cb",
      scope: "catalog:read",
    });
    expect((await fetch(`${sb.api_root}/oauth/authorize?${query}`, { redirect: "manual" })).status).toBe(400);
  });

  it("the token endpoint's refusals: a wrong secret (401 invalid_client), an unknown grant type, a missing code", async () => {
    const { client, redirect_uri } = parties();
    const wrong = await oauthToken(sb.api_root, {
      grant_type: "authorization_code",
      code: "rsc_code_x",
      redirect_uri,
      client_id: client.client_id,
      client_secret: "wrong",
    });
    expect([wrong.status, wrong.body.error, typeof wrong.body.error_description]).toEqual([
      401,
      "invalid_client",
      "string",
    ]);
    const grant = await oauthToken(sb.api_root, { grant_type: "password" }, client);
    expect([grant.status, grant.body.error]).toEqual([400, "unsupported_grant_type"]);
    const missing = await oauthToken(sb.api_root, { grant_type: "authorization_code", redirect_uri }, client);
    expect([missing.status, missing.body.error]).toEqual([400, "invalid_request"]);
  });

  it("30 refused exchanges in 5 minutes; the 31st answers 429 invalid_request; 5 minutes later, refused as before", async () => {
    const { client } = parties();
    const refused = () =>
      oauthToken(sb.api_root, { grant_type: "refresh_token", refresh_token: "rsr_unknown" }, client);
    for (let n = 0; n < 30; n++) expect((await refused()).status).toBe(400);
    const limited = await refused();
    expect([limited.status, limited.body.error]).toEqual([429, "invalid_request"]);
    await advance(sb, 300);
    expect((await refused()).body.error).toBe("invalid_grant");
  });
});
