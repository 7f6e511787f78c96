import { fail, ok } from "../../kernel/result.js";
import { invalid, notFound } from "../../contract/errors.js";
import type { saleOperations } from "../../contract/operations/sales.js";
import { listing, through } from "../../engine/listing.js";
import { saleFilter, saleJson, saleSources } from "../../engine/sales/views.js";
import type { HandlerMap } from "./types.js";

export const saleHandlers = {
  listSales: (ctx) => {
    // Spec, Sales list rules 3: include_deleted on sales answers 400 (sales are never deleted).
    if (ctx.query.include_deleted !== undefined)
      return fail(invalid("include_deleted", "is not accepted on sales: sales are never deleted"));
    const sales = ctx.store.sales;
    const present = (row: Parameters<typeof saleJson>[1]) => saleJson(sales, row);
    return ok(listing(through(sales.sales, saleSources(sales, ctx.query)), present, saleFilter(ctx.query)));
  },
  getSale: (ctx) => {
    const row = ctx.store.sales.sales.row(ctx.params.id);
    // Spec, States: an open (parked) sale cannot be requested.
    return row && row.value.status !== "open" ? ok(saleJson(ctx.store.sales, row)) : fail(notFound("sale"));
  },
} satisfies HandlerMap<typeof saleOperations>;
