import fc from "fast-check";
import type { Reply, RuleContext } from "../context.js";
import { Skip } from "../outcomes.js";
import { rule, SPEC } from "./rule.js";
import { givenKeys } from "./support/given.js";
import {
  closure,
  createKey,
  grants,
  SCOPES,
  storePrefix,
  trackCreated,
  type Key,
  type Scope,
} from "./support/access.js";
import { bodyOf, dataOf, errorCode, type Identity, type Outlet, type Product, rowsOf, type Sale } from "../shapes.js";

// Spec, Authentication: Scopes. Keys with single scopes are made through the control plane, or without
// one taken from the keys given to the run (--key SCOPES=TOKEN); every probe is an otherwise valid
// request (existing ids, valid bodies, required headers), so the only failure it can meet is the
// missing scope: conformance never depends on the order of two failures.

interface Probe {
  readonly label: string;
  readonly scope: Scope;
  /** Deletes run only in the final sweep: on a server that wrongly allows them they destroy the rule's own data. */
  readonly destructive?: boolean;
  request(ctx: RuleContext): {
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
    creates?: string;
  };
}

interface Fixture {
  readonly outletId?: string;
  readonly productId?: string;
  readonly brandId?: string;
  readonly categoryId?: string;
  readonly tagId?: string;
  readonly saleId?: string;
  /** The rule's own product, customer and tag (made with the run's full credential). */
  readonly ownProduct?: { id: string; name: string };
  readonly ownCustomer?: string;
  readonly ownTag?: string;
  readonly customerCreates: boolean;
}

/** Ids the probes need: read from the store, and the rule's own records to write to. */
async function fixture(ctx: RuleContext, own: boolean): Promise<Fixture> {
  const outlets = await ctx.call("GET", "/outlets?limit=1");
  ctx.status(outlets, 200);
  const products = await ctx.call("GET", "/products?limit=50");
  ctx.status(products, 200);
  const rows = rowsOf<Product>(products) ?? [];
  const sales = await ctx.call("GET", "/sales?limit=1");
  ctx.status(sales, 200);
  const base = {
    outletId: rowsOf<Outlet>(outlets)?.[0]?.id,
    productId: rows[0]?.id,
    brandId: rows.find((p) => typeof p.brand_id === "string")?.brand_id ?? undefined,
    categoryId: rows.find((p) => typeof p.category_id === "string")?.category_id,
    tagId: rows.flatMap((p) => (Array.isArray(p.tags) ? p.tags : []))[0]?.id,
    saleId: rowsOf<Sale>(sales)?.[0]?.id,
  };
  if (!own) return { ...base, customerCreates: false };
  const name = ctx.name("scope-product");
  const product = await ctx.call("POST", "/products", {
    body: { name, retail_price: 1234, sku: name, has_inventory: true },
  });
  ctx.status(product, 200, 201);
  const productId = trackCreated(ctx, product, "/products") as string;
  const customer = await ctx.call("POST", "/customers", { body: { first_name: ctx.name("scope-customer") } });
  const ownCustomer = trackCreated(ctx, customer, "/customers");
  const tag = await ctx.call("POST", "/tags", { body: { name: ctx.name("scope-tag") } });
  const ownTag = trackCreated(ctx, tag, "/tags");
  return {
    ...base,
    ownProduct: { id: productId, name },
    ownCustomer,
    ownTag,
    customerCreates: ownCustomer !== undefined,
  };
}

