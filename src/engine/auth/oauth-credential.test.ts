// Tests of the OAuth credential lifecycle (retail-api-v1.md: Authentication 1, 7, 9 and 10, Scopes,
// States and transitions: Credential, Limits: access token, credential idle, token endpoint failures)
// and the OAuth choices of docs/spec-choices.md, where no conformance rule holds the simulator
// (conformance/rules/oauth/ holds the rest, its strict profile the simulator's own choices). Written from
// the spec; the simulator is under test.
import { describe, expect, it } from "vitest";
import { makeSim } from "../../test-support/sim.js";
import {
  api,
  basicCreds,
  bodyCreds,
  connect,
  control,
  fixture,
  getCode,
  refresh,
  sortedScopes,
  token,
  type JsonReply,
  expectOAuthError,
} from "../../test-support/oauth.js";
import { expectError } from "../../test-support/errors.js";

const DAY = 24 * 60 * 60;

const expectUnauthorized = (r: JsonReply) => expectError(r, 401, "UNAUTHORIZED");

describe("Spec, Authentication 1 and Scopes: an access token works on the API with exactly the granted scopes", () => {
  it("scope catalog:write sales:read: catalog reads and writes and sales reads pass the scope check; customers and inventory answer 403 INSUFFICIENT_SCOPE", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at } = await connect(sim, fx, "catalog:write sales:read");
    expect((await api(sim, "GET", "/demo/v1/products", at)).status).toBe(200);
    expect((await api(sim, "GET", "/demo/v1/sales", at)).status).toBe(200);
    // catalog:write passes the scope check; the empty document then fails validation.
    const write = await api(sim, "POST", "/demo/v1/products", at, {});
    expect([write.status, write.json.error.code]).toEqual([400, "VALIDATION_FAILED"]);
    expectError(await api(sim, "GET", "/demo/v1/customers", at), 403, "INSUFFICIENT_SCOPE");
    expectError(await api(sim, "POST", "/demo/v1/customers", at, {}), 403, "INSUFFICIENT_SCOPE");
    expectError(await api(sim, "GET", "/demo/v1/inventory/adjustment-reasons", at), 403, "INSUFFICIENT_SCOPE");
    expectError(await api(sim, "POST", "/demo/v1/inventory/adjustments", at, {}), 403, "INSUFFICIENT_SCOPE");
  });

  it("scope inventory:read: catalog reads answer 403 INSUFFICIENT_SCOPE and stock writes too", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at } = await connect(sim, fx, "inventory:read");
    expect((await api(sim, "GET", "/demo/v1/inventory/adjustment-reasons", at)).status).toBe(200);
    expectError(await api(sim, "GET", "/demo/v1/products", at), 403, "INSUFFICIENT_SCOPE");
    expectError(await api(sim, "POST", "/demo/v1/inventory/adjustments", at, {}), 403, "INSUFFICIENT_SCOPE");
    expectError(await api(sim, "GET", "/demo/v1/sales", at), 403, "INSUFFICIENT_SCOPE");
  });

  it.each(["/me", "/store", "/outlets", "/payment-types", "/taxes"])(
    "GET %s needs no particular scope: 200 with a sales:read token",
    async (path) => {
      const sim = makeSim();
      const fx = await fixture(sim);
      const { access_token: at } = await connect(sim, fx, "sales:read");
      expect((await api(sim, "GET", `/demo/v1${path}`, at)).status).toBe(200);
    },
  );
});

