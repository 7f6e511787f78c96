// Tests of the token endpoint, `POST {api_root}/oauth/token` (retail-api-v1.md: Authentication 3 to 8,
// Limits: authorization code) and the OAuth choices of docs/spec-choices.md, where no conformance rule
// holds the simulator (conformance/rules/oauth/ holds the rest, its strict profile the simulator's own
// choices). Written from the spec; the simulator is the thing under test. The credential lifecycle is in
// oauth-credential.test.ts.
import { describe, expect, it } from "vitest";
import { makeSim } from "../../test-support/sim.js";
import {
  basicCreds,
  bodyCreds,
  connect,
  control,
  exchange,
  fixture,
  getCode,
  pkcePair,
  refresh,
  token,
  expectOAuthError,
} from "../../test-support/oauth.js";

const codeGrant = (code: string, redirectUri: string, extra: Record<string, string> = {}) => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: redirectUri,
  ...extra,
});

describe("Spec, Authentication 3 and 6: exchanging a code answers the token response fields exactly", () => {
  it("the response has exactly access_token, refresh_token, token_type Bearer, expires_in 3600, scope, store_name, api_base_url", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx, { scope: "catalog:write sales:read" });
    const r = await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(r.json).toStrictEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 3600,
      scope: expect.any(String),
      store_name: fx.storeName("demo"),
      api_base_url: "http://sim.test/demo/v1",
    });
    expect(r.json.access_token.length).toBeGreaterThan(0);
    expect(r.json.refresh_token.length).toBeGreaterThan(0);
    expect(r.json.access_token).not.toBe(r.json.refresh_token);
  });

  it("store_name and api_base_url name the store of the admin who allowed (Authentication 6 and 10)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expect(fx.otherAdmin).toBeDefined();
    const json = await connect(sim, fx, "catalog:read", { user: fx.otherAdmin! });
    expect(json.api_base_url).toBe("http://sim.test/other/v1");
    expect(json.store_name).toBe(fx.storeName("other"));
  });
});

describe("Spec, Authentication 3: PKCE with code_challenge_method=S256", () => {
  it("S256 is checked with the RFC 7636 Appendix B example (verifier dBjftJeZ..., challenge E9Melhoa...)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx, { challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" });
    const r = await token(sim, {
      ...codeGrant(code, fx.redirectUri, { code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk" }),
      ...bodyCreds(fx.client),
    });
    expect(r.status).toBe(200);
  });

  it("a wrong code_verifier answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { challenge } = pkcePair();
    const code = await getCode(sim, fx, { challenge });
    const r = await token(sim, {
      ...codeGrant(code, fx.redirectUri, { code_verifier: pkcePair().verifier }),
      ...bodyCreds(fx.client),
    });
    expectOAuthError(r, 400, "invalid_grant");
  });

  it("the challenge itself sent as the verifier (the plain method) answers 400 invalid_grant: only S256", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { challenge } = pkcePair();
    const code = await getCode(sim, fx, { challenge });
    const r = await token(sim, {
      ...codeGrant(code, fx.redirectUri, { code_verifier: challenge }),
      ...bodyCreds(fx.client),
    });
    expectOAuthError(r, 400, "invalid_grant");
  });

  it("a missing code_verifier for a code made with PKCE answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx, { challenge: pkcePair().challenge });
    const r = await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) });
    expectOAuthError(r, 400, "invalid_grant");
  });

  it("a code_verifier sent for a code made without PKCE answers 400 invalid_grant (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const r = await token(sim, {
      ...codeGrant(code, fx.redirectUri, { code_verifier: pkcePair().verifier }),
      ...bodyCreds(fx.client),
    });
    expectOAuthError(r, 400, "invalid_grant");
  });
});