/** Every operation of the endpoint table that needs a scope and that the fixture allows to call validly. GET /products first. */
function probes(f: Fixture): Probe[] {
  const list: (Probe | false | "" | undefined)[] = [
    { label: "GET /products", scope: "catalog:read", request: () => ({ method: "GET", path: "/products" }) },
    f.productId && {
      label: "GET /products/{id}",
      scope: "catalog:read",
      request: () => ({ method: "GET", path: `/products/${f.productId}` }),
    },
    f.productId && {
      label: "GET /products/{id}/inventory",
      scope: "inventory:read",
      request: () => ({ method: "GET", path: `/products/${f.productId}/inventory` }),
    },
    { label: "GET /sales", scope: "sales:read", request: () => ({ method: "GET", path: "/sales" }) },
    f.saleId && {
      label: "GET /sales/{id}",
      scope: "sales:read",
      request: () => ({ method: "GET", path: `/sales/${f.saleId}` }),
    },
    { label: "GET /customers", scope: "customers:read", request: () => ({ method: "GET", path: "/customers" }) },
    f.brandId && {
      label: "GET /brands/{id}",
      scope: "catalog:read",
      request: () => ({ method: "GET", path: `/brands/${f.brandId}` }),
    },
    f.categoryId && {
      label: "GET /categories/{id}",
      scope: "catalog:read",
      request: () => ({ method: "GET", path: `/categories/${f.categoryId}` }),
    },
    f.tagId && {
      label: "GET /tags/{id}",
      scope: "catalog:read",
      request: () => ({ method: "GET", path: `/tags/${f.tagId}` }),
    },
    f.ownProduct && {
      label: "POST /products",
      scope: "catalog:write",
      request: (ctx) => {
        const name = ctx.name("scope-denied");
        return {
          method: "POST",
          path: "/products",
          body: { name, retail_price: 100, sku: name },
          creates: "/products",
        };
      },
    },
    f.ownProduct && {
      label: "PATCH /products/{id}",
      scope: "catalog:write",
      request: () => ({ method: "PATCH", path: `/products/${f.ownProduct?.id}`, body: { name: f.ownProduct?.name } }),
    },
    f.ownProduct &&
      f.outletId && {
        label: "PUT /products/{id}/inventory/{outlet_id}",
        scope: "inventory:write",
        request: () => ({
          method: "PUT",
          path: `/products/${f.ownProduct?.id}/inventory/${f.outletId}`,
          body: { on_hand: 1 },
        }),
      },
    f.ownProduct &&
      f.outletId && {
        label: "POST /inventory/batch",
        scope: "inventory:write",
        request: (ctx) => ({
          method: "POST",
          path: "/inventory/batch",
          body: { lines: [{ product_id: f.ownProduct?.id, outlet_id: f.outletId, set: { on_hand: 2 } }] },
          headers: { "idempotency-key": ctx.name("scope-batch") },
        }),
      },
    f.ownTag && {
      label: "POST /tags",
      scope: "catalog:write",
      request: (ctx) => ({ method: "POST", path: "/tags", body: { name: ctx.name("scope-denied") }, creates: "/tags" }),
    },
    f.customerCreates && {
      label: "POST /customers",
      scope: "customers:write",
      request: (ctx) => ({
        method: "POST",
        path: "/customers",
        body: { first_name: ctx.name("scope-denied") },
        creates: "/customers",
      }),
    },
    f.ownTag && {
      label: "DELETE /tags/{id}",
      scope: "catalog:write",
      destructive: true,
      request: () => ({ method: "DELETE", path: `/tags/${f.ownTag}` }),
    },
    f.ownCustomer && {
      label: "DELETE /customers/{id}",
      scope: "customers:write",
      destructive: true,
      request: () => ({ method: "DELETE", path: `/customers/${f.ownCustomer}` }),
    },
    f.ownProduct && {
      label: "DELETE /products/{id}",
      scope: "catalog:write",
      destructive: true,
      request: () => ({ method: "DELETE", path: `/products/${f.ownProduct?.id}` }),
    },
  ];
  return list.filter((p): p is Probe => Boolean(p));
}

/** One key per single scope, and one with none (control plane). */
async function singleScopeKeys(ctx: RuleContext, prefix: string): Promise<Key[]> {
  const keys = [await createKey(ctx, prefix, [])];
  for (const scope of SCOPES) keys.push(await createKey(ctx, prefix, [scope]));
  return keys;
}

async function probeWith(ctx: RuleContext, probe: Probe, key: Key): Promise<Reply> {
  const { method, path, body, headers, creates } = probe.request(ctx);
  const reply = await ctx.call(method, path, { body, headers, token: key.token });
  if (creates) trackCreated(ctx, reply, creates);
  return reply;
}

/**
 * Refusals a given key may take in one rule: failed authentications (403s) count per address and
 * credential, 30 per 5 minutes (spec, Limits), and a lockout would answer 429 instead.
 */
