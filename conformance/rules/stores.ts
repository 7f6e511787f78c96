import type { Reply, RuleContext } from "../context.js";
import { Skip } from "../outcomes.js";
import { rule, SPEC } from "./rule.js";
import { givenStore, otherStoreGiven } from "./support/given.js";
import { createKey, secret, storePrefix } from "./support/access.js";
import { controlStores, errorCode } from "../shapes.js";

// Spec, Errors: store states and credentials of other stores. The states are set on this store
// through the control plane (and put back); without one, keys of other stores given on the command
// line (--lite-token, --other-store-token) show what they can.

const STORE_STATES = [
  { patch: { status: "paused" }, status: 402, code: "RETAILER_PAUSED" },
  { patch: { status: "trial_decision_required" }, status: 402, code: "TRIAL_DECISION_REQUIRED" },
  // docs/spec-choices.md (Authentication and store states) adds it: skipped when the control plane refuses it.
  { patch: { status: "plan_users_exceeded" }, status: 402, code: "PLAN_USERS_EXCEEDED", optional: true },
  { patch: { status: "cancelled" }, status: 403, code: "RETAILER_CANCELLED" },
  { patch: { status: "suspended" }, status: 403, code: "RETAILER_SUSPENDED" },
  { patch: { status: "not_found" }, status: 403, code: "RETAILER_NOT_FOUND" },
  { patch: { plan: "lite" }, status: 402, code: "PLAN_REQUIRED" },
] as const;

/** Another store with a key, from the control plane's credentials list. */
async function listedOtherStore(
  ctx: RuleContext,
  prefix: string,
): Promise<{ prefix: string; baseUrl: string; token: string }> {
  const credentials = await ctx.control("GET", "/credentials");
  const other = controlStores(credentials.json).find(
    (s) => s.prefix !== prefix && Array.isArray(s.keys) && s.keys.length > 0,
  );
  if (!other) throw new Skip("the control plane lists no other store with a key");
  const token = String(other.keys?.[0]?.token);
  secret(ctx, token);
  return { prefix: String(other.prefix), baseUrl: String(other.base_url), token };
}

export const storeRules = [
  rule({
    id: "stores.status-codes",
    area: "Store states",
    title: "Each store status and a plan without API access refuse every call with their 402 or 403 code",
    spec: {
      section: SPEC.errors,
      quote: "RETAILER_CANCELLED, RETAILER_SUSPENDED, RETAILER_NOT_FOUND | 403 | store status blocks API calls",
    },
    needs: { control: true, destructive: true, orCredentials: ["lite"] },
    cost: 25,
    leniency:
      "Without a control plane only a plan without API access is checked, with the key of a Lite store given to --lite-token PREFIX=TOKEN (under that store's prefix); the store statuses need the control plane, which sets them on this store and puts it back.",
    async run(ctx) {
      if (!ctx.hasControl) {
        const lite = givenStore(ctx, ctx.run.credentials.lite, "--lite-token", "a key of a store on the Lite plan");
        for (const path of ["/me", "/products"]) {
          const reply = await ctx.send("GET", `${lite.baseUrl}${path}`, { token: lite.token });
          ctx.check(
            reply.status === 402 && errorCode(reply) === "PLAN_REQUIRED",
            `GET ${path} of the Lite store ${lite.prefix} with its key: 402 PLAN_REQUIRED`,
            `status ${reply.status} ${reply.text.slice(0, 160)}`,
          );
          ctx.envelope(reply);
        }
        return;
      }
      const prefix = await storePrefix(ctx);
      const key = await createKey(ctx, prefix, ["catalog:read"]);
      const store = `/stores/${encodeURIComponent(prefix)}`;
      try {
        for (const state of STORE_STATES) {
          const patched = await ctx.control("PATCH", store, { status: "active", plan: "growth", ...state.patch });
          if (patched.status !== 200) {
            if ("optional" in state) continue;
            throw new Error(
              `the control plane did not set ${JSON.stringify(state.patch)}: status ${patched.status} ${patched.text.slice(0, 200)}`,
            );
          }
          for (const path of ["/me", "/products"]) {
            const reply = await ctx.call("GET", path, { token: key.token });
            ctx.check(
              reply.status === state.status && errorCode(reply) === state.code,
              `GET ${path} of a store with ${JSON.stringify(state.patch)}: ${state.status} ${state.code}`,
              `status ${reply.status} ${reply.text.slice(0, 160)}`,
            );
            ctx.envelope(reply);
          }
        }
      } finally {
        const restored = await ctx.control("PATCH", store, { status: "active", plan: "growth" });
        if (restored.status !== 200)
          throw new Error(`could not restore the store ${prefix} to active on growth: status ${restored.status}`);
      }
      ctx.status(await ctx.call("GET", "/me", { token: key.token }), 200);
    },
  }),
  rule({
    id: "stores.foreign-credential",
    area: "Store states",
    title: "A credential of another store is refused under this store's prefix, and this store's under another's",
    spec: {
      section: SPEC.errors,
      quote: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days",
    },
    needs: { control: true, orCredentials: ["otherStore"] },
    cost: 4,
    leniency:
      "401, 403 or 404 (docs/spec-choices.md: a credential used under another store's prefix). Without a control plane the other store's key is the one given to --other-store-token PREFIX=TOKEN, first seen to work under its own prefix.",
    choices: ["A credential used under another store's prefix"],
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const other = ctx.hasControl ? await listedOtherStore(ctx, prefix) : await otherStoreGiven(ctx);
      const refused = (reply: Reply, what: string) => {
        ctx.check(
          [401, 403, 404].includes(reply.status),
          `${what}: 401, 403 or 404`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
        ctx.envelope(reply);
        ctx.choice(
          "A credential used under another store's prefix",
          reply.status === 401 && errorCode(reply) === "UNAUTHORIZED",
          `${what}: 401 UNAUTHORIZED`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      };
      refused(
        await ctx.call("GET", "/me", { token: other.token }),
        `GET /me under ${prefix} with a key of store ${other.prefix}`,
      );
      refused(await ctx.send("GET", `${other.baseUrl}/me`), `GET /me under ${other.prefix} with a key of ${prefix}`);
    },
  }),
];
