import { fail, ok } from "../../kernel/result.js";
import { notFound } from "../../contract/errors.js";
import type { CustomerCreate, CustomerUpdate } from "../../contract/schemas/customers.js";
import {
  createCustomer,
  customerGroupView,
  customerView,
  eraseCustomer,
  updateCustomer,
  type CustomerContext,
} from "../../engine/customers/operations.js";
import { listFeed, listParams, withTombstones } from "../../engine/listing.js";
import type { Handler, HandlerContext } from "./types.js";

const customerContext = (ctx: HandlerContext): CustomerContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  now: ctx.now,
});
const idOf = (ctx: HandlerContext) => ctx.params.id as string;

export const customerHandlers = {
  listCustomers: (ctx) => listFeed(ctx.store.customers.customers, listParams(ctx.query), withTombstones(customerView)),
  createCustomer: (ctx) => {
    const result = createCustomer(customerContext(ctx), ctx.body as CustomerCreate);
    return result.ok ? ok(customerView(result.value)) : result;
  },
  getCustomer: (ctx) => {
    const row = ctx.store.customers.customers.row(idOf(ctx));
    return row && row.deletedAt === null ? ok(customerView(row)) : fail(notFound("customer"));
  },
  updateCustomer: (ctx) => {
    const result = updateCustomer(customerContext(ctx), idOf(ctx), ctx.body as CustomerUpdate);
    return result.ok ? ok(customerView(result.value)) : result;
  },
  deleteCustomer: (ctx) => eraseCustomer(customerContext(ctx), idOf(ctx)),
  listCustomerGroups: (ctx) => listFeed(ctx.store.customers.groups, listParams(ctx.query), customerGroupView),
  getCustomerGroup: (ctx) => {
    const row = ctx.store.customers.groups.row(idOf(ctx));
    return row && row.deletedAt === null ? ok(customerGroupView(row)) : fail(notFound("customer group"));
  },
} satisfies Record<string, Handler>;
