import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  freshSku,
  isUuid,
  patchProduct,
  poolProducts,
  poolSuppliers,
  poolTags,
  readProduct,
  sameId,
  show,
} from "../support/catalog.js";
import { CODE_TYPE_LIST, codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import type { Product } from "../../shapes.js";

// Product collections: replacement semantics (Product write rules 3).

/** docs/spec-choices.md: `is_composite` is derived, true exactly when `components` is non-empty. */
const DERIVED = "`is_composite`, `variant_parent_id`, `variant_options` on write";

export const collectionReplaceRules: Rule[] = [
  rule({
    id: "catalog.collections-replace",
    area: "Catalog",
    title: "Collections: a left-out key is untouched, an array replaces, [] clears, and a re-sent code keeps its id",
    spec: {
      section: SPEC.productWrite,
      quote:
        "For each collection (codes, tags, suppliers, variant_attributes, components): key left out means untouched; an array replaces the collection; [] clears it. Replacement items are matched by identity (code by type, tag by id, supplier by supplier id, component by product, attribute by position), so a re-sent row keeps its identity.",
    },
    cost: 40,
    leniency:
      "Collections compared as sets (the spec does not fix their order); codes of distinct types, so 'code by type' is unambiguous.",
    choices: [DERIVED],
    async run(ctx) {
      const tags = await poolTags(ctx, 4);
      const suppliers = await poolSuppliers(ctx, 3);
      const parts = await poolProducts(ctx, 3);
      const codeSet = fc.subarray([...CODE_TYPE_LIST], { minLength: 1 });
      const supplierSet = fc.tuple(fc.subarray([0, 1, 2], { minLength: 1 }), fc.nat(), fc.boolean());
      const componentSet = fc
        .subarray([0, 1, 2], { minLength: 1 })
        .chain((ix) =>
          fc.tuple(
            fc.constant(ix),
            fc.array(fc.integer({ min: 1, max: 9 }), { minLength: ix.length, maxLength: ix.length }),
          ),
        );
      const change = <T>(arb: fc.Arbitrary<T>) =>
        fc.oneof(
          fc.constant({ kind: "omit" as const }),
          fc.constant({ kind: "clear" as const }),
          arb.map((v) => ({ kind: "replace" as const, v })),
        );
      const arb = fc.record({
        initial: fc.record({
          codes: codeSet,
          tags: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
          suppliers: supplierSet,
          components: componentSet,
        }),
        update: fc.record({
          codes: change(
            fc
              .array(fc.record({ type: fc.constantFrom(...CODE_TYPE_LIST), keep: fc.boolean() }), { maxLength: 4 })
              .map((cs) => cs.filter((c, i) => cs.findIndex((d) => d.type === c.type) === i)),
          ),
          tags: change(fc.subarray([0, 1, 2, 3])),
          suppliers: change(supplierSet),
          components: change(componentSet),
        }),
      });
      await ctx.property(
        arb,
        async ({ initial, update }) => {
          const sku = await freshSku(ctx);
          const codeOf = new Map<string, string>(initial.codes.map((t) => [t, codeValue(ctx, t)]));
          const supplierBody = ([ix, primary, coded]: [number[], number, boolean]) =>
            ix.map((i, n) => ({
              supplier_id: suppliers[i]!.id,
              is_primary: n === primary % ix.length,
              supplier_code: coded ? `RS-${i}` : null,
            }));
          const componentBody = ([ix, qty]: [number[], number[]]) =>
            ix.map((i, n) => ({ product_id: parts[i]!.id, quantity: qty[n] }));
          const start = {
            codes: initial.codes.map((type) => ({ type, code: codeOf.get(type) })),
            tags: initial.tags.map((i) => ({ id: tags[i]!.id })),
            suppliers: supplierBody(initial.suppliers),
            components: componentBody(initial.components),
          };
          const p = await createProduct(ctx, { sku, ...start });
          const before = await readProduct(ctx, p.id);
          const oldIds = new Map<string, string>(before.codes.map((c) => [c.type, c.id]));
          ctx.check(oldIds.size === initial.codes.length, `codes of types ${show(initial.codes)}`, show(before.codes));

          // Step 1: the generated update.
          const body: Record<string, unknown> = { name: ctx.name("replaced") };
          const expected: Written = { ...start };
          if (update.codes.kind !== "omit") {
            const sent =
              update.codes.kind === "clear"
                ? []
                : update.codes.v.map(({ type, keep }) => ({
                    type,
                    code: keep && codeOf.has(type) ? codeOf.get(type) : codeValue(ctx, type),
                  }));
            body.codes = sent;
            expected.codes = sent;
          }
          if (update.tags.kind !== "omit")
            expected.tags = body.tags =
              update.tags.kind === "clear" ? [] : update.tags.v.map((i) => ({ id: tags[i]!.id }));
          if (update.suppliers.kind !== "omit")
            expected.suppliers = body.suppliers =
              update.suppliers.kind === "clear" ? [] : supplierBody(update.suppliers.v);
          if (update.components.kind !== "omit")
            expected.components = body.components =
              update.components.kind === "clear" ? [] : componentBody(update.components.v);
          const check = (q: Product, what: string) => {
            expectCollections(ctx, q, expected, tags, suppliers, what);
            // Code by type: a re-sent type keeps its id, whatever its value.
            if (update.codes.kind === "replace") {
              for (const c of q.codes) {
                const old = oldIds.get(c.type);
                if (old !== undefined)
                  ctx.check(sameId(c.id, old), `${what}: the ${c.type} code keeps its id ${old}`, show(c));
              }
            }
          };
          check(await patchProduct(ctx, p.id, body), `PATCH ${show(body, 400)}`);
          check(await readProduct(ctx, p.id), `GET after PATCH ${show(body, 400)}`);

          // Step 2: every key left out: nothing touched.
          expectCollections(
            ctx,
            await patchProduct(ctx, p.id, { name: ctx.name("untouched") }),
            expected,
            tags,
            suppliers,
            "PATCH {name} only",
          );
          // Step 3: [] clears each collection.
          const cleared = { codes: [], tags: [], suppliers: [], components: [] };
          const after = await patchProduct(ctx, p.id, cleared);
          expectCollections(ctx, after, cleared, tags, suppliers, "PATCH with every collection []");
          expectCollections(ctx, await readProduct(ctx, p.id), cleared, tags, suppliers, "GET after clearing");
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
];

/** The collections of a product body as written. */
interface Written {
  codes: readonly { type: string; code?: string }[];
  tags: readonly { id: string }[];
  suppliers: readonly { supplier_id: string; is_primary: boolean; supplier_code: string | null }[];
  components: readonly { product_id: string; quantity?: number }[];
}

/** The product's collections equal the written ones (as sets), with tag and supplier names on read. */
function expectCollections(
  ctx: RuleContext,
  q: Product,
  expected: Written,
  tags: { id: string; name: string }[],
  suppliers: { id: string; name: string }[],
  what: string,
): void {
  ctx.check(typeof q === "object" && q !== null, `${what}: a product`, show(q));
  const set = (xs: unknown[]) => JSON.stringify(xs.map((x) => JSON.stringify(x)).sort());
  const codes = q.codes.map((c) => ({ type: c.type, code: c.code }));
  ctx.check(
    set(codes) === set(expected.codes.map((c) => ({ type: c.type, code: c.code }))),
    `${what}: codes ${show(expected.codes)}`,
    show(q.codes),
  );
  ctx.check(
    q.codes.every((c) => isUuid(c.id)),
    `${what}: each code with an id`,
    show(q.codes),
  );
  const tagName = new Map(tags.map((t) => [t.id.toLowerCase(), t.name]));
  const gotTags = q.tags.map((t) => ({ id: String(t.id).toLowerCase(), name: t.name }));
  const wantTags = expected.tags.map((t) => ({
    id: t.id.toLowerCase(),
    name: tagName.get(t.id.toLowerCase()),
  }));
  ctx.check(set(gotTags) === set(wantTags), `${what}: tags ${show(wantTags)}`, show(q.tags));
  const supplierName = new Map(suppliers.map((s) => [s.id.toLowerCase(), s.name]));
  const gotSuppliers = q.suppliers.map((s) => ({
    id: String(s.supplier_id).toLowerCase(),
    primary: s.is_primary,
    code: s.supplier_code ?? null,
    name: s.supplier_name,
  }));
  const wantSuppliers = expected.suppliers.map((s) => ({
    id: s.supplier_id.toLowerCase(),
    primary: s.is_primary,
    code: s.supplier_code,
    name: supplierName.get(s.supplier_id.toLowerCase()),
  }));
  ctx.check(set(gotSuppliers) === set(wantSuppliers), `${what}: suppliers ${show(wantSuppliers)}`, show(q.suppliers));
  const gotComponents = q.components.map((c) => ({
    id: String(c.product_id).toLowerCase(),
    quantity: c.quantity,
  }));
  const wantComponents = expected.components.map((c) => ({
    id: c.product_id.toLowerCase(),
    quantity: c.quantity,
  }));
  ctx.check(
    set(gotComponents) === set(wantComponents),
    `${what}: components ${show(wantComponents)}`,
    show(q.components),
  );
  ctx.choice(
    DERIVED,
    q.is_composite === expected.components.length > 0,
    `${what}: is_composite ${expected.components.length > 0}, as components is ${expected.components.length > 0 ? "non-empty" : "empty"}`,
    show(q.is_composite),
  );
}
