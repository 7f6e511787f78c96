import { fail, ok } from "../../kernel/result.js";
import { notFound } from "../../contract/errors.js";
import type { saleOperations } from "../../contract/operations/sales.js";
import { listing, through } from "../../engine/listing.js";
import { saleFilter, saleJson, saleSources } from "../../engine/sales/views.js";
import type { HandlerMap } from "./types.js";

export const saleHandlers = {
  // rule sales.polling-each-change-once: the sales feed in change order: a client polling with its cursor sees each change once.
  listSales: (ctx) => {
    const sales = ctx.store.sales;
    const present = (row: Parameters<typeof saleJson>[1]) => saleJson(sales, row);
    return ok(listing(through(sales.sales, saleSources(sales, ctx.query)), present, saleFilter(ctx.query)));
  },
  getSale: (ctx) => {
    const row = ctx.store.sales.sales.row(ctx.params.id);
    // rule sales.open-never-listed: an open (parked) sale cannot be requested either.
    return row && row.value.status !== "open" ? ok(saleJson(ctx.store.sales, row)) : fail(notFound("sale"));
  },
} satisfies HandlerMap<typeof saleOperations>;
