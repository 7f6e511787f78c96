import type { Reply, RuleContext } from "../context.js";
import { Skip } from "../outcomes.js";
import type { Rule } from "../rule.js";
import { otherStoreGiven } from "./support/given.js";
import { storePrefix } from "./support/access.js";
import { canonical, isUuid, ok2xx, show } from "./support/catalog.js";
import { rule, SPEC } from "./rule.js";
import {
  bodyOf,
  idOf,
  type Product,
  rowsOf,
  type ControlKey,
  type ControlStore,
  controlStores,
  errorCode,
} from "../shapes.js";

// Tenant isolation (spec, Errors: NOT_FOUND for another store's ids; Delete rules: deleting a foreign
// id answers 404). The rule writes rows of its own in a second store with that store's key, then
// reads, updates and deletes them through this store, and deletes them itself at the end (the run's
// cleanup only knows this store).

export interface OtherStore {
  readonly prefix: string;
  readonly baseUrl: string;
  readonly token: string;
}

/**
 * A full key of another store that can use the API: from the control plane's credentials list, or
 * without one the key given to --other-store-token PREFIX=TOKEN (skips without either).
 */
export async function otherStoreKey(ctx: RuleContext): Promise<OtherStore> {
  if (!ctx.hasControl) return otherStoreGiven(ctx);
  const ours = await storePrefix(ctx);
  const reply = await ctx.control("GET", "/credentials");
  if (reply.status !== 200)
    throw new Error(`control GET /credentials answered ${reply.status} ${reply.text.slice(0, 200)}`);
  const usable = (s: ControlStore) =>
    s?.prefix !== ours &&
    typeof s?.base_url === "string" &&
    (s.plan === undefined || s.plan === "growth") &&
    (s.status === undefined || s.status === "active");
  const full = (k: ControlKey) =>
    typeof k?.token === "string" &&
    k.token !== "" &&
    (k.state === undefined || k.state === "active") &&
    ["catalog:write", "customers:write"].every((s) => (k.scopes ?? []).includes(s));
  for (const store of controlStores(reply.json)) {
    if (!usable(store)) continue;
    const keys = (store.keys ?? []).filter(full).sort((a, b) => Number(b.name === "full") - Number(a.name === "full"));
    if (keys[0])
      return {
        prefix: String(store.prefix),
        baseUrl: String(store.base_url).replace(/\/$/, ""),
        token: String(keys[0].token),
      };
  }
  throw new Skip("the control plane lists no other active store with a key of catalog:write and customers:write");
}

type Kind = "products" | "brands" | "customers";

interface Foreign {
  readonly kind: Kind;
  readonly id: string;
  /** The row as its own store reads it before the rule tries it from here (undefined: no read path). */
  readonly before?: unknown;
}

/** Spec paths of each kind; those the spec does not show may answer 405 where the target has no such route. */
const SHOWN: Record<Kind, readonly string[]> = {
  products: ["GET", "PATCH", "DELETE"],
  brands: ["GET", "DELETE"],
  customers: ["DELETE"],
};

export const isolationRules: Rule[] = [
  rule({
    id: "isolation.foreign-ids",
    area: "Isolation",
    title:
      "Another store's product, brand and customer ids answer 404 NOT_FOUND to a read, an update and a delete here, and nothing changes",
    spec: {
      section: SPEC.errors,
      quote: "NOT_FOUND | 404 | missing, deleted, other store's, non-UUID id, or unknown path",
    },
    needs: { control: true, orCredentials: ["otherStore"] },
    cost: 30,
    leniency:
      "Paths the spec does not show (PATCH /brands/{id}, GET and PATCH /customers/{id}) may also answer 405 here. A kind the other store will not create with the natural body ({name}, {first_name}) is left out. The row is compared before and after only where its own store can read it by id. Without a control plane the other store's key is the one given to --other-store-token PREFIX=TOKEN.",
    async run(ctx) {
      const other = await otherStoreKey(ctx);
      const there = (method: string, path: string, body?: unknown) =>
        ctx.send(method, `${other.baseUrl}${path}`, { token: other.token, body });
      const made: Foreign[] = [];
      try {
        const sku = ctx.name("sku");
        const bodies: Record<Kind, Record<string, unknown>> = {
          products: { name: ctx.name("product"), sku, retail_price: 1250 },
          brands: { name: ctx.name("brand") },
          customers: { first_name: ctx.name("first") },
        };
        for (const kind of ["products", "brands", "customers"] as const) {
          const reply = await there("POST", `/${kind}`, bodies[kind]);
          const id = idOf(reply);
          if (!ok2xx(reply) || !isUuid(id)) {
            if (kind === "products")
              throw new Skip(
                `the other store ${other.prefix} did not create a product: status ${reply.status} ${reply.text.slice(0, 160)}`,
              );
            continue;
          }
          const read = await there("GET", `/${kind}/${id}`);
          made.push({ kind, id, before: read.status === 200 ? bodyOf(read)?.data : undefined });
        }
        for (const { kind, id } of made) {
          const notFound = (reply: Reply, method: string) => {
            const what = `${method} /${kind}/{id of store ${other.prefix}} under this store`;
            const allowed = SHOWN[kind].includes(method) ? [404] : [404, 405];
            ctx.check(
              allowed.includes(reply.status) && (reply.status !== 404 || errorCode(reply) === "NOT_FOUND"),
              `${what}: 404 NOT_FOUND`,
              `status ${reply.status} ${reply.text.slice(0, 200)}`,
            );
            ctx.envelope(reply);
          };
          notFound(await ctx.call("GET", `/${kind}/${id}`), "GET");
          const rename = kind === "customers" ? { first_name: ctx.name("hijack") } : { name: ctx.name("hijack") };
          notFound(await ctx.call("PATCH", `/${kind}/${id}`, { body: rename }), "PATCH");
          notFound(await ctx.call("DELETE", `/${kind}/${id}`), "DELETE");
        }
        const lookup = await ctx.call("GET", `/products?sku=${encodeURIComponent(sku)}`);
        ctx.status(lookup, 200);
        const found = (rowsOf<Product>(lookup) ?? []).map((p) => p?.id);
        ctx.check(
          found.length === 0,
          `GET /products?sku= with the SKU of store ${other.prefix}'s product: no row`,
          show(found),
        );
        for (const { kind, id, before } of made) {
          if (before === undefined) continue;
          const after = await there("GET", `/${kind}/${id}`);
          ctx.check(
            after.status === 200 && canonical(bodyOf(after)?.data) === canonical(before),
            `GET /${kind}/${id} in store ${other.prefix}: unchanged by the requests made here`,
            `status ${after.status} ${after.text.slice(0, 200)}`,
          );
        }
      } finally {
        // Newest first; a customer delete also erases the personal details the rule wrote.
        for (const { kind, id } of [...made].reverse()) await there("DELETE", `/${kind}/${id}`).catch(() => undefined);
      }
    },
  }),
];
