// Tests of what the OAuth flow keeps between requests (spec, Authentication 3 to 7; docs/interfaces.md,
// Caps; docs/spec-choices.md, OAuth): codes and sign-ins end after their 10 minutes and are at most
// `oauth-pending` each; an authorization request's parameters are at most 1,024 characters; failed
// sign-ins on the consent screen are limited per address and per account; access tokens are forgotten
// when their hour ends, a connection keeps its newest `access-tokens-per-connection`, and an app and
// user their newest `connections-per-app-user` connections. The clock is frozen unless moved.
import { describe, expect, it } from "vitest";
import { makeSim } from "../../test-support/sim.js";
import {
  api,
  connect,
  control,
  exchange,
  expectOAuthError,
  fixture,
  forms,
  getAuthorizePage,
  getCode,
  postSignIn,
  refresh,
  submit,
  token,
  type Fixture,
} from "../../test-support/oauth.js";
import type { Simulator } from "../../simulator.js";

const authorizeQuery = (fx: Fixture, over: Record<string, string> = {}) => ({
  response_type: "code",
  client_id: fx.client.client_id,
  redirect_uri: fx.redirectUri,
  scope: "catalog:read",
  state: "st-1",
  ...over,
});

/** A sign-in posted on the consent screen from `address` (the authorization request's state given). */
const signIn = (sim: Simulator, fx: Fixture, email: string, password: string, address = "127.0.0.1", state = "st-1") =>
  postSignIn(sim, fx, { email, password, state }, address);

const codeGrant = (fx: Fixture, code: string) => ({
  grant_type: "authorization_code",
  code,
  redirect_uri: fx.redirectUri,
  client_id: fx.client.client_id,
  client_secret: fx.client.client_secret,
});

const exchangeStatus = async (sim: Simulator, fx: Fixture, code: string) =>
  (await token(sim, codeGrant(fx, code))).status;

describe("Spec, Authentication 4: codes end after 10 minutes and are gone; at most oauth-pending are kept", () => {
  it("five codes made, the clock moved 10 minutes: the next code made leaves one code kept", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    for (let i = 0; i < 5; i++) await getCode(sim, fx);
    expect(sim.world.oauth.codes.size).toBe(5);
    sim.clock.advance(600);
    const fresh = await getCode(sim, fx);
    expect(sim.world.oauth.codes.size).toBe(1);
    expect(await exchangeStatus(sim, fx, fresh)).toBe(200);
  });

  it("with oauth-pending 3 on a frozen clock, five codes leave the newest three: the two oldest answer invalid_grant", async () => {
    const sim = makeSim({ caps: { oauthPending: 3 } });
    const fx = await fixture(sim);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) codes.push(await getCode(sim, fx));
    expect(sim.world.oauth.codes.size).toBe(3);
    const statuses = [];
    for (const code of codes) statuses.push(await exchangeStatus(sim, fx, code));
    expect(statuses).toEqual([400, 400, 200, 200, 200]);
  });
});

describe("docs/spec-choices.md, OAuth: sign-ins on the consent screen end after 10 minutes; at most oauth-pending are kept", () => {
  it("with oauth-pending 2, three sign-ins leave the newest two: the first one's decision asks to sign in again", async () => {
    const sim = makeSim({ caps: { oauthPending: 2 } });
    const fx = await fixture(sim);
    const consents = [];
    for (let i = 0; i < 3; i++) {
      const page = await signIn(sim, fx, fx.admin.email, fx.admin.password);
      expect(page.status).toBe(200);
      consents.push(forms(page.html)[0]!);
    }
    expect(sim.world.oauth.tickets.size).toBe(2);
    const first = await submit(sim, consents[0]!, [["decision", "allow"]]);
    expect(first.status).toBe(401);
    expect(first.html).toContain("Your sign-in has expired. Sign in again.");
    const third = await submit(sim, consents[2]!, [["decision", "allow"]]);
    expect(third.status).toBe(302);
    expect(new URL(third.headers.get("location")!).searchParams.has("code")).toBe(true);
  });

  it("a sign-in is gone once its 10 minutes end: the next sign-in leaves only itself kept", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    for (let i = 0; i < 4; i++) await signIn(sim, fx, fx.admin.email, fx.admin.password);
    expect(sim.world.oauth.tickets.size).toBe(4);
    sim.clock.advance(600);
    await signIn(sim, fx, fx.admin.email, fx.admin.password);
    expect(sim.world.oauth.tickets.size).toBe(1);
  });
});

