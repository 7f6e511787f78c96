import { Skip, type Reply, type RuleContext } from "../../context.js";
import { rule, SPEC } from "../rule.js";
import { advance, createKey, is2xx, retryAfter, sameJson, sendUnpaced, storePrefix, trackCreated } from "./support.js";

// Spec, Limits: the customer endpoints' own limit, and "A 500 is not remembered" (Idempotency).
// Both need the control plane: keys of their own for the limit (and its clock), a fault for the 500.

/** How long the probe may take in real time before a window could have turned on a live target. */
const REAL_TIME_BUDGET_MS = 45_000;

const replayed = (reply: Reply): boolean =>
  (reply.headers["idempotent-replayed"] ?? "").trim().toLowerCase() === "true";

async function bySku(ctx: RuleContext, sku: string): Promise<any[]> {
  const page = await ctx.call("GET", `/products?sku=${encodeURIComponent(sku)}`);
  ctx.status(page, 200);
  return Array.isArray(page.json?.data) ? page.json.data.filter((p: any) => p?.sku === sku) : [];
}

export const limitExtraRules = [
  rule({
    id: "limits.customers-429",
    area: "Limits",
    title:
      "The 31st customer request of a credential within a minute answers 429 RATE_LIMITED with Retry-After; other routes of that credential, and other credentials, still work",
    spec: {
      section: SPEC.limits,
      quote: "Customer endpoints, per credential | 30 per minute, additional to the general limit",
    },
    needs: { control: true, clock: true },
    cost: 38,
    leniency:
      "Counted on GET /customers?limit=1 with two keys of the rule's own; after Retry-After seconds the credential may list customers again; nothing is assumed about the kind of window.",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      // Two credentials (other scopes, so a run handed keys with --key gets two distinct ones), in windows of their own.
      const key = await createKey(ctx, prefix, ["customers:read"]);
      const other = await createKey(ctx, prefix, ["customers:write"]);
      await advance(ctx, 61);
      const customers = `${ctx.run.target.baseUrl}/customers?limit=1`;
      const me = `${ctx.run.target.baseUrl}/me`;
      const started = Date.now();
      for (let i = 1; i <= 30; i++) {
        const reply = await sendUnpaced(ctx, "GET", customers, { token: key.token });
        ctx.check(
          reply.status === 200,
          `customer request ${i} of 30 within a minute: 200`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
      const over = await sendUnpaced(ctx, "GET", customers, { token: key.token });
      if (Date.now() - started > REAL_TIME_BUDGET_MS)
        throw new Skip("31 requests took longer than 45 s of real time: the window may have turned");
      ctx.error(over, 429, "RATE_LIMITED");
      const wait = retryAfter(ctx, over);
      ctx.check(wait >= 1 && wait <= 60, "Retry-After between 1 and 60 seconds", String(wait));
      // Additional to the general limit: the credential's other routes are still within theirs.
      const elsewhere = await sendUnpaced(ctx, "GET", me, { token: key.token });
      ctx.check(
        elsewhere.status === 200,
        "GET /me with the same credential (not a customer endpoint): 200",
        `status ${elsewhere.status} ${elsewhere.text.slice(0, 160)}`,
      );
      // Per credential: another key's customer requests are counted apart.
      const apart = await sendUnpaced(ctx, "GET", customers, { token: other.token });
      ctx.check(
        apart.status === 200,
        "GET /customers with another credential of the store: 200 (the limit is per credential)",
        `status ${apart.status} ${apart.text.slice(0, 160)}`,
      );
      await advance(ctx, wait);
      const after = await sendUnpaced(ctx, "GET", customers, { token: key.token });
      ctx.check(
        after.status === 200,
        `customer requests accepted again after Retry-After (${wait} s)`,
        `status ${after.status} ${after.text.slice(0, 160)}`,
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
      const path = `${new URL(ctx.run.target.baseUrl).pathname.replace(/\/+$/, "")}/products`;
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
        ctx.check(retry.json?.data?.sku === sku, `the retry created the product ${sku}`, retry.text.slice(0, 160));
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
