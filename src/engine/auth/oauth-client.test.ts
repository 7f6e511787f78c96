// The whole OAuth 2.0 authorization code flow (retail-api-v1.md: Authentication 3 to 10) driven by a
// standard client library, oauth4webapi, over a real socket (`sim.listen(0)`). The merchant's consent
// is given through the control twin `POST /_sim/oauth/authorize`; time moves with `POST /_sim/clock`.
import { afterEach, describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { makeSim } from "../../test-support/sim.js";
import type { Simulator } from "../../simulator.js";

const insecure = { [oauth.allowInsecureRequests]: true } as const;

interface Setup {
  sim: Simulator;
  base: string;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  secret: string;
  redirectUri: string;
  adminId: string;
}

const started: Simulator[] = [];

afterEach(async () => {
  while (started.length > 0) await started.pop()?.close();
});

async function json(res: Response): Promise<any> {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

async function post(url: string, body?: unknown): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function setup(): Promise<Setup> {
  const sim = makeSim();
  const listening = await sim.listen(0);
  started.push(sim);
  const base = listening.url;
  const creds = await json(await fetch(`${base}/_sim/credentials`));
  const c = creds.oauth_clients[0];
  const admin = creds.users.find((u: { email: string }) => u.email === "admin@demo.example");
  return {
    sim,
    base,
    as: { issuer: base, authorization_endpoint: `${base}/oauth/authorize`, token_endpoint: `${base}/oauth/token` },
    client: { client_id: c.client_id },
    secret: c.client_secret,
    redirectUri: c.redirect_uris[0],
    adminId: admin.id,
  };
}

/** The merchant's decision through the control twin; answers the redirect URL the app receives. */
async function consent(
  s: Setup,
  options: { scope: string; state: string; challenge?: string; decision?: "allow" | "cancel" },
): Promise<URL> {
  const body: Record<string, string> = {
    user_id: s.adminId,
    client_id: s.client.client_id,
    redirect_uri: s.redirectUri,
    scope: options.scope,
    state: options.state,
    decision: options.decision ?? "allow",
  };
  if (options.challenge) Object.assign(body, { code_challenge: options.challenge, code_challenge_method: "S256" });
  const res = await post(`${s.base}/_sim/oauth/authorize`, body);
  expect(res.status).toBe(200);
  return new URL((await json(res)).redirect_to);
}

const get = (url: string, accessToken: string) => fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });

/** Authorize with PKCE, validate the callback, exchange the code: the token response. */
async function connectWithPkce(
  s: Setup,
  auth: oauth.ClientAuth,
  scope = "catalog:read inventory:read",
): Promise<oauth.TokenEndpointResponse> {
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const state = oauth.generateRandomState();
  const callback = await consent(s, { scope, state, challenge });
  const params = oauth.validateAuthResponse(s.as, s.client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    s.as,
    s.client,
    auth,
    params,
    s.redirectUri,
    verifier,
    insecure,
  );
  return oauth.processAuthorizationCodeResponse(s.as, s.client, response);
}

