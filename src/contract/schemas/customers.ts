import { Type, type Static, type TOptional, type TProperties } from "@sinclair/typebox";
import { DateTime, NeverDeleted, Nullable, Uuid, Version } from "./common.js";
import { component } from "./component.js";

// Spec, Resources: Customer and CustomerGroup.

const Str = (max: number) => Nullable(Type.String({ maxLength: max }));

/**
 * A customer's personal details (spec, Delete rules: customer): what erasure replaces (the code and
 * `first_name`, the one personal field that is never null) or scrubs (every other one).
 */
const personal = {
  customer_code: Type.String({ minLength: 1, maxLength: 100, pattern: "^\\S(.*\\S)?$" }),
  first_name: Type.String({ minLength: 1, maxLength: 255 }),
  last_name: Str(255),
  company_name: Str(255),
  email: Nullable(Type.String({ format: "email", maxLength: 255 })),
  phone: Str(50),
  mobile: Str(50),
  website: Str(255),
  gender: Str(20),
  tax_id: Str(100),
  note: Str(10_000),
  date_of_birth: Nullable(Type.String({ format: "date", description: "YYYY-MM-DD" })),
  address_1: Str(255),
  address_2: Str(255),
  city: Str(255),
  state: Str(255),
  zipcode: Str(50),
  country: Str(100),
  custom_field_1: Str(255),
  custom_field_2: Str(255),
  custom_field_3: Str(255),
  custom_field_4: Str(255),
} satisfies TProperties;

/** The personal fields' names (the journal redacts them, erasure scrubs them). */
export const PERSONAL_FIELDS = Object.keys(personal) as (keyof typeof personal)[];

/** Fields a client writes. */
const writable = {
  customer_group_id: Uuid,
  ...personal,
  on_account_limit: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000_000,
    description: "Account credit limit in integer cents.",
  }),
  enable_loyalty: Type.Boolean(),
  dont_email: Type.Boolean(),
  dont_sms: Type.Boolean(),
} satisfies TProperties;

/** The names of the fields a client writes. */
export const WRITABLE_FIELDS = Object.keys(writable) as (keyof typeof writable)[];

/** Read-only fields: accepted and ignored on write, so a read document can be sent back. */
const readOnly = {
  id: Uuid,
  do_not_sell_share: Type.Boolean({
    description: "Read only: set through the admin UI or a privacy request, never through this API.",
  }),
  is_walk_in: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  version: Type.String(),
} satisfies TProperties;

export const Customer = component(
  "Customer",
  Type.Object(
    {
      id: Uuid,
      ...writable,
      do_not_sell_share: readOnly.do_not_sell_share,
      is_walk_in: readOnly.is_walk_in,
      created_at: DateTime,
      updated_at: DateTime,
      version: Version,
      deleted_at: NeverDeleted,
    },
    { additionalProperties: false },
  ),
);
export type Customer = Static<typeof Customer>;

const optionalAll = <T extends TProperties>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

// rule customers.unknown-property: a customer create is closed (additionalProperties false): an unknown property is 400 naming it.
export const CustomerCreate = component(
  "CustomerCreate",
  Type.Object(
    { ...optionalAll(readOnly), ...optionalAll(writable), first_name: writable.first_name },
    { additionalProperties: false },
  ),
);
export type CustomerCreate = Static<typeof CustomerCreate>;

export const CustomerUpdate = component(
  "CustomerUpdate",
  Type.Object(
    {
      ...optionalAll(readOnly),
      ...optionalAll(writable),
      version: Type.Optional(
        Type.String({ description: "Refuse the update with STALE_VERSION unless the customer is at this version." }),
      ),
      expected_version: Type.Optional(
        Type.String({ description: "Same as version; if both are sent they must agree." }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type CustomerUpdate = Static<typeof CustomerUpdate>;

export const CustomerGroup = component(
  "CustomerGroup",
  Type.Object({ id: Uuid, name: Type.String(), version: Version }, { additionalProperties: false }),
);
export type CustomerGroup = Static<typeof CustomerGroup>;
