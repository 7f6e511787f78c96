import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import { outletIds } from "../support/inventory.js";
import { makeSale, rowKey, salesSetup } from "../support/sales.js";
import { rule, SPEC } from "../rule.js";
import { pageOf, type Sale } from "../../shapes.js";

// Sales list filters beyond those of list.ts: outlet_id. Read-only on any target; with a
// control plane the rule first makes a sale of its own at each of two outlets, so both have one.

/** Pages of 200 read at most per walk: a longer list is compared over its first pages only. */
const MAX_PAGES = 5;

interface Walk {
  readonly rows: Sale[];
  /** True when the walk reached the end of the list (has_more false). */
  readonly complete: boolean;
}

/** GET /sales with `query`, from the start, at most MAX_PAGES pages of 200. */
async function walk(ctx: RuleContext, query: string): Promise<Walk> {
  const rows: Sale[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = [query, "limit=200", cursor ? `cursor=${encodeURIComponent(cursor)}` : ""].filter(Boolean).join("&");
    const reply = await ctx.call("GET", `/sales?${params}`);
    ctx.status(reply, 200);
    const got = pageOf<Sale>(reply);
    if (!got || typeof got.has_more !== "boolean")
      throw new Mismatch(`GET /sales?${params}: a list page {data, next_cursor, has_more}`, reply.text.slice(0, 200));
    rows.push(...got.data);
    if (!got.has_more) return { rows, complete: true };
    cursor = ctx.defined(
      typeof got.next_cursor === "string" ? got.next_cursor : undefined,
      "a next_cursor while has_more is true",
      JSON.stringify(got.next_cursor),
    );
  }
  return { rows, complete: false };
}

const keys = (rows: readonly Sale[]): string[] => rows.map((r) => rowKey(r));

export const outletFilterRules = [
  rule({
    id: "sales.outlet-filter",
    area: "Sales",
    title: "GET /sales?outlet_id= returns every sale of that outlet and no other",
    spec: {
      section: SPEC.endpoints,
      quote:
        "GET | /sales | sales:read | query completed_from, completed_to, status, outlet_id, customer_id, parent_sale_id, plus list parameters",
    },
    cost: 14,
    leniency:
      "Compared with the unfiltered list when it fits in 5 pages of 200; on a longer list, the filtered list must begin with the outlet's sales of those first pages, in order. Sales that change between the two walks may follow at the end of the filtered list. At most three outlets are checked.",
    async run(ctx) {
      const made: { id: string; outlet: string }[] = [];
      if (ctx.hasControl) {
        const s = await salesSetup(ctx);
        const [first, second] = await outletIds(ctx);
        for (const outlet of [first, second]) {
          if (outlet !== undefined) made.push({ id: (await makeSale(ctx, { ...s, outlet }, 1)).id, outlet });
        }
      }
      const outlets = (await outletIds(ctx)).slice(0, 3);
      // Every case checks each outlet, in an order of its own; a failing case replays with its seed and path.
      await ctx.property(
        fc.shuffledSubarray(outlets, { minLength: outlets.length }),
        async (order) => {
          const all = await walk(ctx, "");
          if (all.rows.length === 0)
            throw new Skip("the store has no sales to filter (a control plane lets the rule make some)");
          for (const outlet of order) {
            const filtered = await walk(ctx, `outlet_id=${encodeURIComponent(outlet)}`);
            const foreign = filtered.rows.filter((r) => r?.outlet_id !== outlet);
            ctx.check(
              foreign.length === 0,
              `outlet_id=${outlet}: only sales of that outlet`,
              foreign
                .slice(0, 5)
                .map((r) => `${r?.id} at ${r?.outlet_id}`)
                .join(", "),
            );
            const expected = keys(all.rows.filter((r) => r?.outlet_id === outlet));
            const got = keys(filtered.rows);
            if (all.complete) {
              const missing = expected.filter((k) => !got.includes(k));
              ctx.check(
                missing.length === 0,
                `outlet_id=${outlet}: all ${expected.length} sales of the outlet in the unfiltered list`,
                `missing ${missing.slice(0, 5).join(", ")} (${got.length} returned)`,
              );
            } else {
              const head = got.slice(0, expected.length);
              ctx.check(
                head.join() === expected.join(),
                `outlet_id=${outlet}: begins with the outlet's ${expected.length} sales of the first ${MAX_PAGES} unfiltered pages, in order`,
                `${head.length} rows; first difference at ${head.findIndex((k, i) => k !== expected[i])}`,
              );
            }
            for (const sale of made) {
              if (sale.outlet === outlet)
                ctx.check(
                  filtered.rows.some((r) => r?.id === sale.id) || !filtered.complete,
                  `outlet_id=${outlet}: the sale ${sale.id} made there`,
                  "not listed",
                );
            }
          }
        },
        Math.min(ctx.run.runs, 2),
      );
    },
  }),
];