describe("Spec, Identity (GET /me) with an access token: scopes and key {id: the connection, name: the app}", () => {
  it("GET /me answers the store, the granted scopes and key {id, name} where id is the connection id of /_sim/connections", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at } = await connect(sim, fx, "catalog:write sales:read");
    const connections = (await control(sim, "GET", "/_sim/connections")).json;
    expect(connections).toHaveLength(1);
    expect(connections[0]).toMatchObject({
      client_id: fx.client.client_id,
      user_id: fx.admin.id,
      store_prefix: "demo",
      state: "active",
    });
    expect([...connections[0].scopes].sort()).toEqual(["catalog:read", "catalog:write", "sales:read"]);
    const me = await api(sim, "GET", "/demo/v1/me", at);
    expect(me.status).toBe(200);
    expect(me.json).toStrictEqual({
      data: {
        store_name: fx.storeName("demo"),
        domain_prefix: "demo",
        scopes: expect.any(Array),
        key: { id: connections[0].id, name: fx.client.name },
      },
    });
    expect([...me.json.data.scopes].sort()).toEqual(["catalog:read", "catalog:write", "sales:read"]);
  });

  it("each code exchange makes its own connection (two exchanges, two connection ids in /me)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const a = await connect(sim, fx);
    const b = await connect(sim, fx);
    const idA = (await api(sim, "GET", "/demo/v1/me", a.access_token)).json.data.key.id;
    const idB = (await api(sim, "GET", "/demo/v1/me", b.access_token)).json.data.key.id;
    expect(idA).not.toBe(idB);
    expect((await control(sim, "GET", "/_sim/connections")).json.map((c: { id: string }) => c.id).sort()).toEqual(
      [idA, idB].sort(),
    );
  });
});

describe("Spec, Authentication 10: the store prefix comes from api_base_url or GET /me", () => {
  it("api_base_url + /me answers 200 with domain_prefix of that prefix; under another store's prefix the token answers 401 (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx, "catalog:read", { user: fx.otherAdmin! });
    const path = `${new URL(json.api_base_url).pathname}/me`;
    expect(path).toBe("/other/v1/me");
    const me = await api(sim, "GET", path, json.access_token);
    expect(me.status).toBe(200);
    expect(me.json.data.domain_prefix).toBe("other");
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", json.access_token));
  });
});

describe("Spec, Authentication 7 / Limits: an access token lasts 1 hour (3600 seconds)", () => {
  it("3599 seconds after issue the token works", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at } = await connect(sim, fx);
    sim.clock.advance(3599);
    expect((await api(sim, "GET", "/demo/v1/me", at)).status).toBe(200);
  });

  it("3600 seconds after issue the token answers 401 UNAUTHORIZED (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at } = await connect(sim, fx);
    sim.clock.advance(3600);
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", at));
  });
});

describe("Spec, Authentication 7: refresh with grant_type=refresh_token; the refresh token does not rotate", () => {
  it("a refresh answers the full token response with a new access token and the same refresh token, Cache-Control: no-store", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx, "catalog:write");
    const r = await refresh(sim, fx.client, first.refresh_token);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.json).toStrictEqual({
      access_token: expect.any(String),
      refresh_token: first.refresh_token,
      token_type: "Bearer",
      expires_in: 3600,
      scope: expect.any(String),
      store_name: fx.storeName("demo"),
      api_base_url: "http://sim.test/demo/v1",
    });
    expect(sortedScopes(r.json.scope)).toEqual(["catalog:read", "catalog:write"]);
    expect(r.json.access_token).not.toBe(first.access_token);
    expect((await api(sim, "GET", "/demo/v1/products", r.json.access_token)).status).toBe(200);
  });

  it("the same refresh token keeps working for later refreshes (no rotation)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    const tokens = new Set([first.access_token]);
    for (let i = 0; i < 3; i += 1) {
      const r = await refresh(sim, fx.client, first.refresh_token);
      expect(r.status).toBe(200);
      expect(r.json.refresh_token).toBe(first.refresh_token);
      tokens.add(r.json.access_token);
    }
    expect(tokens.size).toBe(4);
  });

  it("a refreshed access token belongs to the same connection: /me shows the same key id", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    const second = (await refresh(sim, fx.client, first.refresh_token)).json;
    const a = (await api(sim, "GET", "/demo/v1/me", first.access_token)).json.data.key;
    const b = (await api(sim, "GET", "/demo/v1/me", second.access_token)).json.data.key;
    expect(b).toStrictEqual(a);
  });

  it("rate limits belong to the connection: a request with the first token lowers what the refreshed token has left (recorded choice)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    const second = (await refresh(sim, fx.client, first.refresh_token)).json;
    expect((await api(sim, "GET", "/demo/v1/me", first.access_token)).headers.get("ratelimit")).toBe(
      "limit=120, remaining=119, reset=60",
    );
    expect((await api(sim, "GET", "/demo/v1/me", second.access_token)).headers.get("ratelimit")).toBe(
      "limit=120, remaining=118, reset=60",
    );
  });

  it("a refreshed access token lasts 1 hour from the refresh, while the first one ends 1 hour after its own issue", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    sim.clock.advance(1800);
    const second = (await refresh(sim, fx.client, first.refresh_token)).json;
    sim.clock.advance(1800); // first: 3600 s old, second: 1800 s old
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", first.access_token));
    expect((await api(sim, "GET", "/demo/v1/me", second.access_token)).status).toBe(200);
    sim.clock.advance(1799); // second: 3599 s old
    expect((await api(sim, "GET", "/demo/v1/me", second.access_token)).status).toBe(200);
    sim.clock.advance(1); // second: 3600 s old
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", second.access_token));
  });

  it("a refresh token presented by another client answers 400 invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const other = (
      await control(sim, "POST", "/_sim/oauth/clients", {
        name: "Other App",
        redirect_uris: ["https://other.example/cb"],
      })
    ).json;
    const first = await connect(sim, fx);
    expectOAuthError(await refresh(sim, other, first.refresh_token), 400, "invalid_grant");
  });
});