describe("Spec, Authentication 4 / Limits: a code works once", () => {
  it("after a second use the connection of the first use is disconnected: its access token answers 401 and its refresh token invalid_grant (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const first = await exchange(sim, fx, code);
    expect((await control(sim, "GET", "/_sim/connections")).json.map((c: { state: string }) => c.state)).toEqual([
      "active",
    ]);
    expect((await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) })).status).toBe(400);
    const me = await sim.fetch("http://sim.test/demo/v1/me", {
      headers: { authorization: `Bearer ${first.access_token}` },
    });
    expect(me.status).toBe(401);
    expect(await me.json()).toStrictEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    expectOAuthError(await refresh(sim, fx.client, first.refresh_token), 400, "invalid_grant");
    expect((await control(sim, "GET", "/_sim/connections")).json.map((c: { state: string }) => c.state)).toEqual([
      "revoked",
    ]);
  });

  it("a code can be used by the client it was issued to only: another client's exchange answers 400 invalid_grant (RFC 6749 4.1.3)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const other = (
      await control(sim, "POST", "/_sim/oauth/clients", { name: "Other App", redirect_uris: [fx.redirectUri] })
    ).json;
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(other) }),
      400,
      "invalid_grant",
    );
  });
});

describe("Spec, Authentication 4 / Limits: a code is valid for 10 minutes", () => {
  it("599 seconds after it was issued the code still works", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    sim.clock.advance(599);
    expect((await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) })).status).toBe(200);
  });

  it("600 seconds after it was issued the code answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    sim.clock.advance(600);
    expectOAuthError(
      await token(sim, { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) }),
      400,
      "invalid_grant",
    );
  });
});

describe("Spec, Authentication 3: redirect_uri of the exchange must be the one of the authorization request", () => {
  it("another registered redirect_uri of the same client answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expect(fx.client.redirect_uris.length).toBeGreaterThan(1);
    const code = await getCode(sim, fx, { redirectUri: fx.client.redirect_uris[0] });
    expectOAuthError(
      await token(sim, { ...codeGrant(code, fx.client.redirect_uris[1] as string), ...bodyCreds(fx.client) }),
      400,
      "invalid_grant",
    );
  });

  it("an unregistered redirect_uri (trailing slash added) answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, { ...codeGrant(code, `${fx.redirectUri}/`), ...bodyCreds(fx.client) }),
      400,
      "invalid_grant",
    );
  });
});

describe("Spec, Authentication 5: client credentials as HTTP Basic or in the body, never both", () => {
  it("both at once answers 400 invalid_request (recorded choice), and the code is not spent", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(
        sim,
        { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) },
        { basic: basicCreds(fx.client) },
      ),
      400,
      "invalid_request",
    );
    expect((await token(sim, codeGrant(code, fx.redirectUri), { basic: basicCreds(fx.client) })).status).toBe(200);
  });

  it("a field given twice answers 400 invalid_request naming it (RFC 6749 3.2: parameters must not be included more than once), however many fields the form holds, and the code is not spent", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const fields: [string, string][] = Object.entries({ ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) });
    const twice = await token(sim, [...fields, ["redirect_uri", fx.redirectUri]]);
    expectOAuthError(twice, 400, "invalid_request");
    expect(twice.json.error_description).toBe("redirect_uri is given more than once.");
    // 60,000 distinct fields, the last one repeated: found in one pass over the form.
    const many: [string, string][] = Array.from({ length: 60_000 }, (_, i) => [`x${i}`, ""]);
    const crowded = await token(sim, [...fields, ...many, ["x0", ""]]);
    expect(crowded.json.error_description).toBe("x0 is given more than once.");
    expect((await token(sim, fields)).status).toBe(200);
  });

  it("Basic plus client_secret alone in the body answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(
        sim,
        { ...codeGrant(code, fx.redirectUri), client_secret: fx.client.client_secret },
        { basic: basicCreds(fx.client) },
      ),
      400,
      "invalid_request",
    );
  });
});

describe("Spec, Authentication 8: bad client credentials answer 401 invalid_client", () => {
  it("an unknown client_id in the body answers 401 invalid_client", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, {
        ...codeGrant(code, fx.redirectUri),
        client_id: "rsc_unknown",
        client_secret: fx.client.client_secret,
      }),
      401,
      "invalid_client",
    );
  });

  it("an unknown client by HTTP Basic answers 401 invalid_client", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, codeGrant(code, fx.redirectUri), {
        basic: { id: "rsc_unknown", secret: fx.client.client_secret },
      }),
      401,
      "invalid_client",
    );
  });

  it("no client credentials at all answers 401 invalid_client", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(await token(sim, codeGrant(code, fx.redirectUri)), 401, "invalid_client");
  });

  it("client_id without client_secret answers 401 invalid_client", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, { ...codeGrant(code, fx.redirectUri), client_id: fx.client.client_id }),
      401,
      "invalid_client",
    );
  });
});

