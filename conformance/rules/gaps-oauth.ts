import { Skip, type Reply, type RuleContext } from "../context.js";
import type { Rule } from "../types.js";
import { apiRoot, controlOk, oauthError, prefixOfBaseUrl, secret } from "./access/support.js";
import { rule, SPEC } from "./rule.js";

// Spec, States (Credential) and Authentication 8 for OAuth connections: a disconnected connection's
// tokens stop at once, and a wrong refresh token answers invalid_grant. Codes come from the control
// plane's headless consent (POST /_sim/oauth/authorize), as in access/oauth.ts.

interface Client {
  readonly apiRoot: string;
  readonly userId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

async function client(ctx: RuleContext): Promise<Client> {
  const credentials = await controlOk(ctx, "GET", "/credentials");
  const prefix = prefixOfBaseUrl(ctx);
  const user = (credentials?.users ?? []).find((u: any) => u.store_prefix === prefix && u.role === "admin" && (u.plan === undefined || u.plan === "growth"));
  const found = (credentials?.oauth_clients ?? []).find((c: any) => Array.isArray(c.redirect_uris) && c.redirect_uris.length > 0);
  if (!user || !found) throw new Skip(`the control plane lists no admin user of store ${prefix} on growth, or no OAuth client`);
  secret(ctx, found.client_secret);
  return { apiRoot: apiRoot(ctx), userId: user.id, clientId: found.client_id, clientSecret: found.client_secret, redirectUri: found.redirect_uris[0] };
}

/** POST {api_root}/oauth/token with a form body, the client's credentials in it. */
async function token(ctx: RuleContext, c: Client, fields: Record<string, string>): Promise<Reply> {
  const form = new URLSearchParams({ ...fields, client_id: c.clientId, client_secret: c.clientSecret });
  const reply = await ctx.send("POST", `${c.apiRoot}/oauth/token`, { raw: form.toString(), contentType: "application/x-www-form-urlencoded", token: null });
  secret(ctx, reply.json?.access_token, reply.json?.refresh_token);
  return reply;
}

/** Tokens of a new connection (the merchant allows catalog:read, headless). */
async function connect(ctx: RuleContext, c: Client): Promise<{ access: string; refresh: string }> {
  const state = ctx.name("state");
  const answer = await controlOk(ctx, "POST", "/oauth/authorize", { user_id: c.userId, client_id: c.clientId, redirect_uri: c.redirectUri, scope: "catalog:read", state, decision: "allow" });
  const code = new URL(answer.redirect_to).searchParams.get("code");
  secret(ctx, code);
  ctx.check(typeof code === "string", "a redirect with a code", "none");
  const reply = await token(ctx, c, { grant_type: "authorization_code", code: code as string, redirect_uri: c.redirectUri });
  ctx.check(reply.status === 200 && typeof reply.json?.access_token === "string" && typeof reply.json?.refresh_token === "string", "the code exchanged for an access_token and a refresh_token", `status ${reply.status} ${reply.text.slice(0, 160)}`);
  return { access: reply.json.access_token, refresh: reply.json.refresh_token };
}

const INVALID_GRANT_STATUSES = [400, 401];

export const oauthGapRules: Rule[] = [
  rule({
    id: "oauth.disconnect-stops",
    area: "OAuth",
    title: "A disconnected connection stops at once: its access token answers 401 UNAUTHORIZED and its refresh token invalid_grant; a made-up refresh token answers invalid_grant",
    spec: { section: SPEC.states, quote: "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately" },
    needs: { control: true },
    cost: 10,
    leniency: "invalid_grant with status 400 (RFC 6749 5.2) or 401. The connection is disconnected through the control plane (POST /_sim/connections/{id}/disconnect), its id read from GET /me (key.id).",
    async run(ctx) {
      ctx.status(await ctx.call("GET", "/me"), 200);
      const c = await client(ctx);
      // Spec, Authentication 8: "A wrong, expired or used code or token answers invalid_grant."
      oauthError(ctx, await token(ctx, c, { grant_type: "refresh_token", refresh_token: ctx.name("no-such-refresh-token") }), "invalid_grant", INVALID_GRANT_STATUSES);
      const { access, refresh } = await connect(ctx, c);
      const me = await ctx.call("GET", "/me", { token: access });
      ctx.status(me, 200);
      const connection = me.json?.data?.key?.id;
      if (typeof connection !== "string" || connection === "") throw new Skip("GET /me with the access token names no key id for the connection");
      const done = await ctx.control("POST", `/connections/${encodeURIComponent(connection)}/disconnect`);
      if (done.status === 404) throw new Skip("the control plane cannot disconnect a connection");
      ctx.check(done.status === 200 || done.status === 204, "the control plane disconnects the connection", `status ${done.status} ${done.text.slice(0, 160)}`);
      ctx.error(await ctx.call("GET", "/me", { token: access }), 401, "UNAUTHORIZED");
      oauthError(ctx, await token(ctx, c, { grant_type: "refresh_token", refresh_token: refresh }), "invalid_grant", INVALID_GRANT_STATUSES);
    },
  }),
];
