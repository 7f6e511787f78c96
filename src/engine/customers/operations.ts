import { iso } from "../../kernel/clock.js";
import { fail, ok, type Result } from "../../kernel/result.js";
import type { Rng } from "../../kernel/random.js";
import { apiError, fieldError, notFound, type ApiError } from "../../contract/errors.js";
import {
  type Customer,
  type CustomerCreate,
  type CustomerGroup,
  type CustomerUpdate,
  PERSONAL_FIELDS,
  WRITABLE_FIELDS,
} from "../../contract/schemas/customers.js";
import { versionOf, type Row } from "../feed.js";
import { checkVersion } from "../versions.js";
import type { AreaContext } from "../context.js";
import type { CustomerGroupRecord, CustomerRecord, CustomerState } from "./state.js";

const WRITABLE = WRITABLE_FIELDS satisfies readonly (keyof CustomerRecord & keyof CustomerUpdate)[];

/** Personal details scrubbed by erasure (spec, Delete rules: customer): every nullable personal field. */
export const PERSONAL = PERSONAL_FIELDS.filter(
  (k): k is Exclude<typeof k, "customer_code" | "first_name"> => k !== "customer_code" && k !== "first_name",
);

/** A customer operation needs its store, the id stream and the time. */
export type CustomerContext = AreaContext;

export function newCustomerRecord(
  id: string,
  code: string,
  firstName: string,
  groupId: string,
  now: number,
): CustomerRecord {
  const nulls = Object.fromEntries(PERSONAL.map((k) => [k, null])) as Record<(typeof PERSONAL)[number], null>;
  return {
    id,
    customer_group_id: groupId,
    customer_code: code,
    first_name: firstName,
    ...nulls,
    on_account_limit: 0,
    enable_loyalty: false,
    dont_email: false,
    dont_sms: false,
    do_not_sell_share: false,
    is_walk_in: false,
    created_at: now,
    updated_at: now,
  };
}

function generateCode(state: CustomerState, ids: Rng): string {
  for (;;) {
    const code = `CUS-${ids.token(8).toUpperCase()}`;
    if (!state.codes.has(code.toLowerCase())) return code;
  }
}

/** The record after the write, or the refusal: a code in use (409), an unknown group (422). */
function plan(ctx: CustomerContext, base: CustomerRecord, body: CustomerUpdate): Result<CustomerRecord, ApiError> {
  const state = ctx.store.customers;
  const next: Record<string, unknown> = { ...base };
  // rule customers.do-not-sell-share-read-only: only writable fields are copied: do_not_sell_share is accepted and ignored.
  for (const key of WRITABLE) if (body[key] !== undefined) next[key] = body[key];
  const record = next as unknown as CustomerRecord;
  const holder = state.codes.get(record.customer_code.toLowerCase());
  if (holder !== undefined && holder !== record.id)
    // rule customers.code-conflict: a customer_code in use by another customer is 409 CONFLICT.
    return fail(fieldError("CONFLICT", "customer_code", "is in use by another customer"));
  if (!state.groups.live(record.customer_group_id))
    return fail(fieldError("UNPROCESSABLE", "customer_group_id", "is not a customer group of this store"));
  return ok({ ...record, customer_group_id: record.customer_group_id.toLowerCase() });
}

export function createCustomer(ctx: CustomerContext, body: CustomerCreate): Result<Row<CustomerRecord>, ApiError> {
  const state = ctx.store.customers;
  const base = newCustomerRecord(
    ctx.ids.uuid(),
    body.customer_code ?? generateCode(state, ctx.ids),
    body.first_name,
    state.defaultGroupId,
    ctx.now,
  );
  const planned = plan(ctx, base, body);
  if (!planned.ok) return planned;
  state.save(planned.value);
  return ok(state.customers.row(planned.value.id) as Row<CustomerRecord>);
}

export function updateCustomer(
  ctx: CustomerContext,
  id: string,
  body: CustomerUpdate,
): Result<Row<CustomerRecord>, ApiError> {
  const state = ctx.store.customers;
  const row = state.customers.row(id);
  if (!row || row.deletedAt !== null) return fail(notFound("customer"));
  const current = checkVersion(body, row, "customer");
  if (!current.ok) return current;
  const planned = plan(ctx, row.value, body);
  if (!planned.ok) return planned;
  if (JSON.stringify(planned.value) === JSON.stringify(row.value)) return ok(row);
  state.save({ ...planned.value, updated_at: ctx.now });
  return ok(state.customers.row(id) as Row<CustomerRecord>);
}

/**
 * rule customers.erasure: marked deleted; name, email, phone, address and every other personal
 * detail scrubbed; customer_code replaced by a placeholder; irreversible; the walk-in customer is refused.
 */
export function eraseCustomer(ctx: CustomerContext, id: string): Result<undefined, ApiError> {
  const state = ctx.store.customers;
  const customer = state.customers.live(id);
  if (!customer) return fail(notFound("customer"));
  // rule customers.walk-in-undeletable: the walk-in customer cannot be deleted: 409 CONFLICT.
  if (customer.is_walk_in) return fail(apiError("CONFLICT", "The walk-in customer cannot be deleted."));
  const scrubbed = newCustomerRecord(
    customer.id,
    `ERASED-${ctx.ids.token(10).toUpperCase()}`,
    "Erased",
    customer.customer_group_id,
    customer.created_at,
  );
  state.codes.delete(customer.customer_code.toLowerCase());
  // Kept: the group, the account limit and the flags (a privacy preference is never flipped by erasure).
  const { on_account_limit, enable_loyalty, dont_email, dont_sms, do_not_sell_share } = customer;
  state.customers.put(customer.id, {
    ...scrubbed,
    on_account_limit,
    enable_loyalty,
    dont_email,
    dont_sms,
    do_not_sell_share,
    updated_at: ctx.now,
  });
  // rule customers.delete-tombstone: the customer is marked deleted: 404 from now on, a tombstone in include_deleted lists.
  // rule customers.erasure-sales-remain: sales are not touched: they still name the customer's id.
  state.customers.markDeleted(customer.id, ctx.now);
  return ok(undefined);
}

// rule customers.create-fields: every Customer field of the spec's table, always present.
export const customerView = ({ value: c, seq }: Row<CustomerRecord>): Customer => ({
  id: c.id,
  customer_group_id: c.customer_group_id,
  customer_code: c.customer_code,
  first_name: c.first_name,
  last_name: c.last_name,
  company_name: c.company_name,
  email: c.email,
  phone: c.phone,
  mobile: c.mobile,
  website: c.website,
  gender: c.gender,
  tax_id: c.tax_id,
  note: c.note,
  date_of_birth: c.date_of_birth,
  address_1: c.address_1,
  address_2: c.address_2,
  city: c.city,
  state: c.state,
  zipcode: c.zipcode,
  country: c.country,
  custom_field_1: c.custom_field_1,
  custom_field_2: c.custom_field_2,
  custom_field_3: c.custom_field_3,
  custom_field_4: c.custom_field_4,
  on_account_limit: c.on_account_limit,
  enable_loyalty: c.enable_loyalty,
  dont_email: c.dont_email,
  dont_sms: c.dont_sms,
  do_not_sell_share: c.do_not_sell_share,
  is_walk_in: c.is_walk_in,
  created_at: iso(c.created_at),
  updated_at: iso(c.updated_at),
  version: versionOf({ seq }),
});

export const customerGroupView = ({ value: g, seq }: Row<CustomerGroupRecord>): CustomerGroup => ({
  id: g.id,
  name: g.name,
  version: versionOf({ seq }),
});