describe("Spec, Authentication 3, 7 and 8: malformed token requests", () => {
  it.each(["client_credentials", "password", "implicit", "urn:ietf:params:oauth:grant-type:device_code"])(
    "grant_type=%s answers 400 unsupported_grant_type",
    async (grant) => {
      const sim = makeSim();
      const fx = await fixture(sim);
      expectOAuthError(await token(sim, { grant_type: grant, ...bodyCreds(fx.client) }), 400, "unsupported_grant_type");
    },
  );

  it("a missing grant_type answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, { code, redirect_uri: fx.redirectUri, ...bodyCreds(fx.client) }),
      400,
      "invalid_request",
    );
  });

  it("grant_type=authorization_code without code answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectOAuthError(
      await token(sim, { grant_type: "authorization_code", redirect_uri: fx.redirectUri, ...bodyCreds(fx.client) }),
      400,
      "invalid_request",
    );
  });

  it("grant_type=authorization_code without redirect_uri answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    expectOAuthError(
      await token(sim, { grant_type: "authorization_code", code, ...bodyCreds(fx.client) }),
      400,
      "invalid_request",
    );
  });

  it("grant_type=refresh_token without refresh_token answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectOAuthError(
      await token(sim, { grant_type: "refresh_token", ...bodyCreds(fx.client) }),
      400,
      "invalid_request",
    );
  });

  it("an unknown code answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectOAuthError(
      await token(sim, { ...codeGrant("rsc_code_not_a_real_code", fx.redirectUri), ...bodyCreds(fx.client) }),
      400,
      "invalid_grant",
    );
  });

  it("an unknown refresh token answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    expectOAuthError(await refresh(sim, fx.client, "rsr_not_a_real_refresh_token"), 400, "invalid_grant");
  });

  it("an access token sent as the refresh token answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    expectOAuthError(await refresh(sim, fx.client, json.access_token), 400, "invalid_grant");
  });

  it("a parameter given twice answers 400 invalid_request (RFC 6749 3.2)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const fields: [string, string][] = [
      ["grant_type", "authorization_code"],
      ["code", code],
      ["code", code],
      ["redirect_uri", fx.redirectUri],
      ["client_id", fx.client.client_id],
      ["client_secret", fx.client.client_secret],
    ];
    expectOAuthError(await token(sim, fields), 400, "invalid_request");
  });

  it("a JSON body (not form fields) answers 400 invalid_request in the OAuth shape", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const raw = JSON.stringify({ ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) });
    expectOAuthError(await token(sim, {}, { raw, contentType: "application/json" }), 400, "invalid_request");
  });

  it("form text sent as text/plain answers 400 invalid_request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const raw = new URLSearchParams({ ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) }).toString();
    expectOAuthError(await token(sim, {}, { raw, contentType: "text/plain" }), 400, "invalid_request");
  });

  it("form fields with a charset parameter on the content type work", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    const r = await token(
      sim,
      { ...codeGrant(code, fx.redirectUri), ...bodyCreds(fx.client) },
      { contentType: "application/x-www-form-urlencoded; charset=UTF-8" },
    );
    expect(r.status).toBe(200);
  });
});

describe("Spec, Authentication 8: token errors use {error, error_description}, never the API envelope", () => {
  it("every kind of failure answers a string `error` and no `code`/`message` object", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const replies = [
      await token(sim, { grant_type: "nope", ...bodyCreds(fx.client) }),
      await token(sim, { ...codeGrant("bad", fx.redirectUri), ...bodyCreds(fx.client) }),
      await token(sim, { ...codeGrant("bad", fx.redirectUri), client_id: fx.client.client_id, client_secret: "bad" }),
      await token(sim, {}, { raw: "{}", contentType: "application/json" }),
    ];
    expect(replies.map((r) => [r.status, r.json.error])).toEqual([
      [400, "unsupported_grant_type"],
      [400, "invalid_grant"],
      [401, "invalid_client"],
      [400, "invalid_request"],
    ]);
    for (const r of replies) {
      expect(typeof r.json.error).toBe("string");
      expect(Object.keys(r.json).sort()).toEqual(["error", "error_description"]);
    }
  });
});