describe("Spec, Authentication 3 to 10 with oauth4webapi over a real socket: the whole flow", () => {
  it("PKCE authorize, validateAuthResponse, exchange (ClientSecretBasic), /me and a catalog read, refresh (ClientSecretPost), the hour passes, refresh again, disconnect", async () => {
    const s = await setup();

    // Steps 1 to 3 (Authentication 3) with PKCE S256; client credentials by HTTP Basic (Authentication 5).
    const tokens = await connectWithPkce(s, oauth.ClientSecretBasic(s.secret));
    expect(tokens.token_type).toBe("bearer"); // oauth4webapi lower-cases it; the wire value is checked below
    expect(tokens.expires_in).toBe(3600);
    expect((tokens.scope ?? "").split(" ").sort()).toEqual(["catalog:read", "inventory:read"]);
    expect(tokens.api_base_url).toBe(`${s.base}/demo/v1`);
    expect(typeof tokens.store_name).toBe("string");
    expect(typeof tokens.refresh_token).toBe("string");
    const apiBase = tokens.api_base_url as string;

    // Authentication 10 and Identity: /me through api_base_url; the key is the connection.
    const meRes = await get(`${apiBase}/me`, tokens.access_token);
    expect(meRes.status).toBe(200);
    const me = (await json(meRes)).data;
    expect(me.store_name).toBe(tokens.store_name);
    expect(me.domain_prefix).toBe("demo");
    expect([...me.scopes].sort()).toEqual(["catalog:read", "inventory:read"]);
    const connections = await json(await fetch(`${s.base}/_sim/connections`));
    expect(connections).toHaveLength(1);
    expect(me.key).toStrictEqual({ id: connections[0].id, name: "Demo Integration" });

    // Scopes: a catalog read passes, a customers read does not.
    expect((await get(`${apiBase}/products`, tokens.access_token)).status).toBe(200);
    const denied = await get(`${apiBase}/customers`, tokens.access_token);
    expect(denied.status).toBe(403);
    expect((await json(denied)).error.code).toBe("INSUFFICIENT_SCOPE");

    // Authentication 7: refresh (client credentials in the body this time); the refresh token does not rotate.
    const refreshed = await oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(
        s.as,
        s.client,
        oauth.ClientSecretPost(s.secret),
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toBe(tokens.refresh_token);
    expect(refreshed.expires_in).toBe(3600);
    expect((await get(`${apiBase}/products`, refreshed.access_token)).status).toBe(200);

    // Authentication 7: an access token lasts 1 hour. Past it, every token issued before answers 401.
    const moved = await post(`${s.base}/_sim/clock`, { advance_seconds: 3601 });
    expect(moved.status).toBe(200);
    for (const old of [tokens.access_token, refreshed.access_token]) {
      const r = await get(`${apiBase}/me`, old);
      expect(r.status).toBe(401);
      expect((await json(r)).error.code).toBe("UNAUTHORIZED");
    }

    // Refresh again, and the new token works.
    const again = await oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(
        s.as,
        s.client,
        oauth.ClientSecretBasic(s.secret),
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect((await get(`${apiBase}/me`, again.access_token)).status).toBe(200);
    expect((await get(`${apiBase}/products`, again.access_token)).status).toBe(200);

    // States: disconnect stops the connection at once; the refresh answers invalid_grant.
    const cut = await post(`${s.base}/_sim/connections/${connections[0].id}/disconnect`);
    expect(cut.status).toBe(200);
    expect((await get(`${apiBase}/me`, again.access_token)).status).toBe(401);
    const failed = await oauth
      .processRefreshTokenResponse(
        s.as,
        s.client,
        await oauth.refreshTokenGrantRequest(
          s.as,
          s.client,
          oauth.ClientSecretPost(s.secret),
          tokens.refresh_token as string,
          insecure,
        ),
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(failed).toBeInstanceOf(oauth.ResponseBodyError);
    expect((failed as oauth.ResponseBodyError).status).toBe(400);
    expect((failed as oauth.ResponseBodyError).error).toBe("invalid_grant");
  });

  it("the wire token response: token_type Bearer, Cache-Control no-store, exactly the fields of Authentication 6 (ClientSecretPost exchange)", async () => {
    const s = await setup();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await consent(s, {
      scope: "sales:read",
      state,
      challenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const params = oauth.validateAuthResponse(s.as, s.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      s.as,
      s.client,
      oauth.ClientSecretPost(s.secret),
      params,
      s.redirectUri,
      verifier,
      insecure,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await json(response.clone());
    expect(Object.keys(body).sort()).toEqual([
      "access_token",
      "api_base_url",
      "expires_in",
      "refresh_token",
      "scope",
      "store_name",
      "token_type",
    ]);
    expect(body.token_type).toBe("Bearer");
    expect(body.scope).toBe("sales:read");
    const tokens = await oauth.processAuthorizationCodeResponse(s.as, s.client, response);
    expect((await get(`${tokens.api_base_url as string}/sales`, tokens.access_token)).status).toBe(200);
  });
});

describe("Spec, Authentication 3 and 4 with oauth4webapi: refusals the library surfaces", () => {
  it("a cancelled consent makes validateAuthResponse throw AuthorizationResponseError access_denied", async () => {
    const s = await setup();
    const state = oauth.generateRandomState();
    const callback = await consent(s, { scope: "catalog:read", state, decision: "cancel" });
    expect(() => oauth.validateAuthResponse(s.as, s.client, callback, state)).toThrow(oauth.AuthorizationResponseError);
    try {
      oauth.validateAuthResponse(s.as, s.client, callback, state);
    } catch (e) {
      expect((e as oauth.AuthorizationResponseError).error).toBe("access_denied");
    }
  });

  it("the echoed state is checked by the library: the callback validates only against the state sent", async () => {
    const s = await setup();
    const callback = await consent(s, { scope: "catalog:read", state: "state-sent" });
    expect(oauth.validateAuthResponse(s.as, s.client, callback, "state-sent").get("code")).toBeTruthy();
    expect(() => oauth.validateAuthResponse(s.as, s.client, callback, "another-state")).toThrow();
  });

  it("a wrong PKCE verifier is refused with invalid_grant (ResponseBodyError, 400)", async () => {
    const s = await setup();
    const state = oauth.generateRandomState();
    const callback = await consent(s, {
      scope: "catalog:read",
      state,
      challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    });
    const params = oauth.validateAuthResponse(s.as, s.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      s.as,
      s.client,
      oauth.ClientSecretBasic(s.secret),
      params,
      s.redirectUri,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    const e = await oauth.processAuthorizationCodeResponse(s.as, s.client, response).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(oauth.ResponseBodyError);
    expect([(e as oauth.ResponseBodyError).status, (e as oauth.ResponseBodyError).error]).toEqual([
      400,
      "invalid_grant",
    ]);
  });

  it("a code exchanged twice: the second exchange answers invalid_grant", async () => {
    const s = await setup();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await consent(s, {
      scope: "catalog:read",
      state,
      challenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const params = oauth.validateAuthResponse(s.as, s.client, callback, state);
    const exchange = () =>
      oauth.authorizationCodeGrantRequest(
        s.as,
        s.client,
        oauth.ClientSecretPost(s.secret),
        params,
        s.redirectUri,
        verifier,
        insecure,
      );
    const first = await oauth.processAuthorizationCodeResponse(s.as, s.client, await exchange());
    const e = await oauth.processAuthorizationCodeResponse(s.as, s.client, await exchange()).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((e as oauth.ResponseBodyError).error).toBe("invalid_grant");
    expect((await get(`${first.api_base_url as string}/me`, first.access_token)).status).toBe(401);
  });

  it("a wrong client secret by HTTP Basic answers 401 invalid_client with a Basic challenge", async () => {
    const s = await setup();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const callback = await consent(s, {
      scope: "catalog:read",
      state,
      challenge: await oauth.calculatePKCECodeChallenge(verifier),
    });
    const params = oauth.validateAuthResponse(s.as, s.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      s.as,
      s.client,
      oauth.ClientSecretBasic("wrong-secret"),
      params,
      s.redirectUri,
      verifier,
      insecure,
    );
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic\b/);
    expect((await json(response)).error).toBe("invalid_client");
  });
});
