import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import { advance, apiPath, is2xx, sameJson, trackCreated } from "../support/access.js";
import { bySku, createProduct, freshSku, productBody } from "../support/catalog.js";
import { outletIds } from "../support/inventory.js";
import { rule, SPEC } from "../rule.js";
import { dataOf, isObject, type Product, rowsOf } from "../../shapes.js";

// Spec, Limits: Idempotency, what is remembered: the routes where the key is optional, the 24-hour
// lapse of a record (States and transitions), and a 500, which is not remembered (made through the
// control plane's faults).

const replayed = (reply: Reply): boolean =>
  (reply.headers["idempotent-replayed"] ?? "").trim().toLowerCase() === "true";

/** Spec, Limits: Idempotency: the retry answers the same status and data with Idempotent-Replayed: true. */
function expectReplay(ctx: RuleContext, first: Reply, again: Reply, what: string): void {
  ctx.check(is2xx(first), `${what}: the first request succeeds`, `status ${first.status} ${first.text.slice(0, 200)}`);
  ctx.check(
    !replayed(first),
    `${what}: no Idempotent-Replayed: true on the first answer`,
    `Idempotent-Replayed: ${first.headers["idempotent-replayed"]}`,
  );
  ctx.check(
    again.status === first.status && sameJson(again.json, first.json),
    `${what}: the retry answers the same status ${first.status} and data ${first.text.slice(0, 200)}`,
    `status ${again.status} ${again.text.slice(0, 200)}`,
  );
  ctx.check(
    replayed(again),
    `${what}: Idempotent-Replayed: true on the retry`,
    `Idempotent-Replayed: ${again.headers["idempotent-replayed"] ?? "(absent)"}`,
  );
}

/** Sends the same request twice under one fresh key. */
async function twice(
  ctx: RuleContext,
  method: string,
  path: string,
  body: unknown,
  track?: string,
): Promise<[Reply, Reply]> {
  const headers = { "idempotency-key": ctx.name("optional-key") };
  const first = await ctx.call(method, path, { body, headers });
  const again = await ctx.call(method, path, { body, headers });
  if (track) for (const r of [first, again]) trackCreated(ctx, r, track);
  return [first, again];
}

