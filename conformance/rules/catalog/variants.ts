import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  bySku,
  createProduct,
  expectError,
  expectUnchanged,
  freshSku,
  isUuid,
  ok2xx,
  patchProduct,
  readProduct,
  sameId,
  show,
} from "../support/catalog.js";
import { expectProductShape } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { rowsOf, type Product } from "../../shapes.js";

// Variants (Product write rules 5 and 9). The response of the variants call is not shown by the
// spec, so children are found by the SKUs the rule gives them.

interface Variant {
  options: { attribute_id: string; value: string }[];
  sku: string;
  active?: boolean;
}

/** A variant parent of ours: has_variants true with its attributes; answers it with attribute ids by position. */
async function parent(ctx: RuleContext, names: string[], sku?: string): Promise<{ product: Product; attr: string[] }> {
  const product = await createProduct(ctx, {
    ...(sku ? { sku } : {}),
    has_variants: true,
    variant_attributes: names.map((name, i) => ({ name, position: i + 1 })),
  });
  const attrs = product.variant_attributes;
  const attr = names.map((_, i) => attrs.find((a) => a.position === i + 1)?.id as string);
  ctx.check(
    attrs.length === names.length && attr.every(isUuid),
    `the parent's attributes ${show(names)} with ids`,
    show(attrs),
  );
  return { product, attr };
}

const variant = (ctx: RuleContext, attr: string[], values: string[]): Variant => ({
  options: values.map((value, i) => ({ attribute_id: attr[i]!, value })),
  sku: ctx.name("variant"),
});

/** Posts variants; every child that now exists is tracked (so a broken all-or-nothing leaves nothing behind). */
async function postVariants(ctx: RuleContext, parentId: string, variants: Variant[]) {
  const reply = await ctx.call("POST", `/products/${parentId}/variants`, { body: { variants } });
  return reply;
}

/** The child with this SKU, checked against the spec's description of a child. */
async function child(ctx: RuleContext, parentId: string, v: Variant): Promise<Product> {
  const found = await bySku(ctx, v.sku);
  for (const c of found) ctx.track(`/products/${c.id}`);
  ctx.check(found.length === 1, `a child with SKU ${v.sku}`, show(found.map((c) => c.id)));
  const c = found[0] as Product; // checked: exactly one
  expectProductShape(ctx, c, `variant child ${v.sku}`);
  const options = new Set(c.variant_options.map((o) => `${String(o.attribute_id).toLowerCase()}=${o.value}`));
  const want = v.options.map((o) => `${o.attribute_id.toLowerCase()}=${o.value}`);
  ctx.check(
    sameId(c.variant_parent_id, parentId) &&
      options.size === want.length &&
      want.every((o) => options.has(o)) &&
      c.variant_attributes.length === 0,
    `a child of ${parentId} with options ${show(v.options)} and no variant_attributes`,
    show({
      variant_parent_id: c.variant_parent_id,
      variant_options: c.variant_options,
      variant_attributes: c.variant_attributes,
    }),
  );
  return c;
}

async function noChild(ctx: RuleContext, v: Variant, why: string): Promise<void> {
  const found = await bySku(ctx, v.sku);
  for (const c of found) ctx.track(`/products/${c.id}`);
  ctx.check(found.length === 0, `${why}: no product with SKU ${v.sku}`, show(found.map((c) => c.id)));
}

const SIZES = ["M", "L", "XL"];

/** docs/spec-choices.md, Catalog: what the variants call answers, what a child copies, what adding one leaves. */
const RESPONSE = "Variants response";
const COPIED = "Variant children's fields";
const PARENT_KEPT = "Adding children";

/** The strict profile: 201 with {data: [the children]}, in the order of the request. */
function answeredChildren(ctx: RuleContext, reply: Reply, sent: readonly Variant[], parentId: string): void {
  const rows = rowsOf<Product>(reply) ?? [];
  ctx.choice(
    RESPONSE,
    reply.status === 201 &&
      rows.length === sent.length &&
      rows.every((c, i) => c?.sku === sent[i]?.sku && sameId(c?.variant_parent_id, parentId)),
    `201 with {data: [the children ${show(sent.map((v) => v.sku))}]}`,
    `status ${reply.status} ${reply.text.slice(0, 300)}`,
  );
}

