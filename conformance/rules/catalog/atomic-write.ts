import fc from "fast-check";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  poolSuppliers,
  poolTags,
  readProduct,
  trackCreated,
  unknownUuid,
  type WriteOp,
} from "../support/catalog.js";
import { codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";

// Product collections: atomic writes (Product write rules 4).

export const atomicWriteRules: Rule[] = [
  rule({
    id: "catalog.atomic-write",
    area: "Catalog",
    title: "A write with one invalid entry is refused with that entry's error and saves nothing",
    spec: { section: SPEC.productWrite, quote: "A whole write is atomic: if any entry is invalid, nothing is saved." },
    cost: 30,
    async run(ctx) {
      const tags = await poolTags(ctx, 2);
      const [supplier] = await poolSuppliers(ctx, 1);
      const kinds = [
        "unknown-tag",
        "unknown-supplier",
        "unknown-component",
        "unknown-brand",
        "unknown-category",
        "code-type",
        "decimal-loyalty",
        "eleven-codes",
      ] as const;
      const ops = ["create", "update"] as const satisfies readonly WriteOp[];
      const arb = fc.record({
        op: fc.constantFrom(...ops),
        bad: fc.constantFrom(...kinds),
        price: fc.integer({ min: 1, max: 99_999 }),
        tagCount: fc.integer({ min: 0, max: 2 }),
      });
      type Case = { op: WriteOp; bad: (typeof kinds)[number]; price: number; tagCount: number };
      const write = async ({ op, bad, price, tagCount }: Case) => {
        const sku = await freshSku(ctx);
        const body: {
          [field: string]: unknown;
          codes: { type: string; code: string }[];
          tags: { id: string }[];
          suppliers: { supplier_id: string; is_primary: boolean; supplier_code: string | null }[];
        } = {
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
      };
      await ctx.property(arb, write, Math.min(ctx.run.runs, 6));
      // Then every invalid entry once in a create and once in an update, so a defect in one shows whatever the seed drew.
      for (const bad of kinds) for (const op of ops) await write({ op, bad, price: 100, tagCount: 1 });
    },
  }),
];