describe("Spec, States: disconnect (done by a store admin) stops apps immediately", () => {
  it("after POST /_sim/connections/{id}/disconnect the access token answers 401 and the refresh token invalid_grant at once", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    const id = (await api(sim, "GET", "/demo/v1/me", json.access_token)).json.data.key.id;
    const d = await control(sim, "POST", `/_sim/connections/${id}/disconnect`);
    expect(d.status).toBe(200);
    expect(d.json).toStrictEqual({ id, state: "revoked" });
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", json.access_token));
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token), 400, "invalid_grant");
    expect((await control(sim, "GET", "/_sim/connections")).json.find((c: { id: string }) => c.id === id).state).toBe(
      "revoked",
    );
  });

  it("disconnect stops every access token of the connection, the refreshed ones too", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    const second = (await refresh(sim, fx.client, first.refresh_token)).json;
    const id = (await api(sim, "GET", "/demo/v1/me", first.access_token)).json.data.key.id;
    await control(sim, "POST", `/_sim/connections/${id}/disconnect`);
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", first.access_token));
    expectUnauthorized(await api(sim, "GET", "/demo/v1/me", second.access_token));
  });

  it("disconnecting one connection leaves another connection of the same app working", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const a = await connect(sim, fx);
    const b = await connect(sim, fx);
    const idA = (await api(sim, "GET", "/demo/v1/me", a.access_token)).json.data.key.id;
    await control(sim, "POST", `/_sim/connections/${idA}/disconnect`);
    expect((await api(sim, "GET", "/demo/v1/me", b.access_token)).status).toBe(200);
    expect((await refresh(sim, fx.client, b.refresh_token)).status).toBe(200);
  });

  it("disconnecting an unknown connection answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    const r = await control(sim, "POST", "/_sim/connections/00000000-0000-4000-8000-000000000000/disconnect");
    expectError(r, 404, "NOT_FOUND");
  });
});

