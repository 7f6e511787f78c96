import { createHash } from "node:crypto";
import fc from "fast-check";
import type { Reply } from "../../context.js";
import { type Command, command, type OAuthApp, type Session } from "./session.js";
import { accessTokenOf, bodyOf, isObject, tokenAnswerOf } from "../../shapes.js";

// Generated OAuth: consents given headlessly through the control plane (by the store's admin, by a
// user who may not connect, for another store, with PKCE as S256, as plain or half given, allowed or
// cancelled), codes exchanged with every way of sending client credentials and every verifier, tokens
// refreshed and used on routes of every scope, connections cut.

const SCOPES = ["catalog:read", "catalog:write", "inventory:read", "customers:read", "customers:write", "sales:read"];
const b64url = (bytes: Buffer) => bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** POST {api_root}/oauth/token with a form, the client's credentials as asked. */
function token(s: Session, app: OAuthApp, form: Record<string, string>, auth: string): Promise<Reply> {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = {};
  const other = s.apps.find((a) => a.clientId !== app.clientId) ?? app;
  const basic = (a: OAuthApp, secret = a.clientSecret) =>
    `Basic ${Buffer.from(`${a.clientId}:${secret}`).toString("base64")}`;
  if (auth === "basic" || auth === "both") headers.authorization = basic(app);
  if (auth === "body" || auth === "both") {
    body.set("client_id", app.clientId);
    body.set("client_secret", app.clientSecret);
  }
  if (auth === "wrong secret") headers.authorization = basic(app, `${app.clientSecret}x`);
  if (auth === "other client") headers.authorization = basic(other);
  return s.ctx.send("POST", `${s.apiRoot}/oauth/token`, {
    raw: body.toString(),
    contentType: "application/x-www-form-urlencoded",
    token: null,
    headers,
  });
}

const consent = fc
  .record({
    user: fc.constantFrom("admin", "admin", "staff", "other store", "lite"),
    // Often a read scope without its write scope: the boundary a scope check has.
    scopes: fc.oneof(
      fc.subarray(SCOPES, { minLength: 1, maxLength: 3 }),
      fc.constantFrom(["customers:read"], ["catalog:read", "customers:read"]),
    ),
    separator: fc.constantFrom(" ", "+"),
    pkce: fc.constantFrom("none", "S256", "S256", "plain", "method missing"),
    decision: fc.constantFrom("allow", "allow", "allow", "cancel"),
    app: fc.nat(),
    next: fc.constantFrom("exchange", "exchange", "keep"),
    auth: fc.constantFrom("basic", "body"),
    // At most one problem with the exchange, so that each is met alone.
    problem: fc.oneof(
      { weight: 3, arbitrary: fc.constant("none") },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "both",
          "no client auth",
          "wrong secret",
          "other client",
          "wrong verifier",
          "no verifier",
          "other redirect",
        ),
      },
    ),
  })
  .map((c) =>
    command(
      `consent(${c.user}, ${c.scopes.join(c.separator)}, pkce ${c.pkce}, ${c.decision}) then ${c.next} (${c.auth}, ${c.problem})`,
      async (s) => {
        const app = s.apps[c.app % Math.max(1, s.apps.length)];
        if (!s.control || !app) return;
        const prefix = s.prefix;
        const user =
          c.user === "admin"
            ? s.users.find((u) => u.prefix === prefix && u.role === "admin")
            : c.user === "staff"
              ? s.users.find((u) => u.prefix === prefix && u.role !== "admin")
              : c.user === "lite"
                ? s.users.find((u) => u.prefix.startsWith("lite"))
                : s.users.find((u) => u.prefix !== prefix && !u.prefix.startsWith("lite"));
        if (!user) return;
        const verifier = b64url(Buffer.from(s.name("verifier").padEnd(43, "v")));
        const challenge = b64url(createHash("sha256").update(verifier).digest());
        const body: Record<string, string> = {
          user_id: user.id,
          client_id: app.clientId,
          redirect_uri: app.redirectUri,
          scope: c.scopes.join(c.separator),
          state: s.name("state"),
          decision: c.decision,
        };
        if (c.pkce === "S256") Object.assign(body, { code_challenge: challenge, code_challenge_method: "S256" });
        if (c.pkce === "plain") Object.assign(body, { code_challenge: verifier, code_challenge_method: "plain" });
        if (c.pkce === "method missing") body.code_challenge = challenge;
        const given = await s.ctx.control("POST", "/oauth/authorize", body);
        const to = bodyOf(given)?.redirect_to;
        const code = typeof to === "string" ? new URL(to).searchParams.get("code") : null;
        if (!code) return;
        s.ctx.run.secrets.add(code);
        const pkce = c.pkce === "S256" || c.pkce === "plain" ? verifier : undefined;
        s.codes.push({ code, ...(pkce ? { verifier: pkce } : {}), app });
        if (c.next === "keep") return;
        const form: Record<string, string> = {
          grant_type: "authorization_code",
          code,
          redirect_uri: c.problem === "other redirect" ? `${app.redirectUri}/elsewhere` : app.redirectUri,
        };
        if (pkce && c.problem !== "no verifier") form.code_verifier = pkce;
        if (c.problem === "wrong verifier") form.code_verifier = b64url(Buffer.from("w".repeat(43)));
        const auth =
          { both: "both", "no client auth": "none", "wrong secret": "wrong secret", "other client": "other client" }[
            c.problem as string
          ] ?? c.auth;
        const reply = await token(s, app, form, auth);
        const access = accessTokenOf(reply);
        if (reply.status === 200 && access !== undefined) {
          const t = tokenAnswerOf(reply);
          s.ctx.run.secrets.add(access);
          if (typeof t.refresh_token === "string") s.ctx.run.secrets.add(t.refresh_token);
          // A token answer without a refresh_token is the comparison's to judge: it is held as sent before (the text "undefined").
          s.tokens.push({ access, refresh: String(t.refresh_token), scopes: String(t.scope ?? "").split(" ") });
        }
      },
    ),
  );

