import type { RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import { rule, SPEC } from "../rule.js";
import { controlStores } from "../../shapes.js";
import { advance, controlOk, createKey, DAY_S, secret, storePrefix } from "../support/access.js";

// Spec, States (Credential) and Errors: a revoked key stops at once; a key idle for 90 days expires.

/**
 * Uses every fixture key the control plane lists (and the run's credential), so that a clock moved by
 * months does not expire credentials that other rules of the run still use.
 */
async function touchFixtureKeys(ctx: RuleContext): Promise<void> {
  ctx.status(await ctx.call("GET", "/me"), 200);
  const credentials = await controlOk(ctx, "GET", "/credentials");
  for (const store of controlStores(credentials)) {
    for (const key of store.keys ?? []) {
      // Keys that rules made (named rsconf-...) serve one rule only.
      if (typeof key.name === "string" && key.name.startsWith("rsconf-")) continue;
      if (key.state === undefined || key.state === "active")
        await ctx.send("GET", `${store.base_url}/me`, { token: typeof key.token === "string" ? key.token : undefined });
    }
  }
}

export const credentialRules = [
  rule({
    id: "auth.revoked-key",
    area: "Authentication",
    title: "A revoked key answers 401 UNAUTHORIZED at once",
    spec: {
      section: SPEC.states,
      quote:
        "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately",
    },
    needs: { control: true, orCredentials: ["revoked"] },
    cost: 5,
    leniency:
      "Without a control plane the key given to --revoked-token (revoked before the run) is checked to answer 401 UNAUTHORIZED; that it stops at once, on the next request after the revoke, needs the control plane, which revokes a key of the rule's own during the rule.",
    async run(ctx) {
      if (!ctx.hasControl) {
        const revoked = ctx.run.credentials.revoked;
        if (revoked === undefined)
          throw new Skip(
            "needs a revoked key of the store: --revoked-token TOKEN, or the target's control plane (--control)",
            "--revoked-token",
          );
        secret(ctx, revoked);
        ctx.error(await ctx.call("GET", "/me", { token: revoked }), 401, "UNAUTHORIZED");
        ctx.error(await ctx.call("GET", "/products?limit=1", { token: revoked }), 401, "UNAUTHORIZED");
        return;
      }
      const key = await createKey(ctx, await storePrefix(ctx), []);
      ctx.status(await ctx.call("GET", "/me", { token: key.token }), 200);
      await controlOk(ctx, "POST", `/keys/${encodeURIComponent(key.id)}/revoke`);
      ctx.error(await ctx.call("GET", "/me", { token: key.token }), 401, "UNAUTHORIZED");
    },
  }),
  rule({
    id: "auth.idle-expiry",
    area: "Authentication",
    title: "A key with no request for over 90 days answers 401 UNAUTHORIZED; one used within them still works",
    spec: {
      section: SPEC.states,
      quote:
        "active | no request for 90 days | a never-used key counts from its creation day | expired | next request answers UNAUTHORIZED; no warning is sent",
    },
    needs: { control: true, clock: true, destructive: true },
    cost: 25,
    leniency:
      "The idle key is tried 91 days and 1 second after its creation, so a server that counts idleness in whole days passes too.",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const idle = await createKey(ctx, prefix, []);
      const used = await createKey(ctx, prefix, []);
      // Two steps: the run's own credentials are used in between, so only the idle key passes 90 days.
      await advance(ctx, 60 * DAY_S);
      await touchFixtureKeys(ctx);
      ctx.status(await ctx.call("GET", "/me", { token: used.token }), 200);
      await advance(ctx, 31 * DAY_S + 1);
      // The idle key first: its expiry must leave the keys kept in use working.
      ctx.error(await ctx.call("GET", "/me", { token: idle.token }), 401, "UNAUTHORIZED");
      ctx.check(
        (await ctx.call("GET", "/me")).status === 200,
        "the run's credential, used 31 days ago, still works",
        "it was refused",
      );
      const recent = await ctx.call("GET", "/me", { token: used.token });
      ctx.check(
        recent.status === 200,
        "a key last used 31 days ago still works: 200",
        `status ${recent.status} ${recent.text.slice(0, 160)}`,
      );
    },
  }),
];
