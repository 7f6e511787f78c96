import fc from "fast-check";
import type { Rule } from "../../rule.js";
import {
  bySku,
  canonical,
  createProduct,
  expectError,
  expectNoProduct,
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
  refusedWrite,
  type WriteOp,
} from "../support/catalog.js";
import { codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { Mismatch } from "../../outcomes.js";
import { rowsOf, type Product } from "../../shapes.js";

// Product writes: SKUs in use and changed, decimal money, unknown tags, sending a read document back,
// and the exact SKU lookup.

export const productWriteRules: Rule[] = [
  rule({
    id: "catalog.sku-conflict",
    area: "Catalog",
    title: "Creating a product with a SKU in use answers 409 CONFLICT and creates nothing",
    spec: { section: SPEC.productWrite, quote: "SKU in use: 409 CONFLICT." },
    cost: 8,
    async run(ctx) {
      await ctx.property(
        fc.integer({ min: 1, max: 100_000 }),
        async (retail_price) => {
          const sku = await freshSku(ctx);
          const first = await createProduct(ctx, { sku });
          const body = productBody(ctx, { sku, retail_price });
          const reply = await ctx.call("POST", "/products", { body });
          trackCreated(ctx, "/products", reply);
          expectError(ctx, reply, 409, "CONFLICT", undefined, `POST /products with the SKU of ${first.id}`);
          const found = await bySku(ctx, sku);
          ctx.check(
            found.length === 1 && sameId(found[0]?.id, first.id) && found[0]?.name === first.name,
            `one product with SKU ${sku}: ${first.id}`,
            show(found.map((p) => ({ id: p.id, name: p.name }))),
          );
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),

  rule({
    id: "catalog.sku-update-ignored",
    area: "Catalog",
    title: "A sku sent in an update is ignored",
    spec: { section: SPEC.resources, quote: "sku | string | Set only at create; a sku sent in an update is ignored." },
    cost: 6,
    async run(ctx) {
      const p = await createProduct(ctx);
      const other = ctx.name("sku");
      const name = ctx.name("renamed");
      const after = await patchProduct(ctx, p.id, { sku: other, name });
      ctx.check(
        after?.sku === p.sku && after?.name === name,
        `sku kept (${p.sku}) and name changed to ${name}`,
        show({ sku: after?.sku, name: after?.name }),
      );
      const read = await readProduct(ctx, p.id);
      ctx.check(read.sku === p.sku, `GET: sku ${p.sku}`, show(read.sku));
      await expectNoProduct(ctx, other, "the ignored SKU");
    },
  }),

  rule({
    id: "catalog.decimal-money",
    area: "Catalog",
    title: "A decimal retail_price or loyalty_amount answers 400 VALIDATION_FAILED naming the field, and saves nothing",
    spec: {
      section: SPEC.what,
      quote: "Money is always an integer number of minor units (cents). It is never a decimal.",
    },
    cost: 20,
    async run(ctx) {
      const decimal = fc
        .tuple(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(0.5, 0.25, 0.01, 0.99, 0.1, 0.001))
        .map(([n, f]) => n + f);
      await ctx.property(
        fc.record({
          op: fc.constantFrom<WriteOp>("create", "update"),
          field: fc.constantFrom("retail_price", "loyalty_amount"),
          value: decimal,
        }),
        async ({ op, field, value }) => {
          const { reply, what, nothingSaved } = await refusedWrite(ctx, op, { [field]: value });
          expectError(ctx, reply, 400, "VALIDATION_FAILED", [new RegExp(`^${field}$`)], what);
          await nothingSaved();
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),

  rule({
    id: "catalog.unknown-tag",
    area: "Catalog",
    title: "An unknown tag id answers 400 VALIDATION_FAILED naming that tag, and saves nothing",
    spec: { section: SPEC.productWrite, quote: "Unknown tag id: 400." },
    cost: 20,
    leniency: "The field may name the item (tags.2) or its id (tags.2.id).",
    async run(ctx) {
      const pool = await poolTags(ctx, 3);
      const arb = fc.record({
        op: fc.constantFrom<WriteOp>("create", "update"),
        known: fc.subarray([0, 1, 2]),
        at: fc.nat(3),
      });
      await ctx.property(
        arb,
        async ({ op, known, at }) => {
          const tags = known.map((i) => ({ id: pool[i]!.id }));
          const index = at % (tags.length + 1);
          tags.splice(index, 0, { id: unknownUuid() });
          const { reply, what, nothingSaved } = await refusedWrite(ctx, op, { tags });
          expectError(ctx, reply, 400, "VALIDATION_FAILED", [new RegExp(`^tags\\.${index}(\\.id)?$`)], what);
          await nothingSaved();
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),

  rule({
    id: "catalog.read-document-roundtrip",
    area: "Catalog",
    title: "A read document sent straight back as an update is accepted and changes nothing",
    spec: { section: SPEC.productWrite, quote: "The create and update documents match the read document." },
    cost: 6,
    leniency: "version and updated_at may change; collections compared as sets.",
    choices: ["A write that changes nothing"],
    async run(ctx) {
      const [tag] = await poolTags(ctx, 1);
      const [supplier] = await poolSuppliers(ctx, 1);
      const [part] = await poolProducts(ctx, 1);
      const p = await createProduct(ctx, {
        description: "round trip",
        codes: [{ type: "ean", code: codeValue(ctx, "ean") }],
        tags: [{ id: tag!.id }],
        suppliers: [{ supplier_id: supplier!.id, is_primary: true, supplier_code: "RT" }],
        components: [{ product_id: part!.id, quantity: 1 }],
      });
      const before = await readProduct(ctx, p.id);
      const reply = await ctx.call("PATCH", `/products/${p.id}`, { body: before });
      ctx.check(
        reply.status === 200,
        "PATCH with the read document: status 200",
        `status ${reply.status} ${reply.text.slice(0, 300)}`,
      );
      const after = await readProduct(ctx, p.id);
      const norm = (q: Product) => {
        const { version: _v, updated_at: _u, ...fields } = q;
        const rest: Record<string, unknown> = { ...fields };
        for (const key of ["codes", "tags", "suppliers", "components", "variant_attributes", "variant_options"]) {
          rest[key] = [...(rest[key] as unknown[])].map((x) => canonical(x)).sort();
        }
        return canonical(rest);
      };
      ctx.check(
        norm(after) === norm(before),
        "the product unchanged by its own document",
        `${show(before, 400)} -> ${show(after, 400)}`,
      );
      ctx.check(isUuid(after.id), "a product", show(after));
      ctx.choice(
        "A write that changes nothing",
        after.version === before.version && after.updated_at === before.updated_at,
        `version ${before.version} and updated_at ${before.updated_at} kept`,
        show({ version: after.version, updated_at: after.updated_at }),
      );
    },
  }),
  rule({
    id: "catalog.sku-exact-lookup",
    area: "Catalog",
    title:
      "GET /products?sku= is an exact lookup: it finds the product with that SKU and none whose SKU only starts with or contains it",
    spec: {
      section: SPEC.endpoints,
      quote:
        "GET | /products | catalog:read | query sku (exact lookup), plus list parameters; returns full product documents",
    },
    cost: 14,
    leniency: "The lookup may ignore letter case (docs/spec-choices.md: SKU uniqueness and lookup).",
    async run(ctx) {
      await ctx.property(
        fc.constantFrom("-x", "-extra"),
        async (suffix) => {
          const sku = await freshSku(ctx);
          const exact = await createProduct(ctx, { sku });
          const longer = await createProduct(ctx, { sku: `${sku}${suffix}` });
          const around = await createProduct(ctx, { sku: `x-${sku}` });
          const lookup = async (q: string) => {
            const reply = await ctx.call("GET", `/products?sku=${encodeURIComponent(q)}`);
            ctx.status(reply, 200);
            const rows = rowsOf<Product>(reply);
            if (!rows) throw new Mismatch(`GET /products?sku=${q}: {data: [...]}`, reply.text.slice(0, 200));
            return rows;
          };
          const found = await lookup(sku);
          const others = found.filter((p) => String(p?.sku).toLowerCase() !== sku.toLowerCase());
          ctx.check(
            others.length === 0,
            `GET /products?sku=${sku}: only the product whose SKU is ${sku} (not ${longer.sku} nor ${around.sku})`,
            show(others.map((p) => p?.sku)),
          );
          ctx.check(
            found.some((p) => sameId(p?.id, exact.id)),
            `GET /products?sku=${sku} finding ${exact.id}`,
            show(found.map((p) => p?.id)),
          );
          const prefix = await lookup(`${sku}-`);
          ctx.check(
            prefix.length === 0,
            `GET /products?sku=${sku}- (a prefix of ${longer.sku}, no product's SKU): no product`,
            show(prefix.map((p) => p?.sku)),
          );
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),
];
