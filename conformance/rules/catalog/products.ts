import fc from "fast-check";
import type { Rule } from "../../rule.js";
import {
  bySku,
  createProduct,
  created,
  expectError,
  patchProduct,
  poolProducts,
  poolSuppliers,
  poolTags,
  readProduct,
  sameId,
  show,
  unknownUuid,
  refusedWrite,
  type WriteOp,
} from "../support/catalog.js";
import { codeValue, expectProductShape } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { expectRows, type Product } from "../../shapes.js";

// Product create and read: the minimal create, the document's fields, unknown properties and API-owned
// fields. SKUs, money, unknown tags and sending a read document back are in product-writes.ts.

export const productRules: Rule[] = [
  rule({
    id: "catalog.create-minimal",
    area: "Catalog",
    title: "A product is created from name and retail_price alone, with a generated SKU starting PRD-",
    spec: { section: SPEC.productWrite, quote: "Create needs only name and retail_price." },
    cost: 12,
    leniency: "Success status 200 or 201 (not shown by the spec); any SKU starting with PRD-.",
    async run(ctx) {
      const skus = new Set<string>();
      await ctx.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        async (retail_price) => {
          const name = ctx.name("minimal");
          const body = { name, retail_price };
          const p = created<Product>(
            ctx,
            "/products",
            await ctx.call("POST", "/products", { body }),
            `POST /products ${show(body)}`,
          );
          ctx.check(
            p.name === name && p.retail_price === retail_price,
            `the product as sent: ${show(body)}`,
            show({ name: p.name, retail_price: p.retail_price }),
          );
          ctx.check(
            typeof p.sku === "string" && p.sku.startsWith("PRD-") && p.sku.length > 4,
            "a generated SKU starting with PRD-",
            show(p.sku),
          );
          ctx.check(!skus.has(p.sku), "a new SKU for each product", `${p.sku} again`);
          skus.add(p.sku);
          expectProductShape(ctx, p, "POST /products response");
          const read = await readProduct(ctx, p.id);
          ctx.check(
            read.sku === p.sku &&
              read.name === name &&
              read.retail_price === retail_price &&
              read.version === p.version,
            `GET /products/{id} as created (${show({ sku: p.sku, version: p.version })})`,
            show({ sku: read.sku, name: read.name, retail_price: read.retail_price, version: read.version }),
          );
          const found = await bySku(ctx, p.sku);
          ctx.check(
            found.length === 1 && sameId(found[0]?.id, p.id),
            `GET /products?sku=${p.sku} finding ${p.id}`,
            show(found.map((f) => f.id)),
          );
        },
        Math.min(ctx.run.runs, 3),
      );
    },
  }),

  rule({
    id: "catalog.product-fields",
    area: "Catalog",
    title: "Every Product field is present with its type, and a written product reads back as written",
    spec: {
      section: SPEC.resources,
      quote: "All listed fields are always present in a read; nullable ones are marked.",
    },
    cost: 10,
    leniency: "Extra fields are allowed (later versions only add fields); codes, tags and suppliers compared as sets.",
    async run(ctx) {
      const [tagA, tagB] = await poolTags(ctx, 2);
      const [supA, supB] = await poolSuppliers(ctx, 2);
      const [part] = await poolProducts(ctx, 1);
      const minimal = await createProduct(ctx);
      expectProductShape(ctx, minimal, "a minimal product");
      ctx.check(
        minimal.variant_parent_id === null &&
          Array.isArray(minimal.variant_attributes) &&
          minimal.variant_attributes.length === 0,
        "an ordinary product: variant_parent_id null, variant_attributes []",
        show({ variant_parent_id: minimal.variant_parent_id, variant_attributes: minimal.variant_attributes }),
      );
      const upc = codeValue(ctx, "upc");
      const custom = codeValue(ctx, "custom");
      const written = {
        description: "Written by the conformance suite",
        active: false,
        has_inventory: false,
        retail_price: 4599,
        loyalty_amount: 45,
        sales_account_code: "4000",
        purchase_account_code: "5000",
        weight: 1.5,
        length: 20,
        width: 10.25,
        height: 3,
        weight_unit: "kg",
        dimension_unit: "cm",
        codes: [
          { type: "upc", code: upc },
          { type: "custom", code: custom },
        ],
        tags: [{ id: tagA!.id }, { id: tagB!.id }],
        suppliers: [
          { supplier_id: supA!.id, is_primary: true, supplier_code: "RS-1" },
          { supplier_id: supB!.id, is_primary: false, supplier_code: null },
        ],
        components: [{ product_id: part!.id, quantity: 2 }],
      };
      const rich = await createProduct(ctx, written);
      for (const p of [rich, await readProduct(ctx, rich.id)]) {
        expectProductShape(ctx, p, "a product with every collection");
        for (const key of [
          "description",
          "active",
          "has_inventory",
          "retail_price",
          "loyalty_amount",
          "sales_account_code",
          "purchase_account_code",
          "weight",
          "length",
          "width",
          "height",
          "weight_unit",
          "dimension_unit",
        ] as const) {
          ctx.check(p[key] === written[key], `${key} read back as written: ${show(written[key])}`, show(p[key]));
        }
        const codes = new Set(p.codes.map((c) => `${c.type}:${c.code}`));
        ctx.check(
          codes.size === 2 && codes.has(`upc:${upc}`) && codes.has(`custom:${custom}`),
          `codes upc:${upc} and custom:${custom}`,
          show(p.codes),
        );
        const tags = new Map(p.tags.map((t) => [String(t.id).toLowerCase(), t.name]));
        ctx.check(
          tags.size === 2 &&
            tags.get(tagA!.id.toLowerCase()) === tagA!.name &&
            tags.get(tagB!.id.toLowerCase()) === tagB!.name,
          `tags ${show([tagA, tagB])} with their names`,
          show(p.tags),
        );
        const sups = new Map(p.suppliers.map((s) => [String(s.supplier_id).toLowerCase(), s]));
        const a = sups.get(supA!.id.toLowerCase());
        const b = sups.get(supB!.id.toLowerCase());
        ctx.check(
          sups.size === 2 &&
            a?.is_primary === true &&
            a?.supplier_code === "RS-1" &&
            a?.supplier_name === supA!.name &&
            b?.is_primary === false &&
            (b?.supplier_code === null || b?.supplier_code === undefined) &&
            b?.supplier_name === supB!.name,
          "suppliers as written, with supplier_name on read",
          show(p.suppliers),
        );
        ctx.check(
          p.components.length === 1 && sameId(p.components[0]?.product_id, part!.id) && p.components[0]?.quantity === 2,
          `components [{product_id: ${part!.id}, quantity: 2}]`,
          show(p.components),
        );
      }
      // Read-only: the target's own products carry every field too.
      const page = await ctx.call("GET", "/products?limit=50");
      ctx.status(page, 200);
      for (const p of expectRows<Product>(page, "GET /products?limit=50: {data: [...]}"))
        expectProductShape(ctx, p, `listed product ${p?.id}`);
    },
  }),

  rule({
    id: "catalog.unknown-property",
    area: "Catalog",
    title: "A product write with an unknown property answers 400 VALIDATION_FAILED naming it, and saves nothing",
    spec: { section: SPEC.resources, quote: "No resource accepts unknown properties." },
    cost: 20,
    async run(ctx) {
      const [tag] = await poolTags(ctx, 1);
      const [supplier] = await poolSuppliers(ctx, 1);
      const where = fc.constantFrom("top", "codes", "tags", "suppliers");
      await ctx.property(
        fc.record({
          op: fc.constantFrom<WriteOp>("create", "update"),
          where,
          prop: fc.stringMatching(/^[a-z]{3,10}$/),
        }),
        async ({ op, where, prop }) => {
          const extra = `zz_${prop}`;
          const body: Record<string, unknown> =
            where === "top"
              ? { [extra]: 1 }
              : where === "codes"
                ? { codes: [{ type: "custom", code: codeValue(ctx, "custom"), [extra]: "x" }] }
                : where === "tags"
                  ? { tags: [{ id: tag!.id, [extra]: true }] }
                  : { suppliers: [{ supplier_id: supplier!.id, is_primary: false, supplier_code: null, [extra]: 5 }] };
          const field = where === "top" ? new RegExp(`^${extra}$`) : new RegExp(`^${where}\\.0(\\.${extra})?$`);
          const { reply, what, nothingSaved } = await refusedWrite(ctx, op, body);
          expectError(ctx, reply, 400, "VALIDATION_FAILED", [field], what);
          await nothingSaved();
        },
        Math.min(ctx.run.runs, 5),
      );
      // Then one at the top of a create and of an update, so a defect there shows whatever the seed drew.
      for (const op of ["create", "update"] as const) {
        const { reply, what, nothingSaved } = await refusedWrite(ctx, op, { zz_colour: "red" });
        expectError(ctx, reply, 400, "VALIDATION_FAILED", [/^zz_colour$/], what);
        await nothingSaved();
      }
    },
  }),

  rule({
    id: "catalog.api-owned-ignored",
    area: "Catalog",
    title:
      "API-owned fields (id, created_at, updated_at, image_thumb_url, is_gift_card, variant_options) are accepted and ignored on write",
    spec: {
      section: SPEC.productWrite,
      quote:
        "Fields owned by the API (id, created_at, updated_at, image_thumb_url, is_gift_card, variant_options) are accepted and ignored, so a read document can be sent straight back.",
    },
    cost: 4,
    leniency:
      "is_gift_card: true is only sent with the control plane (a server that honoured it would leave a gift card that cannot be deleted).",
    async run(ctx) {
      const fakeId = unknownUuid();
      const owned = {
        id: fakeId,
        created_at: "2001-02-03T04:05:06Z",
        updated_at: "2001-02-03T04:05:06Z",
        image_thumb_url: "https://example.invalid/rsconf-thumb.png",
        is_gift_card: ctx.hasControl,
        variant_options: [{ attribute_id: unknownUuid(), value: "rsconf" }],
      };
      const p = await createProduct(ctx, owned);
      const sentTime = Date.parse(owned.created_at);
      const ignored = (q: Product) =>
        !sameId(q.id, fakeId) &&
        Date.parse(q.created_at) !== sentTime &&
        Date.parse(q.updated_at) !== sentTime &&
        q.image_thumb_url !== owned.image_thumb_url &&
        q.is_gift_card === false &&
        !q.variant_options.some((o) => o?.value === "rsconf");
      ctx.check(
        ignored(p),
        `the API-owned fields ignored: ${show(owned)}`,
        show({
          id: p.id,
          created_at: p.created_at,
          updated_at: p.updated_at,
          image_thumb_url: p.image_thumb_url,
          is_gift_card: p.is_gift_card,
          variant_options: p.variant_options,
        }),
      );
      const stray = await ctx.call("GET", `/products/${fakeId}`);
      ctx.check(stray.status === 404, `GET /products/${fakeId} (the id sent) 404`, `status ${stray.status}`);
      const after = await patchProduct(ctx, p.id, { ...owned, name: ctx.name("owned") });
      ctx.check(
        after?.id !== undefined &&
          sameId(after.id, p.id) &&
          after.created_at === p.created_at &&
          Date.parse(after.updated_at) !== sentTime &&
          after.is_gift_card === false &&
          after.image_thumb_url === p.image_thumb_url &&
          !after.variant_options.some((o) => o?.value === "rsconf"),
        "PATCH: the API-owned fields ignored",
        show(after),
      );
    },
  }),
];
