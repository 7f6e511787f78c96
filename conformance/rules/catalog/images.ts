import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import {
  bySku,
  created,
  expectNoProduct,
  freshSku,
  isUuid,
  patchProduct,
  productBody,
  readProduct,
  sameId,
  show,
  trackCreated,
} from "../support/catalog.js";
import { expectProductShape } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { imageAddress, okImage, setImage } from "../support/images.js";
import { dataOf, errorCode, type Product } from "../../shapes.js";

// Product images (spec, Product write rules 7). What a download does is set through the control
// plane (POST {control}/images {url, outcome}, ../support/images.ts); without one, only a download
// that cannot succeed is tried: an https address on a reserved `.invalid` host (RFC 6761), which no
// resolver answers.

/** A product of ours with an image imported from an address of ours. */
async function productWithImage(ctx: RuleContext): Promise<{ product: Product; url: string }> {
  const sku = await freshSku(ctx);
  const url = await okImage(ctx);
  const body = productBody(ctx, { sku, image_url: url });
  const product = created<Product>(
    ctx,
    "/products",
    await ctx.call("POST", "/products", { body }),
    `POST /products ${show(body, 200)}`,
  );
  return { product, url };
}

/** Products with this SKU, tracked for the cleanup (a write saved whose answer carried no id). */
async function trackBySku(ctx: RuleContext, sku: string): Promise<void> {
  for (const p of await bySku(ctx, sku)) if (isUuid(p.id)) ctx.track(`/products/${p.id}`);
}

/** A 422 IMAGE_FETCH_FAILED that carries the saved product: the error envelope and the product document under data. */
function expectFetchFailed(ctx: RuleContext, reply: Reply, what: string): Product {
  const data = dataOf<Product>(reply);
  if (isUuid(data?.id)) ctx.track(`/products/${data.id}`);
  ctx.error(reply, 422, "IMAGE_FETCH_FAILED");
  return expectProductShape(ctx, data, `${what}: the saved product in data next to the error`);
}

/** The image fields of a product, to compare two reads. */
const imageOf = (p: Product | undefined) => ({ image_url: p?.image_url, image_thumb_url: p?.image_thumb_url });

