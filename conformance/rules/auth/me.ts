import { rule, SPEC } from "../rule.js";
import { prefixOfBaseUrl, SCOPES } from "../support/access.js";
import { show } from "../support/catalog.js";
import { dataOf, isObject, type Json } from "../../shapes.js";

// Spec, Authentication: the Identity GET /me returns, whose domain_prefix is the store prefix.

export const meRules = [
  rule({
    id: "auth.me-identity",
    area: "Authentication",
    title:
      "GET /me returns the Identity: store_name, domain_prefix equal to the store prefix of the base URL, scope names of the Scopes table, key {id, name}",
    spec: { section: SPEC.auth, quote: "The store prefix is found with GET /me or from api_base_url." },
    cost: 1,
    leniency: "domain_prefix is compared with the base URL only when it ends in /{store_prefix}/v1.",
    async run(ctx) {
      const me = await ctx.call("GET", "/me");
      ctx.status(me, 200);
      const d = dataOf<Json>(me) ?? {};
      ctx.check(
        typeof d.store_name === "string" && d.store_name !== "",
        "store_name, a non-empty string",
        show(d.store_name),
      );
      let prefix: string | undefined;
      try {
        prefix = prefixOfBaseUrl(ctx);
      } catch {
        prefix = undefined;
      }
      ctx.check(
        typeof d.domain_prefix === "string" &&
          d.domain_prefix !== "" &&
          (prefix === undefined || d.domain_prefix === prefix),
        `domain_prefix, the store prefix${prefix ? ` ${prefix} of ${ctx.run.target.baseUrl}` : ""}`,
        show(d.domain_prefix),
      );
      // Spec, Scopes: the scope names are those of the table; no sales:write scope exists.
      const unknown = Array.isArray(d.scopes)
        ? (d.scopes as unknown[]).filter((s) => !(SCOPES as readonly unknown[]).includes(s))
        : ["(not an array)"];
      ctx.check(unknown.length === 0, `scopes, an array of the scope names ${SCOPES.join(", ")}`, show(d.scopes));
      ctx.check(
        isObject(d.key) && typeof d.key.id === "string" && d.key.id !== "" && typeof d.key.name === "string",
        "key {id, name}",
        show(d.key),
      );
    },
  }),
];
