import { fail, ok } from "../../kernel/result.js";
import { invalid, notFound } from "../../contract/errors.js";
import type { SalesQuery } from "../../contract/schemas/sales.js";
import { listFeed, listParams, through } from "../../engine/listing.js";
import { saleFilter, saleJson, saleSources } from "../../engine/sales/views.js";
import type { Handler } from "./types.js";

export const saleHandlers = {
  listSales: (ctx) => {
    // Spec, Sales list rules 3: include_deleted on sales answers 400 (sales are never deleted).
    if (ctx.query.include_deleted !== undefined)
      return fail(invalid("include_deleted", "is not accepted on sales: sales are never deleted"));
    const query = ctx.query as SalesQuery;
    return listFeed(
      through(ctx.store.sales.sales, saleSources(ctx.store.sales, query)),
      listParams(ctx.query),
      (row) => saleJson(ctx.store.sales, row),
      saleFilter(query),
    );
  },
  getSale: (ctx) => {
    const row = ctx.store.sales.sales.row(ctx.params.id as string);
    // Spec, States: an open (parked) sale cannot be requested.
    return row && row.value.status !== "open" ? ok(saleJson(ctx.store.sales, row)) : fail(notFound("sale"));
  },
} satisfies Record<string, Handler>;