export const imageRules: Rule[] = [
  rule({
    id: "catalog.image-fetch-failed",
    area: "Catalog",
    title:
      "A write whose image download fails still saves the product and answers 422 IMAGE_FETCH_FAILED with the saved product in data",
    spec: {
      section: SPEC.productWrite,
      quote:
        "If the download fails, the product is still saved and the response is 422 IMAGE_FETCH_FAILED carrying the saved product in data next to the error.",
    },
    cost: 10,
    leniency:
      "With a control plane the address is made to fail (POST {control}/images outcome fail) and 422 is required on create and update. Without one the address is an https URL on a reserved .invalid host; a target that refuses it before any download with 400 VALIDATION_FAILED (or 429 RATE_LIMITED, a busy moment) is skipped with that reason, provided nothing was saved.",
    async run(ctx) {
      const sku = await freshSku(ctx);
      const url = imageAddress(ctx);
      if (ctx.hasControl) await setImage(ctx, url, "fail");
      const body = productBody(ctx, { sku, retail_price: 1999, image_url: url });
      const reply = await ctx.call("POST", "/products", { body });
      trackCreated(ctx, "/products", reply);
      if (!isUuid(dataOf<Product>(reply)?.id)) await trackBySku(ctx, sku);
      if (!ctx.hasControl && (reply.status === 400 || reply.status === 429)) {
        await expectNoProduct(ctx, sku, `a create refused with ${reply.status}`);
        throw new Skip(
          `the target answers ${reply.status} ${errorCode(reply) ?? ""} for an image address on an unreachable host instead of trying the download; only a control plane (--control) can make a download fail here`,
        );
      }
      const saved = expectFetchFailed(ctx, reply, `POST /products with an image that cannot be downloaded`);
      ctx.check(
        saved.name === body.name && saved.retail_price === 1999 && saved.sku === sku,
        `data: the written product (name ${body.name}, retail_price 1999, sku ${sku})`,
        show({ name: saved.name, retail_price: saved.retail_price, sku: saved.sku }),
      );
      ctx.check(
        saved.image_url !== url,
        "data.image_url: not the address that failed (the given address is not kept)",
        show(saved.image_url),
      );
      const read = await readProduct(ctx, saved.id);
      ctx.check(
        sameId(read.id, saved.id) &&
          read.name === body.name &&
          read.retail_price === 1999 &&
          read.version === saved.version,
        `GET /products/${saved.id}: the saved product of data (version ${saved.version})`,
        show({ id: read.id, name: read.name, retail_price: read.retail_price, version: read.version }),
      );
      if (!ctx.hasControl) return;
      // An update: the rest of the write is saved too.
      const again = imageAddress(ctx);
      await setImage(ctx, again, "fail");
      const name = ctx.name("renamed");
      const patched = await ctx.call("PATCH", `/products/${saved.id}`, { body: { name, image_url: again } });
      const updated = expectFetchFailed(
        ctx,
        patched,
        `PATCH /products/${saved.id} with an image that cannot be downloaded`,
      );
      ctx.check(
        sameId(updated.id, saved.id) && updated.name === name,
        `data: the updated product named ${name}`,
        show({ id: updated.id, name: updated.name }),
      );
      const reread = await readProduct(ctx, saved.id);
      ctx.check(
        reread.name === name && reread.version === updated.version,
        `GET /products/${saved.id}: saved with name ${name} (version ${updated.version})`,
        show({ name: reread.name, version: reread.version }),
      );
    },
  }),

  rule({
    id: "catalog.image-address-not-kept",
    area: "Catalog",
    title:
      "An imported image is the service's own copy: the read's image_url is not the address sent, on create and on update",
    spec: {
      section: SPEC.productWrite,
      quote:
        "image_url (https) is downloaded once and stored as the service's own copy; the given address is not kept.",
    },
    needs: { control: true },
    cost: 10,
    leniency:
      "Any address of the service's copy (host, path and form are not shown) other than the ones sent; image_thumb_url is not checked.",
    async run(ctx) {
      const { product, url } = await productWithImage(ctx);
      const copy = (p: Product | undefined, sent: readonly string[]) =>
        typeof p?.image_url === "string" && p.image_url !== "" && !sent.includes(p.image_url);
      ctx.check(
        copy(product, [url]),
        `POST /products with image_url ${url}: image_url the service's own copy, not that address`,
        show(imageOf(product)),
      );
      let read = await readProduct(ctx, product.id);
      ctx.check(
        copy(read, [url]),
        `GET /products/${product.id}: image_url the service's own copy, not ${url}`,
        show(imageOf(read)),
      );
      const next = await okImage(ctx);
      const patched = await patchProduct(ctx, product.id, { image_url: next });
      ctx.check(
        copy(patched, [url, next]),
        `PATCH with image_url ${next}: image_url the service's own copy, not an address sent`,
        show(imageOf(patched)),
      );
      read = await readProduct(ctx, product.id);
      ctx.check(
        copy(read, [url, next]),
        `GET /products/${product.id} after the update: image_url the service's own copy, not an address sent`,
        show(imageOf(read)),
      );
    },
  }),

  rule({
    id: "catalog.image-null-leaves-image",
    area: "Catalog",
    title:
      "image_url null or left out leaves the image (image_url and image_thumb_url) unchanged; an image cannot be removed",
    spec: {
      section: SPEC.productWrite,
      quote: "Null or omitted image_url leaves the image unchanged; an image cannot be removed.",
    },
    needs: { control: true },
    cost: 8,
    async run(ctx) {
      const { product } = await productWithImage(ctx);
      ctx.check(
        typeof product.image_url === "string" && product.image_url !== "",
        "a product with an imported image (image_url set)",
        show(imageOf(product)),
      );
      const image = imageOf(await readProduct(ctx, product.id));
      const same = (p: Product | undefined) =>
        p?.image_url === image.image_url && p?.image_thumb_url === image.image_thumb_url;
      const writes: [string, Record<string, unknown>][] = [
        ["image_url null", { image_url: null, name: ctx.name("renamed") }],
        ["image_url null alone", { image_url: null }],
        ["image_url left out", { description: ctx.name("described") }],
      ];
      for (const [what, body] of writes) {
        const patched = await patchProduct(ctx, product.id, body);
        ctx.check(same(patched), `PATCH with ${what}: the image unchanged ${show(image)}`, show(imageOf(patched)));
      }
      const read = await readProduct(ctx, product.id);
      ctx.check(same(read), `GET /products/${product.id}: the image unchanged ${show(image)}`, show(imageOf(read)));
    },
  }),
];
