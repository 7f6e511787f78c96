import type { RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import {
  consent,
  exchange,
  INVALID_GRANT_STATUSES,
  oauthClient,
  refreshGrant,
  type OAuthClient,
} from "../support/oauth.js";
import { oauthError } from "../support/access.js";
import { rule, SPEC } from "../rule.js";
import { accessTokenOf, dataOf, type Identity, refreshTokenOf } from "../../shapes.js";

// Spec, States (Credential) and Authentication 8 for OAuth connections: a disconnected connection's
// tokens stop at once, and a wrong refresh token answers invalid_grant. Codes come from the control
// plane's headless consent (POST /_sim/oauth/authorize), through ../support/oauth.ts.

/** Tokens of a new connection (the merchant allows catalog:read, headless). */
async function connect(ctx: RuleContext, c: OAuthClient): Promise<{ access: string; refresh: string }> {
  const { code } = await consent(ctx, c);
  ctx.check(typeof code === "string", "a redirect with a code", "none");
  const reply = await exchange(ctx, c, code as string);
  const access = accessTokenOf(reply);
  const refresh = refreshTokenOf(reply);
  if (reply.status !== 200 || access === undefined || refresh === undefined)
    throw new Mismatch(
      "the code exchanged for an access_token and a refresh_token",
      `status ${reply.status} ${reply.text.slice(0, 160)}`,
    );
  return { access, refresh };
}

export const disconnectRules: Rule[] = [
  rule({
    id: "oauth.disconnect-stops",
    area: "OAuth",
    title:
      "A disconnected connection stops at once: its access token answers 401 UNAUTHORIZED and its refresh token invalid_grant; a made-up refresh token answers invalid_grant",
    spec: {
      section: SPEC.states,
      quote:
        "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately",
    },
    needs: { control: true },
    cost: 10,
    leniency:
      "invalid_grant with status 400 (RFC 6749 5.2) or 401. The connection is disconnected through the control plane (POST /_sim/connections/{id}/disconnect), its id read from GET /me (key.id).",
    async run(ctx) {
      ctx.status(await ctx.call("GET", "/me"), 200);
      const c = await oauthClient(ctx);
      // Spec, Authentication 8: "A wrong, expired or used code or token answers invalid_grant."
      oauthError(
        ctx,
        await refreshGrant(ctx, c, ctx.name("no-such-refresh-token")),
        "invalid_grant",
        INVALID_GRANT_STATUSES,
      );
      const { access, refresh } = await connect(ctx, c);
      const me = await ctx.call("GET", "/me", { token: access });
      ctx.status(me, 200);
      const connection: unknown = dataOf<Identity>(me)?.key?.id;
      if (typeof connection !== "string" || connection === "")
        throw new Skip("GET /me with the access token names no key id for the connection");
      const done = await ctx.control("POST", `/connections/${encodeURIComponent(connection)}/disconnect`);
      if (done.status === 404) throw new Skip("the control plane cannot disconnect a connection");
      ctx.check(
        done.status === 200 || done.status === 204,
        "the control plane disconnects the connection",
        `status ${done.status} ${done.text.slice(0, 160)}`,
      );
      ctx.error(await ctx.call("GET", "/me", { token: access }), 401, "UNAUTHORIZED");
      oauthError(ctx, await refreshGrant(ctx, c, refresh), "invalid_grant", INVALID_GRANT_STATUSES);
    },
  }),
];
