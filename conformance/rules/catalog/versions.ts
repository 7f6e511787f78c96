import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import {
  createProduct,
  createTaxon,
  expectError,
  expectNewVersion,
  expectUnchanged,
  freshSku,
  patchProduct,
  poolProducts,
  poolSuppliers,
  poolTags,
  readProduct,
  sameId,
  show,
} from "../support/catalog.js";
import { ours, Poller } from "../support/feed-poller.js";
import { CODE_TYPE_LIST, codeValue } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { errorCode, exactError, type Product } from "../../shapes.js";

// Row versions: optimistic concurrency (Product write rules 6), a new version with every change
// (sub-records included) that moves the product to the end of the feed, and tag or supplier renames.

const CHANGES = [
  "name",
  "price",
  "description",
  "active",
  "add-code",
  "edit-code",
  "tag",
  "supplier",
  "component",
] as const;
type Change = (typeof CHANGES)[number];

/** A PATCH body that certainly changes the product `p` (pool rows: tags, suppliers, parts). */
function changeBody(
  ctx: RuleContext,
  p: Product,
  change: Change,
  pick: number,
  pool: { tags: { id: string }[]; suppliers: { id: string }[]; parts: { id: string }[] },
): Record<string, unknown> {
  const codes = p.codes.map((c) => ({ type: c.type, code: c.code }));
  const toggle = <T>(list: T[], same: (x: T) => boolean, add: T) =>
    list.some(same) ? list.filter((x) => !same(x)) : [...list, add];
  switch (change) {
    case "name":
      return { name: ctx.name("v") };
    case "price":
      return { retail_price: p.retail_price + 1 + pick };
    case "description":
      return { description: ctx.name("d") };
    case "active":
      return { active: !p.active };
    case "add-code": {
      const free = CODE_TYPE_LIST.filter((t) => !codes.some((c) => c.type === t));
      if (free.length === 0) return { codes: codes.slice(1) };
      const type = free[pick % free.length]!;
      return { codes: [...codes, { type, code: codeValue(ctx, type) }] };
    }
    case "edit-code": {
      if (codes.length === 0) return { codes: [{ type: "custom", code: codeValue(ctx, "custom") }] };
      const [first, ...rest] = codes;
      return { codes: [{ type: first!.type, code: codeValue(ctx, first!.type) }, ...rest] };
    }
    case "tag": {
      const tag = pool.tags[pick % pool.tags.length]!;
      const ids = p.tags.map((t) => ({ id: t.id }));
      return { tags: toggle(ids, (t) => sameId(t.id, tag.id), { id: tag.id }) };
    }
    case "supplier": {
      const s = pool.suppliers[pick % pool.suppliers.length]!;
      const links = p.suppliers.map((x) => ({
        supplier_id: x.supplier_id,
        is_primary: false,
        supplier_code: x.supplier_code ?? null,
      }));
      return {
        suppliers: toggle(links, (x) => sameId(x.supplier_id, s.id), {
          supplier_id: s.id,
          is_primary: false,
          supplier_code: null,
        }),
      };
    }
    case "component": {
      const part = pool.parts[pick % pool.parts.length]!;
      const links = p.components.map((c) => ({
        product_id: c.product_id,
        quantity: c.quantity,
      }));
      return {
        components: toggle(links, (c) => sameId(c.product_id, part.id), {
          product_id: part.id,
          quantity: 1 + (pick % 3),
        }),
      };
    }
  }
}

/** docs/spec-choices.md: a version and an expected_version that disagree answer 400 naming expected_version. */
const DISAGREEING = "`version` and `expected_version` disagreeing";