/** The strict profile: a child given only options and a sku copies its parent, named "Parent / value / value". */
function copiesParent(ctx: RuleContext, c: Product, p: Product, v: Variant): void {
  const same = ["description", "has_inventory", "brand_id", "category_id", "retail_price", "weight"] as const;
  ctx.choice(
    COPIED,
    c.name === [p.name, ...v.options.map((o) => o.value)].join(" / ") &&
      c.active === true &&
      same.every((k) => c[k] === p[k]) &&
      [c.codes, c.tags, c.suppliers, c.components].every((list) => list.length === 0) &&
      c.image_url === null,
    `the child ${v.sku}: the parent's fields, named ${[p.name, ...v.options.map((o) => o.value)].join(" / ")}, active, no codes, tags, suppliers, components or image`,
    show(c, 400),
  );
}

export const variantRules: Rule[] = [
  rule({
    id: "catalog.variants",
    area: "Catalog",
    title:
      "Variants: children are added to a parent; an existing combination or a SKU in use answers 409 CONFLICT and adds none of the call's variants",
    spec: {
      section: SPEC.productWrite,
      quote:
        "Variants: create the parent with has_variants true and its attributes, then add children. A combination that already exists answers 409 CONFLICT. Children are ordinary products afterwards. The call is all or nothing.",
    },
    cost: 40,
    leniency: "Success status 200 or 201; the response body of the call is not read (not shown by the spec).",
    choices: [RESPONSE, COPIED],
    async run(ctx) {
      const bads = ["existing-combination", "sku-in-use"] as const;
      const arb = fc.record({ count: fc.integer({ min: 1, max: 3 }), at: fc.nat(3), bad: fc.constantFrom(...bads) });
      const story = async ({ count, at, bad }: { count: number; at: number; bad: (typeof bads)[number] }) => {
        const sku = await freshSku(ctx);
        const { product, attr } = await parent(ctx, ["Size", "Colour"], sku);
        const first = variant(ctx, attr, ["S", "Red"]);
        const reply = await postVariants(ctx, product.id, [first]);
        ctx.check(
          ok2xx(reply),
          "POST /products/{id}/variants: status 200 or 201",
          `status ${reply.status} ${reply.text.slice(0, 300)}`,
        );
        answeredChildren(ctx, reply, [first], product.id);
        const made = await child(ctx, product.id, first);
        copiesParent(ctx, made, product, first);
        // Children are ordinary products afterwards.
        const renamed = ctx.name("child");
        const patched = await patchProduct(ctx, made.id, { name: renamed });
        ctx.check(
          patched?.name === renamed && sameId(patched?.variant_parent_id, product.id),
          "a child updated like any product, still a child",
          show(patched),
        );

        const fresh = SIZES.slice(0, count).map((size) => variant(ctx, attr, [size, "Blue"]));
        const wrong =
          bad === "existing-combination"
            ? variant(ctx, attr, ["S", "Red"])
            : { ...variant(ctx, attr, ["XXL", "Green"]), sku: first.sku };
        const index = at % (fresh.length + 1);
        const batch = [...fresh.slice(0, index), wrong, ...fresh.slice(index)];
        const refused = await postVariants(ctx, product.id, batch);
        for (const v of fresh) await noChild(ctx, v, `a variants call refused for ${bad}`);
        if (bad === "existing-combination") await noChild(ctx, wrong, "the existing combination");
        expectError(ctx, refused, 409, "CONFLICT", undefined, `POST variants with ${bad} at ${index}`);
        const again = await postVariants(ctx, product.id, fresh);
        ctx.check(
          ok2xx(again),
          "the same variants without the bad one: status 200 or 201",
          `status ${again.status} ${again.text.slice(0, 300)}`,
        );
        answeredChildren(ctx, again, fresh, product.id);
        for (const v of fresh) await child(ctx, product.id, v);
      };
      await ctx.property(arb, story, Math.min(ctx.run.runs, 3));
      // Then each bad variant once, last after two good ones, so a defect shows whatever the seed drew.
      for (const bad of bads) await story({ count: 2, at: 2, bad });
    },
  }),

  rule({
    id: "catalog.variant-attributes",
    area: "Catalog",
    title:
      "Variant attributes keep their ids by position; with a live (even inactive) child a change answers 409 CONFLICT but the same content is accepted",
    spec: {
      section: SPEC.productWrite,
      quote:
        "variant_attributes can change only while the product has no live variant children; afterwards a change answers 409 CONFLICT, but sending exactly the existing content is accepted.",
    },
    cost: 12,
    choices: [PARENT_KEPT],
    async run(ctx) {
      // [] clears the attributes (no children yet).
      const cleared = await parent(ctx, ["Size"]);
      const none = await patchProduct(ctx, cleared.product.id, { variant_attributes: [] });
      ctx.check(
        Array.isArray(none?.variant_attributes) && none.variant_attributes.length === 0,
        "variant_attributes [] clears them",
        show(none?.variant_attributes),
      );
      const { product, attr } = await parent(ctx, ["Size", "Colour"]);
      const three = [
        { name: "Size", position: 1 },
        { name: "Material", position: 2 },
        { name: "Fit", position: 3 },
      ];
      const changed = await patchProduct(ctx, product.id, { variant_attributes: three });
      const at = (p: Product, pos: number) => p.variant_attributes.find((a) => a.position === pos);
      ctx.check(
        sameId(at(changed, 1)?.id, attr[0]) &&
          sameId(at(changed, 2)?.id, attr[1]) &&
          at(changed, 2)?.name === "Material",
        "attributes matched by position keep their ids (position 2 renamed to Material)",
        show(changed?.variant_attributes),
      );
      const third = at(changed, 3)?.id;
      ctx.check(
        isUuid(third) && !sameId(third, attr[0]) && !sameId(third, attr[1]) && changed.variant_attributes.length === 3,
        "a new attribute at position 3 with its own id",
        show(changed.variant_attributes),
      );
      const ids = [attr[0]!, attr[1]!, third as string];
      // An inactive child: still a live child, so the attributes are locked (rule 5 says "live").
      const kid = { ...variant(ctx, ids, ["S", "Linen", "Slim"]), active: false };
      const reply = await postVariants(ctx, product.id, [kid]);
      ctx.check(
        ok2xx(reply),
        "POST /products/{id}/variants: status 200 or 201",
        `status ${reply.status} ${reply.text.slice(0, 300)}`,
      );
      await child(ctx, product.id, kid);
      const before = await readProduct(ctx, product.id);
      ctx.choice(
        PARENT_KEPT,
        before.version === changed.version,
        `the parent still at version ${changed.version} after a child was added`,
        show(before.version),
      );
      const refused = await ctx.call("PATCH", `/products/${product.id}`, {
        body: { variant_attributes: three.slice(0, 2) },
      });
      expectError(
        ctx,
        refused,
        409,
        "CONFLICT",
        undefined,
        "PATCH variant_attributes of a parent with a live (inactive) child",
      );
      await expectUnchanged(ctx, before, "a refused attribute change");
      const same = await ctx.call("PATCH", `/products/${product.id}`, { body: { variant_attributes: three } });
      ctx.check(
        same.status === 200,
        "PATCH with exactly the existing attributes: status 200",
        `status ${same.status} ${same.text.slice(0, 300)}`,
      );
      const after = await readProduct(ctx, product.id);
      ctx.check(
        after.variant_attributes.length === 3 && [1, 2, 3].every((pos, i) => sameId(at(after, pos)?.id, ids[i])),
        "the attributes and their ids unchanged",
        show(after.variant_attributes),
      );
    },
  }),
];
