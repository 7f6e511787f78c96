import fc from "fast-check";
import type { Reply } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import { rule, SPEC } from "../rule.js";
import {
  advance,
  createKey,
  retryAfter,
  sendUnpaced,
  storePrefix,
  trackCreated as trackReply,
} from "../support/access.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  ok2xx,
  productBody,
  readProduct,
  trackCreated,
} from "../support/catalog.js";
import { okImage } from "../support/images.js";
import { dataOf, type Product } from "../../shapes.js";

// Spec, Limits: product writes with an image (10 a minute per credential) and the shared image
// downloads (a busy moment answers 429 with nothing written). What a download does is set through the
// control plane.

export const imageLimitRules: Rule[] = [
  rule({
    id: "limits.image-writes",
    area: "Limits",
    title:
      "The 11th product write with image_url of a credential within a minute answers 429 RATE_LIMITED and writes nothing; writes without an image do not count",
    spec: {
      section: SPEC.limits,
      quote: "Product write including image_url, per credential | 10 per minute; writes without an image do not count",
    },
    needs: { control: true, clock: true },
    cost: 70,
    leniency:
      "The kind of window is not assumed: Retry-After seconds after the 429 an image write is accepted again. Writes without an image are creates and updates of the rule's own products, placed among the image writes as generated.",
    async run(ctx) {
      // Where image-less writes fall among the ten image writes, and whether the 11th is a create or an update.
      const arb = fc.record({
        plainBefore: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { minLength: 1, maxLength: 3 }),
        over: fc.constantFrom("create", "update"),
      });
      await ctx.property(
        arb,
        async ({ plainBefore, over }) => {
          const key = await createKey(ctx, await storePrefix(ctx), ["catalog:write"]);
          const started = Date.now();
          const write = (method: string, path: string, body: unknown) =>
            sendUnpaced(ctx, method, `${ctx.run.target.baseUrl}${path}`, { token: key.token, body });
          const create = async (extra: Record<string, unknown>, what: string): Promise<Product | undefined> => {
            const reply = await write("POST", "/products", productBody(ctx, extra));
            trackCreated(ctx, "/products", reply);
            ctx.check(ok2xx(reply), `${what}: 200 or 201`, `status ${reply.status} ${reply.text.slice(0, 200)}`);
            return dataOf<Product>(reply);
          };
          let first: Product | undefined;
          const plain = async (what: string): Promise<void> => {
            if (first === undefined) {
              await create({}, `${what} (a create without image_url)`);
              return;
            }
            const reply = await write("PATCH", `/products/${first.id}`, { description: ctx.name("plain") });
            ctx.check(
              reply.status === 200,
              `${what} (an update without image_url): 200`,
              `status ${reply.status} ${reply.text.slice(0, 200)}`,
            );
          };
          for (let i = 1; i <= 10; i++) {
            if (plainBefore.includes(i)) await plain(`a write without an image before image write ${i}`);
            const made = await create({ image_url: await okImage(ctx) }, `image write ${i} of 10 within a minute`);
            first ??= made;
          }
          const url = await okImage(ctx);
          let refused: Reply;
          if (over === "create") {
            const body = productBody(ctx, { image_url: url });
            refused = await write("POST", "/products", body);
            trackCreated(ctx, "/products", refused);
            ctx.error(refused, 429, "RATE_LIMITED");
            await expectNoProduct(ctx, body.sku as string, "the refused 11th image write");
          } else {
            const product = ctx.defined(first, "the image writes answering the product in data", "none");
            const before = await readProduct(ctx, product.id);
            refused = await write("PATCH", `/products/${product.id}`, { name: ctx.name("renamed"), image_url: url });
            ctx.error(refused, 429, "RATE_LIMITED");
            await expectUnchanged(ctx, before, "the refused 11th image write");
          }
          if (Date.now() - started > 45_000)
            throw new Skip("the image writes took longer than 45 s of real time: the window may have turned");
          const wait = retryAfter(ctx, refused);
          await create({}, "a write without an image right after the 429");
          await advance(ctx, wait);
          await create({ image_url: await okImage(ctx) }, `an image write ${wait} s later (after Retry-After)`);
        },
        Math.min(ctx.run.runs, 2),
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
      trackReply(ctx, create, "/products");
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
];
