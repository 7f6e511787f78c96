import type { RuleContext } from "../../context.js";
import { rule, SPEC } from "../rule.js";
import { advance, oauthError, retryAfter, sendUnpaced, WAITS_FOR } from "../support/access.js";
import { expectError } from "../support/catalog.js";
import { givenOAuthClient, INVALID_GRANT_STATUSES, oauthClient, token } from "../support/oauth.js";
import { errorCode, oauthCode } from "../../shapes.js";

// Spec, Limits: the failure limits per network address, of authentication (300 per 5 minutes, each
// attempt with another credential) and of the OAuth token endpoint (30 per 5 minutes). Both move the
// clock to open a window of their own and to close it after.

/** The control plane's client, or the one given to --oauth-client (no code is needed: only failures). */
const setup = async (ctx: RuleContext) => (ctx.hasControl ? oauthClient(ctx) : givenOAuthClient(ctx));

/** Waiting in real time: a window of its own, then one for the lockout to lift. */
const TWO_WINDOWS = { seconds: 602, for: WAITS_FOR.fiveMinutes };

export const addressLimitRules = [
  rule({
    id: "limits.failed-auth-address",
    area: "Limits",
    title:
      "After 300 failed authentications from one network address in 5 minutes (each with another credential), the next answers 429 RATE_LIMITED",
    spec: { section: SPEC.limits, quote: "Failed authentication, per network address | 300 per 5 minutes" },
    needs: { control: true, clock: true, waits: TWO_WINDOWS },
    cost: 310,
    leniency:
      "Each attempt uses a credential of its own, so the limit per address and credential (30) is never reached; the window is opened and closed by moving the clock.",
    async run(ctx) {
      ctx.status(await ctx.call("GET", "/me"), 200);
      // A window of its own: failures of earlier rules from this address end first, and the lockout is lifted after.
      await advance(ctx, 301);
      const url = `${ctx.run.target.baseUrl}/me`;
      try {
        for (let i = 1; i <= 300; i++) {
          const reply = await sendUnpaced(ctx, "GET", url, { token: ctx.name("made-up") });
          ctx.check(
            reply.status === 401 && errorCode(reply) === "UNAUTHORIZED",
            `failed attempt ${i} of 300: 401 UNAUTHORIZED`,
            `status ${reply.status} ${reply.text.slice(0, 160)}`,
          );
        }
        const over = await sendUnpaced(ctx, "GET", url, { token: ctx.name("made-up") });
        expectError(
          ctx,
          over,
          429,
          "RATE_LIMITED",
          undefined,
          "the 301st failed authentication from the address within 5 minutes",
        );
        retryAfter(ctx, over);
      } finally {
        await advance(ctx, 301);
      }
      ctx.error(await sendUnpaced(ctx, "GET", url, { token: ctx.name("made-up") }), 401, "UNAUTHORIZED");
    },
  }),
  rule({
    id: "limits.token-failures",
    area: "Limits",
    title: "After 30 token endpoint failures from one address in 5 minutes, the next answers invalid_request",
    spec: {
      section: SPEC.limits,
      quote:
        "Token endpoint failures, per network address | 30 per 5 minutes; answered in the OAuth shape with error value invalid_request",
    },
    needs: { control: true, clock: true, orCredentials: ["oauthClient"], waits: TWO_WINDOWS },
    cost: 35,
    leniency: "The refusal may be 400 or 429 (with Retry-After when 429).",
    async run(ctx) {
      const o = await setup(ctx);
      await advance(ctx, 301);
      const unknownCode = {
        grant_type: "authorization_code",
        code: ctx.name("no-such-code"),
        redirect_uri: o.redirectUri,
      };
      for (let i = 1; i <= 30; i++) {
        const reply = await token(ctx, o, unknownCode, "body", true);
        ctx.check(
          oauthCode(reply) === "invalid_grant",
          `failure ${i} of 30: invalid_grant`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
      const over = await token(ctx, o, unknownCode, "body", true);
      oauthError(ctx, over, "invalid_request", [400, 429]);
      if (over.status === 429) retryAfter(ctx, over);
      // Past the limit the address is refused whatever it sends, wrong client credentials included.
      const wrongClient = await token(
        ctx,
        { ...o, clientSecret: `${o.clientSecret}-wrong` },
        unknownCode,
        "body",
        true,
      );
      oauthError(ctx, wrongClient, "invalid_request", [400, 429]);
      await advance(ctx, 301);
      oauthError(ctx, await token(ctx, o, unknownCode, "body", true), "invalid_grant", INVALID_GRANT_STATUSES);
    },
  }),
];