describe("Spec, States / Authentication 9 / Limits: a connection idle for 90 days stops working", () => {
  it("90 days and 1 second after the exchange, with no use, the refresh token answers invalid_grant, and stays refused", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    sim.clock.advance(90 * DAY + 1);
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token), 400, "invalid_grant");
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token), 400, "invalid_grant");
  });

  it("exactly 90 days after the exchange the refresh still works (recorded choice: over 90 days)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    sim.clock.advance(90 * DAY);
    expect((await refresh(sim, fx.client, json.refresh_token)).status).toBe(200);
  });

  it("use keeps the connection alive: a refresh at day 89 and an API call with its token restart the 90 days", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    sim.clock.advance(89 * DAY);
    const fresh = await refresh(sim, fx.client, json.refresh_token);
    expect(fresh.status).toBe(200);
    sim.clock.advance(1800);
    // An API request with the fresh token is use of the connection (recorded choice: any request that authenticates).
    expect((await api(sim, "GET", "/demo/v1/me", fresh.json.access_token)).status).toBe(200);
    // 90 days and 60 s after the refresh, but less than 90 days after the API call.
    sim.clock.advance(90 * DAY + 60 - 1800);
    const later = await refresh(sim, fx.client, json.refresh_token);
    expect(later.status).toBe(200);
    expect((await api(sim, "GET", "/demo/v1/me", later.json.access_token)).status).toBe(200);
  });

  it("after 90 idle days following the last use, the refresh answers invalid_grant", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    sim.clock.advance(60 * DAY);
    expect((await refresh(sim, fx.client, json.refresh_token)).status).toBe(200);
    sim.clock.advance(90 * DAY + 1);
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token), 400, "invalid_grant");
  });
});

describe("Spec, Limits: token endpoint failures, 30 per 5 minutes per network address, answer invalid_request (429 per the choices)", () => {
  const A = "198.51.100.7";
  const B = "198.51.100.8";

  /** 30 failures of mixed kinds from `address`, each answered for its own reason. */
  async function fail30(
    sim: ReturnType<typeof makeSim>,
    fx: Awaited<ReturnType<typeof fixture>>,
    address: string,
  ): Promise<void> {
    for (let i = 0; i < 30; i += 1) {
      const kind = i % 3;
      const r =
        kind === 0
          ? await token(
              sim,
              {
                grant_type: "authorization_code",
                code: `bad-${i}`,
                redirect_uri: fx.redirectUri,
                ...bodyCreds(fx.client),
              },
              { remoteAddress: address },
            )
          : kind === 1
            ? await token(
                sim,
                {
                  grant_type: "refresh_token",
                  refresh_token: "x",
                  client_id: fx.client.client_id,
                  client_secret: "wrong",
                },
                { remoteAddress: address },
              )
            : await token(sim, { grant_type: "password", ...bodyCreds(fx.client) }, { remoteAddress: address });
      expect([r.status, r.json.error]).toEqual(
        kind === 0 ? [400, "invalid_grant"] : kind === 1 ? [401, "invalid_client"] : [400, "unsupported_grant_type"],
      );
    }
  }

  it("after 30 failures the next request, even a valid exchange, answers 429 {error: invalid_request} with Retry-After", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    await fail30(sim, fx, A);
    const r = await token(
      sim,
      { grant_type: "authorization_code", code, redirect_uri: fx.redirectUri, ...bodyCreds(fx.client) },
      { remoteAddress: A },
    );
    expectOAuthError(r, 429, "invalid_request");
    expect(r.headers.get("retry-after")).toBe("300");
  });

  it("the refusal is per address: another address exchanges normally", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const code = await getCode(sim, fx);
    await fail30(sim, fx, A);
    const r = await token(
      sim,
      { grant_type: "authorization_code", code, redirect_uri: fx.redirectUri, ...bodyCreds(fx.client) },
      { remoteAddress: B },
    );
    expect(r.status).toBe(200);
  });

  it("the refusal holds for 5 minutes of clock and clears after them", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    await fail30(sim, fx, A);
    sim.clock.advance(299);
    const held = await refresh(sim, fx.client, json.refresh_token, { remoteAddress: A });
    expectOAuthError(held, 429, "invalid_request");
    expect(held.headers.get("retry-after")).toBe("1");
    sim.clock.advance(1);
    const cleared = await refresh(sim, fx.client, json.refresh_token, { remoteAddress: A });
    expect(cleared.status).toBe(200);
    expect((await api(sim, "GET", "/demo/v1/me", cleared.json.access_token)).status).toBe(200);
  });

  it("successes do not count: 29 failures, 3 successes, then the 30th failure is answered for its reason and only the 31st request is refused", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    for (let i = 0; i < 29; i += 1) {
      expect((await refresh(sim, fx.client, `rsr_bad_${i}`, { remoteAddress: A })).status).toBe(400);
    }
    for (let i = 0; i < 3; i += 1)
      expect((await refresh(sim, fx.client, json.refresh_token, { remoteAddress: A })).status).toBe(200);
    expectOAuthError(await refresh(sim, fx.client, "rsr_bad_last", { remoteAddress: A }), 400, "invalid_grant");
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token, { remoteAddress: A }), 429, "invalid_request");
  });

  it("a request whose body is not form fields is a token endpoint failure too: 30 of them and the next valid request is refused", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const json = await connect(sim, fx);
    for (let i = 0; i < 30; i += 1) {
      expectOAuthError(
        await token(sim, {}, { raw: "{}", contentType: "application/json", remoteAddress: A }),
        400,
        "invalid_request",
      );
    }
    expectOAuthError(await refresh(sim, fx.client, json.refresh_token, { remoteAddress: A }), 429, "invalid_request");
  });
});

