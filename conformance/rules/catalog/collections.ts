import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  isUuid,
  patchProduct,
  poolProducts,
  poolSuppliers,
  poolTags,
  productBody,
  readProduct,
  sameId,
  show,
  trackCreated,
  unknownUuid,
} from "../support/catalog.js";
import { CODE_TYPE_LIST, type CodeType, codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";

// Product collections: caps, replacement semantics (Product write rules 3) and atomic writes (rule 4).

type Op = "create" | "update";
type Capped = "codes" | "tags" | "suppliers" | "components";

/** n valid, distinct items of a collection (pool rows must exist already). */
async function items(ctx: RuleContext, collection: Capped, n: number): Promise<unknown[]> {
  switch (collection) {
    case "codes":
      return Array.from({ length: n }, (_, i) => {
        const type = CODE_TYPE_LIST[i % CODE_TYPE_LIST.length] as CodeType;
        return { type, code: codeValue(ctx, type) };
      });
    case "tags":
      return (await poolTags(ctx, n)).map((t) => ({ id: t.id }));
    case "suppliers":
      return (await poolSuppliers(ctx, n)).map((s, i) => ({
        supplier_id: s.id,
        is_primary: false,
        supplier_code: `RS-${i}`,
      }));
    case "components":
      return (await poolProducts(ctx, n)).map((p) => ({ product_id: p.id, quantity: 1 }));
  }
}

/** Spec, Limits: 10 codes, 20 tags, 10 suppliers, 50 components; Errors: a cap exceeded is 422 UNPROCESSABLE. */
function capRule(collection: Capped, cap: number): Rule {
  return rule({
    id: `catalog.cap-${collection}`,
    area: "Catalog",
    title: `${cap} ${collection} are accepted; ${cap + 1} answer 422 UNPROCESSABLE and save nothing`,
    spec: {
      section: SPEC.errors,
      quote: "UNPROCESSABLE | 422 | referenced thing not found, cap exceeded (codes, tags, suppliers, components)",
    },
    cost: cap + 14,
    leniency: "The field may name the collection or one of its items.",
    async run(ctx) {
      await items(ctx, collection, cap + 1); // shared rows first: what refers to them is deleted before them
      await ctx.property(
        fc.constantFrom<Op>("create", "update"),
        async (op) => {
          const sku = await freshSku(ctx);
          const atCap = await items(ctx, collection, cap);
          const over = await items(ctx, collection, cap + 1);
          let product: any;
          if (op === "create") {
            product = await createProduct(ctx, { sku, [collection]: atCap });
          } else {
            product = await createProduct(ctx, { sku });
            await patchProduct(ctx, product.id, { [collection]: atCap });
          }
          const read = await readProduct(ctx, product.id);
          ctx.check(
            Array.isArray(read[collection]) && read[collection].length === cap,
            `${cap} ${collection} saved`,
            `${read[collection]?.length} ${collection}`,
          );
          const field = new RegExp(`^${collection}(\\.\\d+)?$`);
          if (op === "create") {
            const other = ctx.name("sku");
            const body = productBody(ctx, { sku: other, [collection]: over });
            const reply = await ctx.call("POST", "/products", { body });
            trackCreated(ctx, "/products", reply);
            expectError(ctx, reply, 422, "UNPROCESSABLE", [field], `POST /products with ${cap + 1} ${collection}`);
            await expectNoProduct(ctx, other, "a refused create");
          } else {
            const reply = await ctx.call("PATCH", `/products/${product.id}`, {
              body: { [collection]: over, name: ctx.name("over") },
            });
            expectError(
              ctx,
              reply,
              422,
              "UNPROCESSABLE",
              [field],
              `PATCH /products/{id} with ${cap + 1} ${collection}`,
            );
            await expectUnchanged(ctx, read, "a refused update");
          }
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  });
}

const attribute = (name: string, position: number) => ({ name, position });

export const collectionRules: Rule[] = [
  capRule("codes", 10),
  capRule("tags", 20),
  capRule("suppliers", 10),
  capRule("components", 50),

  rule({
    id: "catalog.variant-attribute-limits",
    area: "Catalog",
    title: "3 variant attributes are accepted; a 4th or a position outside 1 to 3 answers 400 VALIDATION_FAILED",
    spec: {
      section: SPEC.errors,
      quote:
        "Cap exceptions: over 3 variant attributes or a position outside 1 to 3 answers 400 VALIDATION_FAILED, not 422.",
    },
    cost: 20,
    async run(ctx) {
      const arb = fc.record({
        op: fc.constantFrom<Op>("create", "update"),
        bad: fc.constantFrom<number | "fourth">("fourth", 0, 4, -1, 5, 99),
      });
      await ctx.property(
        arb,
        async ({ op, bad }) => {
          const sku = await freshSku(ctx);
          const three = [attribute("Size", 1), attribute("Colour", 2), attribute("Material", 3)];
          const ok = await createProduct(ctx, { has_variants: true, variant_attributes: three });
          ctx.check(
            ok.variant_attributes?.length === 3 && ok.variant_attributes.every((a: any) => isUuid(a.id)),
            "3 variant attributes saved, each with an id",
            show(ok.variant_attributes),
          );
          const attrs =
            bad === "fourth" ? [...three, attribute("Fit", 3)] : [attribute("Size", 1), attribute("Colour", bad)];
          const what = bad === "fourth" ? "4 variant attributes" : `a variant attribute at position ${bad}`;
          const field = /^variant_attributes(\.\d+(\.position)?)?$/;
          if (op === "create") {
            const body = productBody(ctx, { sku, has_variants: true, variant_attributes: attrs });
            const reply = await ctx.call("POST", "/products", { body });
            trackCreated(ctx, "/products", reply);
            expectError(ctx, reply, 400, "VALIDATION_FAILED", [field], `POST /products with ${what}`);
            await expectNoProduct(ctx, sku, "a refused create");
          } else {
            const before = await readProduct(ctx, ok.id);
            const reply = await ctx.call("PATCH", `/products/${ok.id}`, { body: { variant_attributes: attrs } });
            expectError(ctx, reply, 400, "VALIDATION_FAILED", [field], `PATCH /products/{id} with ${what}`);
            await expectUnchanged(ctx, before, "a refused update");
          }
        },
        Math.min(ctx.run.runs, 4),
      );
    },
  }),

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
          const oldIds = new Map<string, string>((before.codes as any[]).map((c) => [c.type, c.id]));
          ctx.check(oldIds.size === initial.codes.length, `codes of types ${show(initial.codes)}`, show(before.codes));

          // Step 1: the generated update.
          const body: Record<string, unknown> = { name: ctx.name("replaced") };
          const expected: Record<string, unknown[]> = { ...start };
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
          const check = (q: any, what: string) => {
            expectCollections(ctx, q, expected, tags, suppliers, what);
            // Code by type: a re-sent type keeps its id, whatever its value.
            if (update.codes.kind === "replace") {
              for (const c of q.codes as any[]) {
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

  rule({
    id: "catalog.atomic-write",
    area: "Catalog",
    title: "A write with one invalid entry is refused with that entry's error and saves nothing",
    spec: { section: SPEC.productWrite, quote: "A whole write is atomic: if any entry is invalid, nothing is saved." },
    cost: 30,
    async run(ctx) {
      const tags = await poolTags(ctx, 2);
      const [supplier] = await poolSuppliers(ctx, 1);
      const bad = fc.constantFrom(
        "unknown-tag",
        "unknown-supplier",
        "unknown-component",
        "unknown-brand",
        "unknown-category",
        "code-type",
        "decimal-loyalty",
        "eleven-codes",
      );
      const arb = fc.record({
        op: fc.constantFrom<Op>("create", "update"),
        bad,
        price: fc.integer({ min: 1, max: 99_999 }),
        tagCount: fc.integer({ min: 0, max: 2 }),
      });
      await ctx.property(
        arb,
        async ({ op, bad, price, tagCount }) => {
          const sku = await freshSku(ctx);
          const body: Record<string, any> = {
            name: ctx.name("atomic"),
            retail_price: price,
            description: "must not be saved",
            codes: [{ type: "ean", code: codeValue(ctx, "ean") }],
            tags: tags.slice(0, tagCount).map((t) => ({ id: t.id })),
            suppliers: [{ supplier_id: supplier!.id, is_primary: true, supplier_code: "AT" }],
          };
          let expect: [number, string, RegExp];
          switch (bad) {
            case "unknown-tag":
              body.tags.push({ id: unknownUuid() });
              expect = [400, "VALIDATION_FAILED", new RegExp(`^tags\\.${tagCount}(\\.id)?$`)];
              break;
            case "unknown-supplier":
              body.suppliers.push({ supplier_id: unknownUuid(), is_primary: false, supplier_code: null });
              expect = [422, "UNPROCESSABLE", /^suppliers(\.1(\.supplier_id)?)?$/];
              break;
            case "unknown-component":
              body.components = [{ product_id: unknownUuid(), quantity: 1 }];
              expect = [422, "UNPROCESSABLE", /^components(\.0(\.product_id)?)?$/];
              break;
            case "unknown-brand":
              body.brand_id = unknownUuid();
              expect = [422, "UNPROCESSABLE", /^brand_id$/];
              break;
            case "unknown-category":
              body.category_id = unknownUuid();
              expect = [422, "UNPROCESSABLE", /^category_id$/];
              break;
            case "code-type":
              body.codes.push({ type: "qr", code: "RSC-QR" });
              expect = [400, "VALIDATION_FAILED", /^codes\.1(\.type)?$/];
              break;
            case "decimal-loyalty":
              body.loyalty_amount = 10.5;
              expect = [400, "VALIDATION_FAILED", /^loyalty_amount$/];
              break;
            default:
              body.codes = Array.from({ length: 11 }, (_, i) => ({
                type: "custom",
                code: `${codeValue(ctx, "custom")}-${i}`,
              }));
              expect = [422, "UNPROCESSABLE", /^codes(\.\d+)?$/];
          }
          const [status, code, field] = expect;
          if (op === "create") {
            const reply = await ctx.call("POST", "/products", { body: { ...body, sku } });
            trackCreated(ctx, "/products", reply);
            expectError(ctx, reply, status, code, [field], `POST /products with ${bad}`);
            await expectNoProduct(ctx, sku, `a create refused for ${bad}`);
          } else {
            const p = await createProduct(ctx, { sku });
            const before = await readProduct(ctx, p.id);
            const reply = await ctx.call("PATCH", `/products/${p.id}`, { body });
            expectError(ctx, reply, status, code, [field], `PATCH /products/{id} with ${bad}`);
            await expectUnchanged(ctx, before, `an update refused for ${bad}`);
          }
        },
        Math.min(ctx.run.runs, 6),
      );
    },
  }),
];

/** The product's collections equal the written ones (as sets), with tag and supplier names on read. */
function expectCollections(
  ctx: RuleContext,
  q: any,
  expected: Record<string, unknown[]>,
  tags: { id: string; name: string }[],
  suppliers: { id: string; name: string }[],
  what: string,
): void {
  ctx.check(typeof q === "object" && q !== null, `${what}: a product`, show(q));
  const set = (xs: unknown[]) => JSON.stringify(xs.map((x) => JSON.stringify(x)).sort());
  const codes = (q.codes as any[]).map((c) => ({ type: c.type, code: c.code }));
  ctx.check(
    set(codes) === set((expected.codes as any[]).map((c) => ({ type: c.type, code: c.code }))),
    `${what}: codes ${show(expected.codes)}`,
    show(q.codes),
  );
  ctx.check(
    (q.codes as any[]).every((c) => isUuid(c.id)),
    `${what}: each code with an id`,
    show(q.codes),
  );
  const tagName = new Map(tags.map((t) => [t.id.toLowerCase(), t.name]));
  const gotTags = (q.tags as any[]).map((t) => ({ id: String(t.id).toLowerCase(), name: t.name }));
  const wantTags = (expected.tags as any[]).map((t) => ({
    id: t.id.toLowerCase(),
    name: tagName.get(t.id.toLowerCase()),
  }));
  ctx.check(set(gotTags) === set(wantTags), `${what}: tags ${show(wantTags)}`, show(q.tags));
  const supplierName = new Map(suppliers.map((s) => [s.id.toLowerCase(), s.name]));
  const gotSuppliers = (q.suppliers as any[]).map((s) => ({
    id: String(s.supplier_id).toLowerCase(),
    primary: s.is_primary,
    code: s.supplier_code ?? null,
    name: s.supplier_name,
  }));
  const wantSuppliers = (expected.suppliers as any[]).map((s) => ({
    id: s.supplier_id.toLowerCase(),
    primary: s.is_primary,
    code: s.supplier_code,
    name: supplierName.get(s.supplier_id.toLowerCase()),
  }));
  ctx.check(set(gotSuppliers) === set(wantSuppliers), `${what}: suppliers ${show(wantSuppliers)}`, show(q.suppliers));
  const gotComponents = (q.components as any[]).map((c) => ({
    id: String(c.product_id).toLowerCase(),
    quantity: c.quantity,
  }));
  const wantComponents = (expected.components as any[]).map((c) => ({
    id: c.product_id.toLowerCase(),
    quantity: c.quantity,
  }));
  ctx.check(
    set(gotComponents) === set(wantComponents),
    `${what}: components ${show(wantComponents)}`,
    show(q.components),
  );
}
