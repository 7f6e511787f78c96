import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import type { Rule } from "../../rule.js";
import { makeSale, poll, readSale, salesSetup } from "../support/sales.js";
import { rule, SPEC } from "../rule.js";
import { controlDocOf, dataOf, errorCode, type Sale } from "../../shapes.js";

// Spec, Endpoints and States: sales cannot be written or deleted through the API, and open (parked)
// sales are never returned by the sales list.

const STATUSES = ["completed", "partially_refunded", "refunded", "voided"] as const;
/** docs/spec-choices.md, Routes and scopes: a route the API does not have answers 404 NOT_FOUND. */
const UNKNOWN_ROUTE = "Unknown path, or a known path with another method";

/** JSON with keys sorted, so two documents compare whatever their key order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );

/** A write the API does not offer: refused as an unknown route (404, 405) or for want of a scope that does not exist (403). */
function notOffered(ctx: RuleContext, reply: Reply, what: string): void {
  ctx.check(
    [403, 404, 405].includes(reply.status),
    `${what}: refused (403, 404 or 405), sales being read only`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  ctx.choice(
    UNKNOWN_ROUTE,
    reply.status === 404 && errorCode(reply) === "NOT_FOUND",
    `${what}: 404 NOT_FOUND`,
    `status ${reply.status} ${errorCode(reply)}`,
  );
}

export const openAndReadOnlyRules: Rule[] = [
  rule({
    id: "sales.read-only",
    area: "Sales",
    title:
      "Sales are read only and never deleted: DELETE and PATCH of a sale and POST /sales are refused, and the sale reads as before",
    spec: { section: SPEC.what, quote: "Sales are never deleted." },
    needs: { control: true },
    cost: 12,
    choices: [UNKNOWN_ROUTE],
    leniency:
      "The refusal may be 404 or 405 (no such operation) or 403; the sale is made through the control plane, so a server that wrongly deletes it loses only the run's own sale.",
    async run(ctx) {
      const s = await salesSetup(ctx);
      const sale = await makeSale(ctx, s, 1);
      const before = await readSale(ctx, sale.id);
      notOffered(ctx, await ctx.call("DELETE", `/sales/${sale.id}`), "DELETE /sales/{id}");
      notOffered(
        ctx,
        await ctx.call("PATCH", `/sales/${sale.id}`, { body: { status: "voided" } }),
        "PATCH /sales/{id}",
      );
      notOffered(
        ctx,
        await ctx.call("POST", "/sales", {
          body: {
            outlet_id: s.outlet,
            customer_id: s.customer,
            lines: [{ product_id: s.product, quantity: 1, unit_price: 100 }],
          },
        }),
        "POST /sales",
      );
      const after = await ctx.call("GET", `/sales/${sale.id}`);
      ctx.check(
        after.status === 200 && canonical(dataOf<Sale>(after)) === canonical(before),
        `GET /sales/${sale.id}: the sale as before, at version ${before.version}`,
        `status ${after.status} ${after.text.slice(0, 200)}`,
      );
      const listed = await poll<Sale>(ctx, "/sales", `customer_id=${s.customer}`, null);
      ctx.check(
        listed.rows.some((r) => r?.id === sale.id),
        `the sale ${sale.id} still listed`,
        listed.rows.map((r) => r?.id).join(", "),
      );
    },
  }),

  rule({
    id: "sales.open-never-listed",
    area: "Sales",
    title: "An open (parked) sale is never returned by the sales list, with or without a status filter",
    spec: {
      section: SPEC.states,
      quote: "open (a parked sale) is never returned by the list by default and cannot be requested.",
    },
    needs: { control: true },
    cost: 12,
    leniency:
      "The parked sale is made through the control plane (POST /_sim/stores/{prefix}/sales with parked: true); reading it by id is not checked.",
    async run(ctx) {
      const s = await salesSetup(ctx);
      const made = await ctx.control("POST", `/stores/${s.prefix}/sales`, {
        outlet_id: s.outlet,
        customer_id: s.customer,
        lines: [{ product_id: s.product, quantity: 1, unit_price: 500 }],
        parked: true,
      });
      if (made.status !== 200 && made.status !== 201)
        throw new Skip(`the control plane cannot park a sale (status ${made.status})`);
      const id = controlDocOf(made)?.id;
      ctx.check(typeof id === "string", "the parked sale from the control plane", made.text.slice(0, 200));
      const all = await poll<Sale>(ctx, "/sales", `customer_id=${s.customer}`, null);
      const open = all.rows.filter((r) => r?.id === id || r?.status === "open");
      ctx.check(
        open.length === 0,
        `GET /sales?customer_id=${s.customer}: no open sale (parked ${id})`,
        open.map((r) => `${r.id}: ${r.status}`).join(", "),
      );
      for (const status of STATUSES) {
        const page = await poll<Sale>(ctx, "/sales", `customer_id=${s.customer}&status=${status}`, null);
        ctx.check(
          !page.rows.some((r) => r?.id === id),
          `GET /sales?status=${status}: not the parked sale ${id}`,
          page.rows.map((r) => r?.id).join(", "),
        );
      }
    },
  }),
];