export const recordRules: Rule[] = [
  rule({
    id: "idempotency.optional-routes",
    area: "Idempotency",
    title:
      "Where Idempotency-Key is optional (PUT stock, POST /customers, tag creates, variants) a retry with the same key and body replays the first answer",
    spec: {
      section: SPEC.idempotency,
      quote:
        "optional on PUT of stock, POST /products, POST /products/{id}/variants, POST /customers and create calls for brands, categories, tags, suppliers",
    },
    cost: 16,
    leniency: "A route whose path the spec does not show (tag creates) is left out when the target answers 404 or 405.",
    async run(ctx) {
      await ctx.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        async (q) => {
          const [outlet] = await outletIds(ctx);
          const product = await createProduct(ctx, {
            has_variants: true,
            variant_attributes: [{ name: "Size", position: 1 }],
          });
          const [set, setAgain] = await twice(ctx, "PUT", `/products/${product.id}/inventory/${outlet}`, {
            on_hand: q / 1000,
          });
          expectReplay(ctx, set, setAgain, "PUT /products/{id}/inventory/{outlet_id}");
          const [customer, customerAgain] = await twice(
            ctx,
            "POST",
            "/customers",
            { first_name: ctx.name("idem") },
            "/customers",
          );
          expectReplay(ctx, customer, customerAgain, "POST /customers");
          const [tag, tagAgain] = await twice(ctx, "POST", "/tags", { name: ctx.name("idem-tag") }, "/tags");
          if (tag.status !== 404 && tag.status !== 405) expectReplay(ctx, tag, tagAgain, "POST /tags");
          const attr = product.variant_attributes?.[0]?.id;
          const [variants, variantsAgain] = await twice(ctx, "POST", `/products/${product.id}/variants`, {
            variants: [{ options: [{ attribute_id: attr, value: ctx.name("v") }] }],
          });
          for (const r of [variants, variantsAgain])
            for (const c of rowsOf<unknown>(r) ?? [])
              if (isObject(c) && typeof c.id === "string") ctx.track(`/products/${c.id}`);
          expectReplay(ctx, variants, variantsAgain, "POST /products/{id}/variants");
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),

  rule({
    id: "idempotency.lapse-24h",
    area: "Idempotency",
    title:
      "An idempotency record is remembered 22 hours later and lapses after 24 hours: the key then makes a new request",
    spec: {
      section: SPEC.states,
      quote: "Idempotency record: in progress, then stored; stored records lapse after 24 hours (see Limits).",
    },
    needs: { control: true, clock: true },
    cost: 10,
    leniency: "The record is tried 22 hours, and 24 hours and 1 minute, after it was stored.",
    async run(ctx) {
      const sku = await freshSku(ctx);
      const key = ctx.name("lapse");
      const body = productBody(ctx, { sku });
      const first = await ctx.call("POST", "/products", { body, headers: { "idempotency-key": key } });
      trackCreated(ctx, first, "/products");
      await advance(ctx, 22 * 3600);
      const kept = await ctx.call("POST", "/products", { body, headers: { "idempotency-key": key } });
      expectReplay(ctx, first, kept, "the same key and body 22 hours later");
      await advance(ctx, 2 * 3600 + 60);
      const other = productBody(ctx, { sku: await freshSku(ctx) });
      const fresh = await ctx.call("POST", "/products", { body: other, headers: { "idempotency-key": key } });
      trackCreated(ctx, fresh, "/products");
      ctx.check(
        is2xx(fresh) && !replayed(fresh) && dataOf<Product>(fresh)?.sku === other.sku,
        `the key 24 hours and 1 minute later with another body: a new product ${other.sku}, not replayed nor 422`,
        `status ${fresh.status} ${fresh.text.slice(0, 200)}`,
      );
    },
  }),
  rule({
    id: "idempotency.error-500-not-remembered",
    area: "Idempotency",
    title:
      "A 500 is not remembered: after a create under a key answered 500, a retry with that key is processed, and the next one replays it",
    spec: { section: SPEC.idempotency, quote: "A 500 is not remembered." },
    needs: { control: true },
    cost: 7,
    leniency:
      "The 500 comes from a fault injected through the control plane (POST /_sim/faults, once, on POST /products); the retry may answer 200 or 201.",
    async run(ctx) {
      const sku = ctx.name("e500");
      const body = { name: sku, sku, retail_price: 5000 };
      const key = `${sku}.retry`;
      ctx.check((await bySku(ctx, sku)).length === 0, `no product with SKU ${sku} yet`, "one exists");
      const path = apiPath(ctx, "/products");
      const create = async (): Promise<Reply> => {
        const reply = await ctx.call("POST", "/products", { body, headers: { "idempotency-key": key } });
        trackCreated(ctx, reply, "/products");
        return reply;
      };
      try {
        const fault = await ctx.control("POST", "/faults", {
          method: "POST",
          path,
          status: 500,
          code: "INTERNAL",
          times: 1,
        });
        if (!is2xx(fault))
          throw new Skip(`the control plane does not inject faults (POST /_sim/faults answered ${fault.status})`);
        const failed = await create();
        if (failed.status !== 500)
          throw new Skip(`the injected fault on POST ${path} did not apply (status ${failed.status})`);
        const retry = await create();
        ctx.check(
          is2xx(retry),
          "the retry after the 500, same key and body: processed (200 or 201)",
          `status ${retry.status} ${retry.text.slice(0, 160)}`,
        );
        ctx.check(
          !replayed(retry),
          "the retry after the 500 is not a replay (no Idempotent-Replayed: true)",
          `Idempotent-Replayed: ${retry.headers["idempotent-replayed"]}`,
        );
        ctx.check(
          dataOf<Product>(retry)?.sku === sku,
          `the retry created the product ${sku}`,
          retry.text.slice(0, 160),
        );
        const third = await create();
        ctx.check(
          third.status === retry.status && sameJson(third.json, retry.json),
          `the next send replays the retry's ${retry.status} and data`,
          `status ${third.status} ${third.text.slice(0, 160)}`,
        );
        ctx.check(
          replayed(third),
          "Idempotent-Replayed: true on the next send",
          `Idempotent-Replayed: ${third.headers["idempotent-replayed"] ?? "(absent)"}`,
        );
        const found = await bySku(ctx, sku);
        ctx.check(found.length === 1, `exactly one product with SKU ${sku}`, `${found.length}`);
      } finally {
        await ctx.control("DELETE", "/faults");
      }
    },
  }),
];