describe("Spec, Authentication 8: registration of OAuth clients is manual (control plane: /_sim/oauth/clients)", () => {
  it("POST /_sim/oauth/clients answers {client_id, client_secret, name, redirect_uris}, listed by GET /_sim/oauth/clients and /_sim/credentials", async () => {
    const sim = makeSim();
    const r = await control(sim, "POST", "/_sim/oauth/clients", {
      name: "Stock Sync",
      redirect_uris: ["https://sync.example/cb"],
    });
    expect(r.status).toBe(201);
    expect(r.json).toStrictEqual({
      client_id: expect.any(String),
      client_secret: expect.any(String),
      name: "Stock Sync",
      redirect_uris: ["https://sync.example/cb"],
    });
    const listed = (await control(sim, "GET", "/_sim/oauth/clients")).json;
    expect(listed).toContainEqual(r.json);
    const creds = (await control(sim, "GET", "/_sim/credentials")).json;
    expect(creds.oauth_clients.map((c: { client_id: string }) => c.client_id)).toContain(r.json.client_id);
  });

  it("a registered client connects: consent, exchange by Basic, API call; /me key name is the client's name", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const client = (
      await control(sim, "POST", "/_sim/oauth/clients", {
        name: "Stock Sync",
        redirect_uris: ["https://sync.example/cb"],
      })
    ).json;
    const code = await getCode(sim, fx, { client, scope: "inventory:write" });
    const r = await token(
      sim,
      { grant_type: "authorization_code", code, redirect_uri: "https://sync.example/cb" },
      { basic: basicCreds(client) },
    );
    expect(r.status).toBe(200);
    expect(sortedScopes(r.json.scope)).toEqual(["inventory:read", "inventory:write"]);
    const me = await api(sim, "GET", "/demo/v1/me", r.json.access_token);
    expect(me.json.data.key.name).toBe("Stock Sync");
    expect((await api(sim, "GET", "/demo/v1/inventory/adjustment-reasons", r.json.access_token)).status).toBe(200);
    expect((await refresh(sim, client, r.json.refresh_token)).status).toBe(200);
  });

  it("a registered client's secret is checked: the demo client's secret with its id answers 401 invalid_client", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const client = (
      await control(sim, "POST", "/_sim/oauth/clients", {
        name: "Stock Sync",
        redirect_uris: ["https://sync.example/cb"],
      })
    ).json;
    const code = await getCode(sim, fx, { client });
    const r = await token(sim, {
      grant_type: "authorization_code",
      code,
      redirect_uri: "https://sync.example/cb",
      client_id: client.client_id,
      client_secret: fx.client.client_secret,
    });
    expectOAuthError(r, 401, "invalid_client");
  });
});