const REFUSALS_PER_GIVEN_KEY = 20;

async function expectRefused(ctx: RuleContext, probe: Probe, key: Key, refusals?: Map<string, number>): Promise<void> {
  refusals?.set(key.token, (refusals.get(key.token) ?? 0) + 1);
  const reply = await probeWith(ctx, probe, key);
  const held = key.scopes.length === 0 ? "no scope" : key.scopes.join(" ");
  ctx.check(
    reply.status === 403 && errorCode(reply) === "INSUFFICIENT_SCOPE",
    `${probe.label} with a key of ${held} (it needs ${probe.scope}): 403 INSUFFICIENT_SCOPE`,
    `status ${reply.status} ${reply.text.slice(0, 160)}`,
  );
  ctx.envelope(reply);
}

const SCOPELESS = ["/me", "/store", "/outlets", "/payment-types", "/taxes"] as const;

export const scopeRules = [
  rule({
    id: "scopes.missing-scope",
    area: "Scopes",
    title: "A call without its scope answers 403 INSUFFICIENT_SCOPE (keys of single scopes, every scoped operation)",
    spec: { section: SPEC.scopes, quote: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." },
    needs: { control: true, orCredentials: ["key"] },
    cost: 45,
    leniency:
      "Without a control plane the keys given to --key stand in for the keys of single scopes: each operation is tried with a given key that lacks its scope, and an operation that every given key may call is not tried; a given key takes at most 20 refusals (the failed-authentication limit is 30 per 5 minutes).",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const keys = ctx.hasControl ? await singleScopeKeys(ctx, prefix) : givenKeys(ctx);
      // Without a control plane, a given key leaves the draw when it has taken its share of refusals.
      const refusals = ctx.hasControl ? undefined : new Map<string, number>();
      const lacking = (p: Probe) =>
        keys.filter((k) => !grants(k.scopes, p.scope) && (refusals?.get(k.token) ?? 0) < REFUSALS_PER_GIVEN_KEY);
      const tried = (list: Probe[]) => list.filter((p) => lacking(p).length > 0);
      const f = await fixture(ctx, true);
      const all = tried(probes(f));
      const safe = all.filter((p) => !p.destructive);
      if (safe.length === 0)
        throw new Skip(
          "every key given to --key may call every operation: a key that lacks a scope is needed, e.g. --key none=TOKEN",
          "--key none=TOKEN",
        );
      // A property over (operation, key without its scope); it shrinks to GET /products with the key of no scope.
      await ctx.property(
        fc.record({ p: fc.nat({ max: safe.length - 1 }), k: fc.nat({ max: 50 }) }),
        async ({ p, k }) => {
          const probe = safe[p] as Probe;
          const candidates = lacking(probe);
          if (candidates.length === 0) return;
          await expectRefused(ctx, probe, candidates[k % candidates.length] as Key, refusals);
        },
        Math.min(ctx.run.runs, 12),
      );
      // Then every operation once, deletes last, with the keys taken in turn (failed authentications
      // count per key: spreading them keeps every key far from the lockout).
      for (const [i, probe] of all.entries()) {
        const candidates = lacking(probe);
        if (candidates.length === 0) continue;
        await expectRefused(ctx, probe, candidates[i % candidates.length] as Key, refusals);
      }
    },
  }),
  rule({
    id: "scopes.write-satisfies-read",
    area: "Scopes",
    title: "A :write scope satisfies the matching :read; each read scope opens its reads",
    spec: { section: SPEC.scopes, quote: "A :write scope satisfies the matching :read." },
    needs: { control: true, orCredentials: ["key"] },
    cost: 27,
    leniency:
      "Without a control plane the keys given to --key are used, each for every read its scopes grant; at least one of them must hold a :write scope.",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const given = ctx.hasControl ? [] : givenKeys(ctx);
      if (!ctx.hasControl && !given.some((k) => k.scopes.some((s) => s.endsWith(":write")))) {
        throw new Skip(
          "needs a key with a :write scope: --key catalog:write=TOKEN (or inventory:write, customers:write), or the target's control plane (--control)",
          "--key catalog:write=TOKEN",
        );
      }
      const f = await fixture(ctx, false);
      const reads = probes(f).filter((p) => p.scope.endsWith(":read"));
      const readsWith = async (key: Key, held: readonly string[], label: string) => {
        for (const probe of reads.filter((p) => grants(held, p.scope))) {
          const reply = await probeWith(ctx, probe, key);
          ctx.check(
            reply.status === 200,
            `${probe.label} with a key of ${label} (it needs ${probe.scope}): 200`,
            `status ${reply.status} ${reply.text.slice(0, 160)}`,
          );
        }
      };
      if (!ctx.hasControl) {
        for (const key of given) await readsWith(key, key.scopes, key.scopes.join(" ") || "no scope");
        return;
      }
      for (const scope of SCOPES) await readsWith(await createKey(ctx, prefix, [scope]), [scope], scope);
    },
  }),
  rule({
    id: "scopes.scopeless-endpoints",
    area: "Scopes",
    title: "GET /me, /store, /outlets, /payment-types and /taxes work with a key of no scope",
    spec: {
      section: SPEC.scopes,
      quote: "GET /me, GET /store, GET /outlets, GET /payment-types, GET /taxes need no particular scope.",
    },
    needs: { control: true, orCredentials: ["key"] },
    cost: 8,
    leniency:
      "GET /inventory/adjustment-reasons (scope not shown) may answer 200 or 403 INSUFFICIENT_SCOPE to a key without inventory scopes.",
    choices: ['Scope of `GET /inventory/adjustment-reasons` ("not shown")'],
    async run(ctx) {
      const key = await createKey(ctx, await storePrefix(ctx), []);
      for (const path of SCOPELESS) {
        const reply = await ctx.call("GET", path, { token: key.token });
        ctx.check(
          reply.status === 200 && bodyOf(reply)?.data !== undefined,
          `GET ${path} with a key of no scope: 200 {data}`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
      const reasons = await ctx.call("GET", "/inventory/adjustment-reasons", { token: key.token });
      if (reasons.status === 403) ctx.error(reasons, 403, "INSUFFICIENT_SCOPE");
      else ctx.status(reasons, 200);
      ctx.choice(
        'Scope of `GET /inventory/adjustment-reasons` ("not shown")',
        reasons.status === 403 && errorCode(reasons) === "INSUFFICIENT_SCOPE",
        "GET /inventory/adjustment-reasons with a key of no scope: 403 INSUFFICIENT_SCOPE (it needs inventory:read)",
        `status ${reasons.status} ${reasons.text.slice(0, 160)}`,
      );
    },
  }),
  rule({
    id: "scopes.me-lists-scopes",
    area: "Scopes",
    title: "GET /me lists the key's scopes; a ticked write scope also lists its read scope",
    spec: { section: SPEC.auth, quote: "Ticking a write scope also ticks its read scope." },
    needs: { control: true, orCredentials: ["key"] },
    cost: 11,
    leniency:
      "The order of the scope names is not checked. Without a control plane each key given to --key is read: GET /me lists the scopes given with it, with the read scope of each write scope.",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const lists = async (key: Key, scopes: readonly string[]) => {
        const me = await ctx.call("GET", "/me", { token: key.token });
        ctx.status(me, 200);
        const identity = dataOf<Identity>(me);
        const listed = identity?.scopes;
        ctx.check(
          Array.isArray(listed) && JSON.stringify([...listed].sort()) === JSON.stringify(closure(scopes)),
          `scopes ${JSON.stringify(closure(scopes))} for a key made with ${JSON.stringify(scopes)}`,
          JSON.stringify(listed),
        );
        // A key given on the command line has no id known to the run.
        if (key.id !== "")
          ctx.check(identity?.key?.id === key.id, `key.id ${key.id}, the key's own id`, JSON.stringify(identity?.key));
      };
      if (!ctx.hasControl) {
        for (const k of ctx.run.credentials.keys) await lists({ id: "", token: k.token, scopes: k.scopes }, k.scopes);
        return;
      }
      await ctx.property(
        fc.subarray([...SCOPES]),
        async (scopes) => lists(await createKey(ctx, prefix, scopes), scopes),
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
];
