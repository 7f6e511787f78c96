import { fail, ok } from "../../kernel/result.js";
import { notFound } from "../../contract/errors.js";
import type { customerOperations } from "../../contract/operations/customers.js";
import {
  createCustomer,
  customerGroupView,
  customerView,
  eraseCustomer,
  updateCustomer,
  type CustomerContext,
} from "../../engine/customers/operations.js";
import { personalSubject } from "../../engine/idempotency.js";
import { listing } from "../../engine/listing.js";
import { stringifyPayload } from "../../kernel/raw-json.js";
import type { HandlerMap, RequestContext } from "./types.js";

const customerContext = (ctx: RequestContext): CustomerContext => ({
  store: ctx.store,
  ids: ctx.world.env.ids,
  now: ctx.now,
});

export const customerHandlers = {
  listCustomers: (ctx) => ok(listing(ctx.store.customers.customers, customerView)),
  createCustomer: (ctx) => {
    const result = createCustomer(customerContext(ctx), ctx.body);
    return result.ok ? ok(customerView(result.value)) : result;
  },
  getCustomer: (ctx) => {
    const row = ctx.store.customers.customers.row(ctx.params.id);
    return row && row.deletedAt === null ? ok(customerView(row)) : fail(notFound("customer"));
  },
  updateCustomer: (ctx) => {
    const result = updateCustomer(customerContext(ctx), ctx.params.id, ctx.body);
    return result.ok ? ok(customerView(result.value)) : result;
  },
  deleteCustomer: (ctx) => {
    const erased = eraseCustomer(customerContext(ctx), ctx.params.id);
    // Spec, Customers: erasure reaches stored replays too: each answer that showed the customer now
    // shows it as it reads after erasure (docs/spec-choices.md, Idempotency).
    const row = ctx.store.customers.customers.row(ctx.params.id);
    if (erased.ok && row)
      ctx.world.idempotency.rewrite(personalSubject("customer", row.id), stringifyPayload({ data: customerView(row) }));
    return erased;
  },
  listCustomerGroups: (ctx) => ok(listing(ctx.store.customers.groups, customerGroupView)),
  getCustomerGroup: (ctx) => {
    const row = ctx.store.customers.groups.row(ctx.params.id);
    return row && row.deletedAt === null ? ok(customerGroupView(row)) : fail(notFound("customer group"));
  },
} satisfies HandlerMap<typeof customerOperations>;