export const versionRules: Rule[] = [
  rule({
    id: "catalog.stale-version",
    area: "Catalog",
    title:
      "An update with an outdated version or expected_version answers 409 STALE_VERSION and saves nothing; the current one is accepted",
    spec: {
      section: SPEC.productWrite,
      quote:
        "Sending version (or expected_version) with an update that no longer matches answers 409 STALE_VERSION. If both are sent they must agree.",
    },
    cost: 40,
    leniency: "version and expected_version that disagree: 400 VALIDATION_FAILED or 409 (spec-choices).",
    choices: [DISAGREEING],
    async run(ctx) {
      const keys = ["version", "expected_version", "both"] as const;
      const arb = fc.record({ key: fc.constantFrom(...keys), price: fc.integer({ min: 1, max: 99_999 }) });
      const stale = async ({ key, price }: { key: (typeof keys)[number]; price: number }) => {
        const sku = await freshSku(ctx);
        const p = await createProduct(ctx, { sku });
        const v1 = p.version as string;
        const second = await patchProduct(ctx, p.id, { name: ctx.name("second") });
        const v2 = expectNewVersion(ctx, second?.version, [v1], "PATCH {name}");
        const guard = (v: string) => (key === "both" ? { version: v, expected_version: v } : { [key]: v });
        const current = await readProduct(ctx, p.id);
        const stale = await ctx.call("PATCH", `/products/${p.id}`, {
          body: { name: ctx.name("stale"), retail_price: price, ...guard(v1) },
        });
        expectError(
          ctx,
          stale,
          409,
          "STALE_VERSION",
          undefined,
          `PATCH with ${key} ${v1} while the product is at ${v2}`,
        );
        await expectUnchanged(ctx, current, "a stale update");
        const name = ctx.name("fresh");
        const fresh = await patchProduct(ctx, p.id, { name, retail_price: price, ...guard(v2) });
        ctx.check(
          fresh?.name === name && fresh?.retail_price === price,
          `the update with the current ${key} applied`,
          show({ name: fresh?.name, retail_price: fresh?.retail_price }),
        );
        const v3 = expectNewVersion(ctx, fresh?.version, [v1, v2], `PATCH with the current ${key}`);
        const now = await readProduct(ctx, p.id);
        const mixed = await ctx.call("PATCH", `/products/${p.id}`, {
          body: { name: ctx.name("mixed"), version: v3, expected_version: v1 },
        });
        ctx.check(
          (mixed.status === 400 && errorCode(mixed) === "VALIDATION_FAILED") ||
            (mixed.status === 409 && ["STALE_VERSION", "CONFLICT"].includes(errorCode(mixed) ?? "")),
          `PATCH with version ${v3} and expected_version ${v1} (they disagree): 400 VALIDATION_FAILED or 409`,
          `status ${mixed.status} ${mixed.text.slice(0, 200)}`,
        );
        ctx.choice(
          DISAGREEING,
          exactError(mixed, 400, "VALIDATION_FAILED", "expected_version"),
          "400 VALIDATION_FAILED naming expected_version",
          `status ${mixed.status} ${mixed.text.slice(0, 200)}`,
        );
        await expectUnchanged(ctx, now, "an update whose versions disagree");
      };
      await ctx.property(arb, stale, Math.min(ctx.run.runs, 4));
      // Then each key once, so a defect in one shows whatever the seed drew.
      for (const key of keys) await stale({ key, price: 100 });
    },
  }),

  rule({
    id: "catalog.version-rises",
    area: "Catalog",
    title:
      "Every change, sub-records included, gives the product a new, higher version and moves it to the end of the feed",
    spec: {
      section: SPEC.resources,
      quote: "Every resource row carries version, an opaque string that increases with every change to that row.",
    },
    cost: 40,
    leniency:
      "Versions compared as numbers when both are decimal strings, otherwise they must differ from every earlier one.",
    async run(ctx) {
      const pool = {
        tags: await poolTags(ctx, 2),
        suppliers: await poolSuppliers(ctx, 2),
        parts: await poolProducts(ctx, 2),
      };
      const arb = fc.array(fc.record({ change: fc.constantFrom(...CHANGES), pick: fc.nat(5) }), {
        minLength: 1,
        maxLength: 5,
      });
      await ctx.property(
        arb,
        async (changes) => {
          const feed = await Poller.atEnd(ctx, false);
          let p = await createProduct(ctx, { codes: [{ type: "upc", code: codeValue(ctx, "upc") }] });
          const ids = new Set([p.id.toLowerCase()]);
          const seen = [p.version as string];
          const expectAtEnd = async (what: string) => {
            const rows = ours(await feed.poll(ctx), ids);
            ctx.check(
              rows.length === 1 && rows[0]?.version === p.version,
              `${what}: the product polled once at version ${p.version}`,
              show(rows.map((r) => ({ id: r.id, version: r.version }))),
            );
          };
          await expectAtEnd("after the create");
          for (const { change, pick } of changes) {
            const body = changeBody(ctx, p, change, pick, pool);
            const next = await patchProduct(ctx, p.id, body);
            expectNewVersion(ctx, next?.version, seen, `${change} ${show(body, 200)}`);
            seen.push(next.version);
            p = next;
            const read = await readProduct(ctx, p.id);
            ctx.check(read.version === p.version, `GET /products/{id} at version ${p.version}`, show(read.version));
            await expectAtEnd(`after ${change}`);
          }
          feed.save(ctx);
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),

  rule({
    id: "catalog.version-on-rename",
    area: "Catalog",
    title: "Renaming an attached tag or supplier gives the product a new version and the new name",
    spec: { section: SPEC.resources, quote: "It also changes when an attached tag or supplier is renamed." },
    cost: 16,
    leniency: "Skipped for a kind whose update path (not shown by the spec) answers 404 or 405.",
    async run(ctx) {
      let tested = 0;
      for (const kind of ["tags", "suppliers"] as const) {
        const row = await createTaxon(ctx, kind);
        const p = await createProduct(
          ctx,
          kind === "tags"
            ? { tags: [{ id: row.id }] }
            : { suppliers: [{ supplier_id: row.id, is_primary: true, supplier_code: null }] },
        );
        const before = await readProduct(ctx, p.id);
        const name = ctx.name("renamed");
        const reply = await ctx.call("PATCH", `/${kind}/${row.id}`, { body: { name } });
        if (reply.status === 404 || reply.status === 405) continue;
        ctx.check(
          reply.status === 200,
          `PATCH /${kind}/{id} {name}: status 200`,
          `status ${reply.status} ${reply.text.slice(0, 200)}`,
        );
        tested++;
        const after = await readProduct(ctx, p.id);
        expectNewVersion(
          ctx,
          after.version,
          [before.version],
          `the product after its ${kind.slice(0, -1)} was renamed`,
        );
        const names = kind === "tags" ? after.tags.map((t) => t.name) : after.suppliers.map((s) => s.supplier_name);
        ctx.check(
          names.length === 1 && names[0] === name,
          `the ${kind.slice(0, -1)} shown by its new name ${name}`,
          show(names),
        );
      }
      if (tested === 0) throw new Skip("the target has no update path for tags or suppliers (not shown by the spec)");
    },
  }),
];
