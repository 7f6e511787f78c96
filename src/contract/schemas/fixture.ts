import { Type, type Static } from "@sinclair/typebox";
import { SCOPES } from "../scopes.js";
import { PLANS, STORE_STATUSES } from "../store-states.js";
import { StringEnum } from "./enum.js";

// The fixture format of `--fixture <path.json>`. The built-in fixtures (demo, empty) are values of it.
// Ids and tokens are not part of a fixture: they derive from the seed (a key may pin its token).

const Lit = StringEnum;
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const FixtureKey = Type.Object(
  {
    name: Name,
    scopes: Type.Array(Lit(SCOPES), { uniqueItems: true }),
    token: Type.Optional(Type.String({ pattern: "^[\\x21-\\x7E]{16,512}$" })),
  },
  { additionalProperties: false },
);

/** Stock at outlets named by name; `average_cost` in cents. */
const FixtureStock = Type.Array(
  Type.Object(
    {
      outlet: Name,
      on_hand: Type.Number({ minimum: 0, decimals: 3 }),
      average_cost: Type.Optional(Type.Integer({ minimum: 0 })),
      reorder_point: Type.Optional(Type.Number({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
);

const FixtureProduct = Type.Object(
  {
    sku: Type.String({ minLength: 1, maxLength: 255 }),
    name: Name,
    retail_price: Type.Integer({ minimum: 0 }),
    description: Type.Optional(Type.String()),
    active: Type.Optional(Type.Boolean()),
    has_inventory: Type.Optional(Type.Boolean()),
    is_gift_card: Type.Optional(Type.Boolean()),
    brand: Type.Optional(Name),
    category: Type.Optional(Name),
    tags: Type.Optional(Type.Array(Name)),
    suppliers: Type.Optional(
      Type.Array(
        Type.Object(
          { name: Name, is_primary: Type.Optional(Type.Boolean()), supplier_code: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      ),
    ),
    codes: Type.Optional(
      Type.Array(
        Type.Object(
          { type: Lit(["upc", "isbn", "itf", "ean", "jan", "custom"] as const), code: Name },
          { additionalProperties: false },
        ),
      ),
    ),
    image: Type.Optional(Type.Boolean({ description: "Give the product a stored image." })),
    stock: Type.Optional(FixtureStock),
    components: Type.Optional(
      Type.Array(
        Type.Object({ sku: Name, quantity: Type.Number({ exclusiveMinimum: 0 }) }, { additionalProperties: false }),
      ),
    ),
    variant_attributes: Type.Optional(Type.Array(Name, { maxItems: 3 })),
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          {
            values: Type.Array(Name, { minItems: 1, maxItems: 3 }),
            sku: Name,
            retail_price: Type.Optional(Type.Integer({ minimum: 0 })),
            active: Type.Optional(Type.Boolean()),
            stock: Type.Optional(FixtureStock),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export const FixtureCatalog = Type.Object(
  {
    brands: Type.Optional(
      Type.Array(
        Type.Object({ name: Name, description: Type.Optional(Type.String()) }, { additionalProperties: false }),
      ),
    ),
    categories: Type.Optional(
      Type.Array(Type.Object({ name: Name, parent: Type.Optional(Name) }, { additionalProperties: false })),
    ),
    tags: Type.Optional(Type.Array(Name)),
    suppliers: Type.Optional(Type.Array(Name)),
    products: Type.Optional(Type.Array(FixtureProduct)),
  },
  { additionalProperties: false },
);
export type FixtureCatalog = Static<typeof FixtureCatalog>;
export type FixtureProduct = Static<typeof FixtureProduct>;

export const FixtureCustomer = Type.Object(
  {
    customer_code: Name,
    first_name: Name,
    last_name: Type.Optional(Name),
    company_name: Type.Optional(Name),
    email: Type.Optional(Name),
    phone: Type.Optional(Name),
    city: Type.Optional(Name),
    country: Type.Optional(Name),
    date_of_birth: Type.Optional(Type.String({ format: "date" })),
    group: Type.Optional(Name),
    enable_loyalty: Type.Optional(Type.Boolean()),
    dont_email: Type.Optional(Type.Boolean()),
    dont_sms: Type.Optional(Type.Boolean()),
    do_not_sell_share: Type.Optional(
      Type.Boolean({ description: "Set only through the admin UI or a privacy request: here, the fixture." }),
    ),
    on_account_limit: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type FixtureCustomer = Static<typeof FixtureCustomer>;

const SkuQuantity = Type.Object(
  { sku: Name, quantity: Type.Number({ exclusiveMinimum: 0, decimals: 3 }) },
  { additionalProperties: false },
);

/** A sale made `hours_ago` before the simulator starts; refunds and voids happen later, still in the past. */
export const FixtureSale = Type.Object(
  {
    outlet: Name,
    customer: Type.Optional(Name),
    hours_ago: Type.Number({ minimum: 0 }),
    lines: Type.Array(
      Type.Object(
        {
          sku: Name,
          quantity: Type.Number({ exclusiveMinimum: 0, decimals: 3 }),
          unit_price: Type.Optional(Type.Integer({ minimum: 0 })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    payment: Type.Optional(Name),
    refund: Type.Optional(Type.Union([Type.Literal("all"), Type.Array(SkuQuantity, { minItems: 1 })])),
    refund_hours_ago: Type.Optional(Type.Number({ minimum: 0 })),
    void: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type FixtureSale = Static<typeof FixtureSale>;

export const FixtureStore = Type.Object(
  {
    prefix: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,62}$" }),
    name: Name,
    plan: Type.Optional(Lit(PLANS)),
    status: Type.Optional(Lit(STORE_STATUSES)),
    product_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    currency: Type.Optional(Type.String({ pattern: "^[A-Z]{3}$" })),
    timezone: Type.Optional(Name),
    country: Type.Optional(Type.String({ pattern: "^[A-Z]{2}$" })),
    taxes: Type.Array(
      Type.Object({ name: Name, rate: Type.Number({ minimum: 0, maximum: 1 }) }, { additionalProperties: false }),
      {
        minItems: 1,
      },
    ),
    outlets: Type.Array(
      Type.Object(
        {
          name: Name,
          timezone: Type.Optional(Name),
          status: Type.Optional(Lit(["active", "inactive"] as const)),
          default_tax: Type.Optional(Name),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    payment_types: Type.Array(
      Type.Object({ name: Name, enabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    ),
    adjustment_reasons: Type.Array(
      Type.Object(
        { name: Name, type: Lit(["increase", "decrease", "any"] as const), enabled: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ),
    keys: Type.Array(FixtureKey),
    catalog: Type.Optional(FixtureCatalog),
    customer_groups: Type.Optional(Type.Array(Name)),
    customers: Type.Optional(Type.Array(FixtureCustomer)),
    sales: Type.Optional(Type.Array(FixtureSale)),
  },
  { additionalProperties: false },
);

export const FixtureSpec = Type.Object(
  {
    stores: Type.Array(FixtureStore, { minItems: 1 }),
    users: Type.Array(
      Type.Object(
        {
          email: Type.String({ minLength: 3, maxLength: 200 }),
          store_prefix: Type.String(),
          role: Lit(["admin", "user"] as const),
          password: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 200,
              description: "Sign-in password of the consent page; default retail-sim.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    oauth_clients: Type.Array(
      Type.Object(
        { name: Name, redirect_uris: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type FixtureSpec = Static<typeof FixtureSpec>;
export type FixtureStore = Static<typeof FixtureStore>;