describe("docs/spec-choices.md, OAuth: an authorization request's parameters are at most 1,024 characters", () => {
  it("a state of a megabyte is refused with an invalid_request redirect that does not echo it, and nothing is kept", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const page = await getAuthorizePage(sim, authorizeQuery(fx, { state: "s".repeat(1_000_000) }));
    expect(page.status).toBe(302);
    const to = new URL(page.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe(fx.redirectUri);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      error: "invalid_request",
      error_description: "state must be at most 1024 characters",
    });
    // The sign-in form posting it is refused the same way: no sign-in is kept with it.
    expect((await signIn(sim, fx, fx.admin.email, fx.admin.password)).status).toBe(200);
    const posted = await signIn(sim, fx, fx.admin.email, fx.admin.password, "127.0.0.1", "s".repeat(1_000_000));
    expect(posted.status).toBe(302);
    expect(new URL(posted.headers.get("location")!).searchParams.get("error")).toBe("invalid_request");

    expect(sim.world.oauth.tickets.size).toBe(1);
  });

  it("a scope over 1,024 characters is refused naming scope and echoing the state; 1,024 characters of state come back exactly", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const scope = Array(100).fill("catalog:read").join(" ");
    const page = await getAuthorizePage(sim, authorizeQuery(fx, { scope }));
    const to = new URL(page.headers.get("location")!);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      error: "invalid_request",
      error_description: "scope must be at most 1024 characters",
      state: "st-1",
    });
    const state = "x".repeat(1024);
    const code = await getCode(sim, fx, { state });
    expect(code.length).toBeGreaterThan(0);
    const headless = await control(sim, "POST", "/_sim/oauth/authorize", {
      user_id: fx.admin.id,
      client_id: fx.client.client_id,
      redirect_uri: fx.redirectUri,
      scope: "catalog:read",
      state: `${state}x`,
      decision: "allow",
    });
    expect(new URL(headless.json.redirect_to).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("docs/spec-choices.md, OAuth: failed sign-ins are limited, 10 per 5 minutes per account and 30 per address", () => {
  it("after 10 wrong passwords for one account, the right one is refused 429 with Retry-After, from any address, until 5 minutes pass", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    for (let i = 0; i < 10; i++) {
      const page = await signIn(sim, fx, fx.admin.email, `wrong-${i}`, `10.0.0.${i}`);
      expect(page.status).toBe(401);
      expect(page.html).toContain("The email or password is not right.");
    }
    sim.clock.advance(60);
    for (const address of ["10.0.0.1", "10.9.9.9"]) {
      const locked = await signIn(sim, fx, fx.admin.email.toUpperCase(), fx.admin.password, address);
      expect(locked.status).toBe(429);
      expect(locked.headers.get("retry-after")).toBe("240");
      expect(locked.html).toContain("Too many failed sign-ins. Try again in 4 minutes.");
      expect(forms(locked.html)[0]!.hidden).toContainEqual(["step", "sign_in"]);
    }
    // Another account signs in from the same addresses.
    expect((await signIn(sim, fx, fx.staff.email, fx.staff.password, "10.0.0.1")).status).toBe(403);
    sim.clock.advance(240);
    expect((await signIn(sim, fx, fx.admin.email, fx.admin.password, "10.0.0.1")).status).toBe(200);
  });

  it("an email no account has is limited the same way (the limit tells nothing about which accounts exist)", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(sim, fx, "nobody@demo.example", "x")).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });

  it("after 30 failures from one address, over several accounts, every sign-in from it is refused; other addresses are not", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    for (let i = 0; i < 30; i++)
      expect((await signIn(sim, fx, `guess-${i % 5}@demo.example`, "x", "10.1.1.1")).status).toBe(401);
    const locked = await signIn(sim, fx, fx.admin.email, fx.admin.password, "10.1.1.1");
    expect([locked.status, locked.headers.get("retry-after")]).toEqual([429, "300"]);
    expect((await signIn(sim, fx, fx.admin.email, fx.admin.password, "10.1.1.2")).status).toBe(200);
  });
});

describe("Spec, Authentication 7: access tokens, refresh tokens and connections are bounded", () => {
  it("an access token is forgotten once its hour ends: the registry holds none after the next request", async () => {
    const sim = makeSim();
    const fx = await fixture(sim);
    const { access_token: at, refresh_token: rt } = await connect(sim, fx);
    expect(sim.world.credentials.endingCount).toBe(1);
    sim.clock.advance(3600);
    expect((await api(sim, "GET", "/demo/v1/me", at)).status).toBe(401);
    expect(sim.world.credentials.endingCount).toBe(0);
    expect((await refresh(sim, fx.client, rt)).status).toBe(200);
    expect(sim.world.credentials.endingCount).toBe(1);
  });

  it("with access-tokens-per-connection 3 on a frozen clock, 20 refreshes keep 3 tokens: the newest work, older ones answer 401", async () => {
    const sim = makeSim({ caps: { accessTokensPerConnection: 3 } });
    const fx = await fixture(sim);
    const first = await connect(sim, fx);
    const tokens: string[] = [first.access_token];
    for (let i = 0; i < 20; i++) {
      const r = await refresh(sim, fx.client, first.refresh_token);
      expect(r.status).toBe(200);
      tokens.push(r.json.access_token);
    }
    expect(sim.world.credentials.endingCount).toBe(3);
    const statuses = [];
    for (const at of tokens.slice(-4)) statuses.push((await api(sim, "GET", "/demo/v1/me", at)).status);
    expect(statuses).toEqual([401, 200, 200, 200]);
  });

  it("with connections-per-app-user 2, a third connection of the app and user forgets the first: its tokens stop, the others go on", async () => {
    const sim = makeSim({ caps: { connectionsPerAppUser: 2 } });
    const fx = await fixture(sim);
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await connect(sim, fx));
    const connections = await control(sim, "GET", "/_sim/connections");
    expect(connections.json).toHaveLength(2);
    expect((await api(sim, "GET", "/demo/v1/me", made[0].access_token)).status).toBe(401);
    expectOAuthError(await refresh(sim, fx.client, made[0].refresh_token), 400, "invalid_grant");
    for (const kept of made.slice(1)) {
      expect((await api(sim, "GET", "/demo/v1/me", kept.access_token)).status).toBe(200);
      expect((await refresh(sim, fx.client, kept.refresh_token)).status).toBe(200);
    }
    // Another user's connections to the same app are their own.
    const otherAdmin = fx.otherAdmin!;
    const other = await exchange(sim, fx, await getCode(sim, fx, { user: otherAdmin }));
    expect((await api(sim, "GET", `/${otherAdmin.store_prefix}/v1/me`, other.access_token)).status).toBe(200);
    expect((await control(sim, "GET", "/_sim/connections")).json).toHaveLength(3);
  });
});