/** A code used (again), a token refreshed, an access token used on a route, a connection cut. */
const afterwards = fc
  .record({
    op: fc.constantFrom("exchange again", "refresh", "refresh", "use", "use", "use", "disconnect"),
    pick: fc.nat(),
    auth: fc.constantFrom("basic", "body", "none", "other client"),
    route: fc.constantFrom(
      "/me",
      "/products?limit=1",
      "/customers?limit=1",
      "/sales?limit=1",
      "DELETE /customers/4b0c8a5e-9d1f-4e2a-8c3b-6a7d9e0f1a2b",
    ),
  })
  .map((c) =>
    command(`oauth ${c.op}(${c.pick}, ${c.auth}, ${c.route})`, async (s) => {
      if (!s.control) return;
      if (c.op === "exchange again") {
        const code = s.codes[c.pick % Math.max(1, s.codes.length)];
        if (!code) return;
        await token(
          s,
          code.app,
          {
            grant_type: "authorization_code",
            code: code.code,
            redirect_uri: code.app.redirectUri,
            ...(code.verifier ? { code_verifier: code.verifier } : {}),
          },
          c.auth,
        );
        return;
      }
      const held = s.tokens[c.pick % Math.max(1, s.tokens.length)];
      const app = s.apps[0];
      if (!held || !app) return;
      if (c.op === "refresh") {
        const reply = await token(s, app, { grant_type: "refresh_token", refresh_token: held.refresh }, c.auth);
        const access = accessTokenOf(reply);
        if (reply.status === 200 && access !== undefined) {
          s.ctx.run.secrets.add(access);
          s.tokens.push({
            access,
            refresh: String(tokenAnswerOf(reply).refresh_token ?? held.refresh),
            scopes: held.scopes,
          });
        }
        return;
      }
      if (c.op === "use") {
        // Where the token's scopes end is where a bug hides: a write route of a scope it may only read, half the time.
        const boundary = held.scopes.includes("customers:read") && !held.scopes.includes("customers:write");
        const route = boundary && c.pick % 2 === 0 ? "DELETE /customers/4b0c8a5e-9d1f-4e2a-8c3b-6a7d9e0f1a2b" : c.route;
        const [method, path] = route.startsWith("DELETE ") ? ["DELETE", route.slice(7)] : ["GET", route];
        await s.ctx.send(method as string, `${s.ctx.run.target.baseUrl}${path}`, { token: held.access });
        return;
      }
      const connections = await s.ctx.control("GET", "/connections");
      const doc = bodyOf(connections);
      const list: unknown = doc?.data ?? doc?.connections ?? [];
      const one: unknown = Array.isArray(list) ? list[c.pick % Math.max(1, list.length)] : undefined;
      const id = isObject(one) ? one.id : undefined;
      if (id) await s.ctx.control("POST", `/connections/${encodeURIComponent(String(id))}/disconnect`);
    }),
  );

/**
 * Lifetimes: a code exchanged a while after it was given, an access token used and refreshed a while after
 * it was issued, each just inside or past the spec's 10 minutes and hour (Authentication 4 and 7).
 */
