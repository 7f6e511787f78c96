import fc from "fast-check";
import { Skip, type Reply, type RuleContext } from "../context.js";
import type { Rule } from "../types.js";
import {
  advance,
  is2xx,
  prefixOfBaseUrl,
  retryAfter,
  sameJson,
  SCOPES,
  sendUnpaced,
  trackCreated,
} from "./access/support.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  productBody,
  readProduct,
  show,
} from "./catalog-support.js";
import { outletIds } from "./inventory-support.js";
import { rule, SPEC } from "./rule.js";

// Access sentences no other rule checked: idempotency on the routes where the key is optional and the
// 24-hour lapse of its records, a busy image download, the failed-authentication limit per network
// address, the Identity of GET /me, and JSON request bodies.

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

/** Ways a body is not JSON: a JSON object cut short (never valid JSON), one with more text after it, or a form. */
type Malformed = { kind: "cut"; at: number } | { kind: "tail"; tail: string } | { kind: "form" };
const malformed: fc.Arbitrary<Malformed> = fc.oneof(
  fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((at) => ({ kind: "cut" as const, at })),
  fc.constantFrom("}", ",", " x", "{}").map((tail) => ({ kind: "tail" as const, tail })),
  fc.constant({ kind: "form" as const }),
);

function malform(body: Record<string, string | number>, m: Malformed): { raw: string; contentType: string } {
  const text = JSON.stringify(body);
  if (m.kind === "cut")
    return { raw: text.slice(0, Math.max(1, Math.floor(text.length * m.at))), contentType: "application/json" };
  if (m.kind === "tail") return { raw: `${text}${m.tail}`, contentType: "application/json" };
  return {
    raw: new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    contentType: "application/x-www-form-urlencoded",
  };
}

export const accessGapRules: Rule[] = [
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
            if (Array.isArray(r.json?.data))
              for (const c of r.json.data) if (typeof c?.id === "string") ctx.track(`/products/${c.id}`);
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
        is2xx(fresh) && !replayed(fresh) && fresh.json?.data?.sku === other.sku,
        `the key 24 hours and 1 minute later with another body: a new product ${other.sku}, not replayed nor 422`,
        `status ${fresh.status} ${fresh.text.slice(0, 200)}`,
      );
    },
  }),

  rule({
    id: "limits.image-busy",
    area: "Limits",
    title:
      "A product write whose image download finds no free slot answers 429 RATE_LIMITED with Retry-After and writes nothing",
    spec: {
      section: SPEC.limits,
      quote:
        "Concurrent image downloads | shared across the API; a busy moment answers 429 RATE_LIMITED with nothing written",
    },
    needs: { control: true },
    cost: 12,
    leniency: "A busy download is made on demand through the control plane (POST /_sim/images {url, outcome: busy}).",
    async run(ctx) {
      const sku = await freshSku(ctx);
      const url = `https://example.invalid/${ctx.name("busy")}.png`;
      const made = await ctx.control("POST", "/images", { url, outcome: "busy" });
      if (made.status !== 200 && made.status !== 201)
        throw new Skip(`the control plane cannot make an image download busy (status ${made.status})`);
      const create = await ctx.call("POST", "/products", { body: productBody(ctx, { sku, image_url: url }) });
      trackCreated(ctx, create, "/products");
      expectError(ctx, create, 429, "RATE_LIMITED", undefined, "POST /products with an image while downloads are busy");
      retryAfter(ctx, create);
      await expectNoProduct(ctx, sku, "a create refused with 429");
      const p = await createProduct(ctx);
      const before = await readProduct(ctx, p.id);
      const update = await ctx.call("PATCH", `/products/${p.id}`, {
        body: { name: ctx.name("busy-update"), image_url: url },
      });
      expectError(
        ctx,
        update,
        429,
        "RATE_LIMITED",
        undefined,
        "PATCH /products/{id} with an image while downloads are busy",
      );
      await expectUnchanged(ctx, before, "an update refused with 429");
    },
  }),

  rule({
    id: "limits.failed-auth-address",
    area: "Limits",
    title:
      "After 300 failed authentications from one network address in 5 minutes (each with another credential), the next answers 429 RATE_LIMITED",
    spec: { section: SPEC.limits, quote: "Failed authentication, per network address | 300 per 5 minutes" },
    needs: { control: true, clock: true },
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
            reply.status === 401 && reply.json?.error?.code === "UNAUTHORIZED",
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
        const wait = retryAfter(ctx, over);
        ctx.check(wait >= 1 && wait <= 300, "Retry-After between 1 and 300 seconds", String(wait));
      } finally {
        await advance(ctx, 301);
      }
      ctx.error(await sendUnpaced(ctx, "GET", url, { token: ctx.name("made-up") }), 401, "UNAUTHORIZED");
    },
  }),

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
      const d = me.json?.data ?? {};
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
        typeof d.key === "object" &&
          d.key !== null &&
          typeof d.key.id === "string" &&
          d.key.id !== "" &&
          typeof d.key.name === "string",
        "key {id, name}",
        show(d.key),
      );
    },
  }),

  rule({
    id: "envelope.json-body",
    area: "Envelope",
    title:
      "A write whose body is not JSON (cut short, with more after it, or a form) answers 400 VALIDATION_FAILED and writes nothing",
    spec: { section: SPEC.what, quote: "All requests and responses are JSON." },
    cost: 24,
    async run(ctx) {
      const p = await createProduct(ctx, { sku: await freshSku(ctx) });
      await ctx.property(
        fc.record({ op: fc.constantFrom("create", "update"), m: malformed }),
        async ({ op, m }) => {
          const sku = await freshSku(ctx);
          const { raw, contentType } = malform(
            op === "create" ? { name: ctx.name("not-json"), retail_price: 100, sku } : { name: ctx.name("not-json") },
            m,
          );
          if (op === "create") {
            const reply = await ctx.call("POST", "/products", { raw, contentType });
            trackCreated(ctx, reply, "/products");
            expectError(
              ctx,
              reply,
              400,
              "VALIDATION_FAILED",
              undefined,
              `POST /products with the body ${show(raw, 120)} (${contentType})`,
            );
            await expectNoProduct(ctx, sku, "a create whose body is not JSON");
          } else {
            const before = await readProduct(ctx, p.id);
            const reply = await ctx.call("PATCH", `/products/${p.id}`, { raw, contentType });
            expectError(
              ctx,
              reply,
              400,
              "VALIDATION_FAILED",
              undefined,
              `PATCH /products/{id} with the body ${show(raw, 120)} (${contentType})`,
            );
            await expectUnchanged(ctx, before, "an update whose body is not JSON");
          }
        },
        Math.min(ctx.run.runs, 6),
      );
    },
  }),
];
