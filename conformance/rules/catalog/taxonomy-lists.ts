import type { Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import { createTaxon, expectError, expectNewVersion, sameId, show, trackCreated } from "../support/catalog.js";
import { rule, SPEC } from "../rule.js";
import { expectNoContent } from "./deletes.js";
import { dataOf, type Named, pageOf } from "../../shapes.js";

// Taxonomy lists and names: a deleted brand, category, tag or supplier in its list, and duplicate brand
// and tag names.

export const taxonomyListRules: Rule[] = [
  rule({
    id: "catalog.taxonomy-deleted-rows",
    area: "Catalog",
    title:
      "A deleted brand, category, tag or supplier leaves its list, and with include_deleted=true comes back once in its normal shape, with no marker",
    spec: {
      section: SPEC.paging,
      quote:
        "On products and customers deleted rows are tombstones; on other lists deleted rows return in normal shape with no marker.",
    },
    cost: 24,
    leniency:
      "The list paths of brands, categories, tags and suppliers are not shown by the spec: a kind whose list answers 404 or 405 is left out (all four: skipped).",
    async run(ctx) {
      let tested = 0;
      for (const kind of ["brands", "categories", "tags", "suppliers"] as const) {
        const probe = await ctx.call("GET", `/${kind}?limit=1`);
        if (probe.status === 404 || probe.status === 405) continue;
        ctx.status(probe, 200);
        tested++;
        const row = await createTaxon(ctx, kind);
        expectNoContent(ctx, await ctx.call("DELETE", `/${kind}/${row.id}`), `DELETE /${kind}/{id}`);
        const withDeleted = (await listAll(ctx, `/${kind}?limit=200&include_deleted=true`)).filter((r) =>
          sameId(r?.id, row.id),
        );
        ctx.check(
          withDeleted.length === 1,
          `GET /${kind}?include_deleted=true: the deleted row once`,
          show(withDeleted),
        );
        const shown = withDeleted[0] as Named; // checked: exactly one
        ctx.check(
          shown.name === row.name &&
            typeof shown.version === "string" &&
            !("deleted_at" in shown) &&
            !("deleted" in shown),
          `the deleted row in its normal shape {id, name, ..., version} without a deletion marker`,
          show(shown),
        );
        expectNewVersion(ctx, shown.version, [row.version as string], `the deleted ${kind.slice(0, -1)}`);
        const live = (await listAll(ctx, `/${kind}?limit=200`)).filter((r) => sameId(r?.id, row.id));
        ctx.check(live.length === 0, `GET /${kind}: the deleted row not listed`, show(live));
      }
      if (tested === 0)
        throw new Skip("the target has no list path for brands, categories, tags or suppliers (not shown by the spec)");
    },
  }),

  rule({
    id: "catalog.duplicate-name",
    area: "Catalog",
    title: "Creating a brand or tag with the name of a live one answers 409 CONFLICT",
    spec: {
      section: SPEC.errors,
      quote: "CONFLICT | 409 | collision or rule (SKU in use, duplicate brand or tag name",
    },
    cost: 6,
    async run(ctx) {
      for (const kind of ["brands", "tags"] as const) {
        const first = await createTaxon(ctx, kind);
        const again = await ctx.call("POST", `/${kind}`, { body: { name: first.name } });
        trackCreated(ctx, `/${kind}`, again);
        expectError(ctx, again, 409, "CONFLICT", undefined, `POST /${kind} with the name of ${first.id}`);
        const read = await ctx.call("GET", `/${kind}/${first.id}`);
        ctx.check(
          read.status === 200 && dataOf<Named>(read)?.name === first.name,
          `GET /${kind}/{id}: the first one kept`,
          `status ${read.status} ${read.text.slice(0, 200)}`,
        );
      }
    },
  }),
];

/** Every row of a (small) list, paging to its end. */
async function listAll(ctx: RuleContext, list: string): Promise<Named[]> {
  const rows: Named[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const reply: Reply = await ctx.call("GET", `${list}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    ctx.status(reply, 200);
    const page = pageOf<Named>(reply);
    if (!page) throw new Mismatch(`${list}: {data: [...]}`, reply.text.slice(0, 200));
    rows.push(...page.data);
    if (!page.has_more) return rows;
    cursor = typeof page.next_cursor === "string" ? page.next_cursor : null;
  }
  throw new Error(`${list} did not end after 100 pages`);
}