const lifetimes = fc
  .record({
    what: fc.constantFrom("code", "token"),
    seconds: fc.constantFrom(61, 301, 593, 607, 1_801, 3_593, 3_607),
    auth: fc.constantFrom("basic", "body"),
  })
  .map((c) =>
    command(`${c.what} used ${c.seconds} s after it was issued`, async (s) => {
      const app = s.apps[0];
      const admin = s.users.find((u) => u.prefix === s.prefix && u.role === "admin");
      if (!s.control || !app || !admin) return;
      const given = await s.ctx.control("POST", "/oauth/authorize", {
        user_id: admin.id,
        client_id: app.clientId,
        redirect_uri: app.redirectUri,
        scope: "catalog:read customers:read",
        state: s.name("state"),
        decision: "allow",
      });
      const to = bodyOf(given)?.redirect_to;
      const code = typeof to === "string" ? new URL(to).searchParams.get("code") : null;
      if (!code) return;
      s.ctx.run.secrets.add(code);
      const exchange = () =>
        token(s, app, { grant_type: "authorization_code", code, redirect_uri: app.redirectUri }, c.auth);
      if (c.what === "code") await s.ctx.control("POST", "/clock", { advance_seconds: c.seconds });
      const got = await exchange();
      const access = accessTokenOf(got);
      if (c.what === "code" || access === undefined) return;
      const refresh = tokenAnswerOf(got).refresh_token;
      s.ctx.run.secrets.add(access);
      if (typeof refresh === "string") s.ctx.run.secrets.add(refresh);
      await s.ctx.control("POST", "/clock", { advance_seconds: c.seconds });
      await s.send(s.request("GET", "/me"));
      await s.ctx.send("GET", `${s.ctx.run.target.baseUrl}/products?limit=1`, { token: access });
      const refreshed = await token(
        s,
        app,
        // Sent as before when the answer had none (the text "undefined"): the comparison judges that answer.
        { grant_type: "refresh_token", refresh_token: String(refresh) },
        c.auth,
      );
      const renewed = accessTokenOf(refreshed);
      if (renewed !== undefined) {
        s.ctx.run.secrets.add(renewed);
        await s.ctx.send("GET", `${s.ctx.run.target.baseUrl}/me`, { token: renewed });
      }
    }),
  );

/** The hidden fields of the consent screen's form (its own request's parameters, the sign-in's ticket). */
const hiddenFields = (html: string): Record<string, string> =>
  Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      m[1] as string,
      (m[2] as string)
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&"),
    ]),
  );

/**
 * The consent screen as a merchant goes through it (Authentication 3, step 2): the authorization request,
 * the sign-in (a store admin, a user who may not connect, a wrong password), the decision; the model
 * goes through the same pages and the redirects are compared. Then a token request of a grant type the
 * spec does not have.
 */
const consentScreen = fc
  .record({
    who: fc.constantFrom("admin", "admin", "staff", "wrong password"),
    scope: fc.constantFrom("catalog:read", "catalog:read+sales:read", "customers:write", "no-such-scope", ""),
    decision: fc.constantFrom("allow", "cancel"),
    responseType: fc.constantFrom("code", "code", "code", "token"),
  })
  .map((c) =>
    command(
      `consent screen(${c.who}, scope ${c.scope || "none"}, ${c.decision}, response_type ${c.responseType})`,
      async (s) => {
        const app = s.apps[0];
        if (!s.control || !app) return;
        const user = s.users.find(
          (u) => u.prefix === s.prefix && (c.who === "staff" ? u.role !== "admin" : u.role === "admin"),
        );
        if (!user) return;
        const url = `${s.apiRoot}/oauth/authorize`;
        const params = new URLSearchParams({
          response_type: c.responseType,
          client_id: app.clientId,
          redirect_uri: app.redirectUri,
          scope: c.scope,
          state: s.name("state"),
        });
        const form = { contentType: "application/x-www-form-urlencoded", token: null } as const;
        const signIn = await s.ctx.send("GET", `${url}?${params.toString().replace(/%2B/g, "+")}`, { token: null });
        if (signIn.status !== 200) return;
        const fields = {
          ...hiddenFields(signIn.text),
          email: user.email,
          password: c.who === "wrong password" ? "not-the-password" : user.password,
        };
        const decide = await s.ctx.send("POST", url, { ...form, raw: new URLSearchParams(fields).toString() });
        if (decide.status !== 200 || !decide.text.includes('name="ticket"')) return;
        await s.ctx.send("POST", url, {
          ...form,
          raw: new URLSearchParams({ ...hiddenFields(decide.text), decision: c.decision }).toString(),
        });
        await token(s, app, { grant_type: "password", username: user.email, password: user.password }, "basic");
      },
    ),
  );

export const OAUTH_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 2, arbitrary: consent },
  { weight: 3, arbitrary: afterwards },
  { weight: 2, arbitrary: lifetimes },
  { weight: 1, arbitrary: consentScreen },
);
