import fc from "fast-check";
import { rule, SPEC } from "../rule.js";

// Spec, Authentication and Errors: a request without a credential, or with a malformed or unknown one,
// answers 401 UNAUTHORIZED.

export const bearerRules = [
  rule({
    id: "auth.missing-credential",
    area: "Authentication",
    title: "A request without a credential answers 401 UNAUTHORIZED",
    spec: {
      section: SPEC.errors,
      quote: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    },
    cost: 1,
    async run(ctx) {
      ctx.error(await ctx.call("GET", "/me", { token: null }), 401, "UNAUTHORIZED");
    },
  }),
  rule({
    id: "auth.malformed-or-unknown",
    area: "Authentication",
    title: "A malformed Authorization header or an unknown token answers 401 UNAUTHORIZED",
    spec: {
      section: SPEC.auth,
      quote:
        "Every request (except the OAuth token exchange) sends Authorization: Bearer <API_KEY> or Authorization: Bearer <ACCESS_TOKEN>.",
    },
    cost: 8,
    async run(ctx) {
      const headers = fc.oneof(
        fc.constant("Basic dXNlcjpwYXNz"),
        fc.constant("Bearer"),
        fc.stringMatching(/^[A-Za-z0-9]{20,40}$/).map((t) => `Bearer unknown${t}`),
        fc.stringMatching(/^[A-Za-z0-9]{8,20}$/),
      );
      await ctx.property(
        headers,
        async (authorization) => {
          ctx.error(await ctx.call("GET", "/me", { headers: { authorization } }), 401, "UNAUTHORIZED");
        },
        Math.min(ctx.run.runs, 8),
      );
    },
  }),
];
