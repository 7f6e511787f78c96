import { Type, type Static, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";
import { PLANS, STORE_STATUSES } from "../store-states.js";
import { CODE_TYPES } from "./catalog.js";

// The stores of a snapshot (snapshot.ts): each store's settings and every row of its feeds as the
// simulator holds them, with their versions (sequence numbers) and deletion times, in change order.
// Amounts are integer cents, quantities integer thousandths, times milliseconds since the epoch.

/** A row id the simulator made: a lower-case UUID. */
export const SnapId = Type.String({ pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" });
/** Milliseconds since the epoch, within what a JavaScript date can hold. */
export const SnapTime = Type.Integer({ minimum: -8.64e15, maximum: 8.64e15 });
/** A store's change sequence number: a row's version. */
export const SnapSeq = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
/** A store prefix: the fixture's, with a sandbox's `-<id>` after it. */
export const SnapPrefix = Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$", maxLength: 200 });
const Int = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
const Text = Type.String();
/** A value or null. */
export const OrNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/**
 * One of some strings, as a union of literals: the snapshot's schema uses TypeBox's own kinds only, so
 * its compiled checker (check.ts) runs without a JSON Schema engine.
 */
export const OneOf = <const T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> =>
  Type.Union(values.map((value) => Type.Literal(value)));
const Strict = { additionalProperties: false } as const;

/** One row of a feed: its latest change's sequence number, when it was deleted (null: live), and what it holds. */
const Row = <T extends TSchema>(value: T) =>
  Type.Array(Type.Object({ seq: SnapSeq, deleted_at: OrNull(SnapTime), value }, Strict));

const Outlet = Type.Object(
  { id: SnapId, name: Text, timezone: Text, status: OneOf(["active", "inactive"]), default_tax_id: SnapId },
  Strict,
);
const PaymentType = Type.Object({ id: SnapId, name: Text, enabled: Type.Boolean() }, Strict);
const Tax = Type.Object({ id: SnapId, name: Text, rate: Type.Number({ minimum: 0, maximum: 1 }) }, Strict);
const Reason = Type.Object(
  {
    id: SnapId,
    name: Text,
    type: OneOf(["increase", "decrease", "any"]),
    is_system: Type.Boolean(),
    enabled: Type.Boolean(),
  },
  Strict,
);

const Product = Type.Object(
  {
    id: SnapId,
    sku: Text,
    name: Text,
    description: OrNull(Text),
    active: Type.Boolean(),
    is_gift_card: Type.Boolean(),
    has_inventory: Type.Boolean(),
    has_variants: Type.Boolean(),
    variant_parent_id: OrNull(SnapId),
    brand_id: OrNull(SnapId),
    category_id: SnapId,
    retail_price: Int,
    loyalty_amount: OrNull(Int),
    sales_account_code: OrNull(Text),
    purchase_account_code: OrNull(Text),
    weight: OrNull(Type.Number()),
    length: OrNull(Type.Number()),
    width: OrNull(Type.Number()),
    height: OrNull(Type.Number()),
    weight_unit: OrNull(Text),
    dimension_unit: OrNull(Text),
    image_id: OrNull(SnapId),
    codes: Type.Array(Type.Object({ id: SnapId, type: OneOf(CODE_TYPES), code: Text }, Strict)),
    tag_ids: Type.Array(SnapId),
    suppliers: Type.Array(
      Type.Object({ supplier_id: SnapId, is_primary: Type.Boolean(), supplier_code: OrNull(Text) }, Strict),
    ),
    variant_options: Type.Array(Type.Object({ attribute_id: SnapId, value: Text }, Strict)),
    variant_attributes: Type.Array(Type.Object({ id: SnapId, name: Text, position: Int }, Strict)),
    components: Type.Array(Type.Object({ product_id: SnapId, quantity: Type.Number() }, Strict)),
    created_at: SnapTime,
    updated_at: SnapTime,
  },
  Strict,
);
const Brand = Type.Object({ id: SnapId, name: Text, description: OrNull(Text) }, Strict);
const Category = Type.Object(
  {
    id: SnapId,
    name: Text,
    parent_id: OrNull(SnapId),
    depth: Type.Integer({ minimum: 0, maximum: 1000 }),
    system: OrNull(OneOf(["other", "gift_cards"])),
  },
  Strict,
);
const Named = Type.Object({ id: SnapId, name: Text }, Strict);
/** A lookup kept in step with the writes, as pairs in the order they were made: `[name, id]`. */
const Pairs = Type.Array(Type.Tuple([Text, SnapId]));
/** A grouping kept in step with the writes: `[key, [ids in the order added]]`. */
const Groups = Type.Array(Type.Tuple([SnapId, Type.Array(SnapId)]));

const Level = Type.Object(
  {
    product_id: SnapId,
    level: Type.Object(
      {
        outlet_id: SnapId,
        on_hand: Int,
        average_cost: Int,
        reorder_method: Text,
        reorder_point: OrNull(Int),
        reorder_amount: OrNull(Int),
        reorder_target: OrNull(Int),
        seq: SnapSeq,
      },
      Strict,
    ),
  },
  Strict,
);
const Movement = Type.Object(
  {
    id: SnapId,
    movement_id: SnapId,
    product_id: SnapId,
    outlet_id: SnapId,
    reason_id: SnapId,
    delta: Int,
    unit_cost: OrNull(Int),
    at: SnapTime,
  },
  Strict,
);

const Customer = Type.Object(
  {
    id: SnapId,
    customer_group_id: SnapId,
    customer_code: Text,
    first_name: Text,
    last_name: OrNull(Text),
    company_name: OrNull(Text),
    email: OrNull(Text),
    phone: OrNull(Text),
    mobile: OrNull(Text),
    website: OrNull(Text),
    gender: OrNull(Text),
    tax_id: OrNull(Text),
    note: OrNull(Text),
    date_of_birth: OrNull(Text),
    address_1: OrNull(Text),
    address_2: OrNull(Text),
    city: OrNull(Text),
    state: OrNull(Text),
    zipcode: OrNull(Text),
    country: OrNull(Text),
    custom_field_1: OrNull(Text),
    custom_field_2: OrNull(Text),
    custom_field_3: OrNull(Text),
    custom_field_4: OrNull(Text),
    on_account_limit: Int,
    enable_loyalty: Type.Boolean(),
    dont_email: Type.Boolean(),
    dont_sms: Type.Boolean(),
    do_not_sell_share: Type.Boolean(),
    is_walk_in: Type.Boolean(),
    created_at: SnapTime,
    updated_at: SnapTime,
  },
  Strict,
);

const Sale = Type.Object(
  {
    id: SnapId,
    status: OneOf(["open", "completed", "partially_refunded", "refunded", "voided"]),
    outlet_id: SnapId,
    customer_id: OrNull(SnapId),
    parent_sale_id: OrNull(SnapId),
    created_at: SnapTime,
    completed_at: SnapTime,
    lines: Type.Array(
      Type.Object(
        {
          id: SnapId,
          product_id: SnapId,
          name: Text,
          quantity: Int,
          unit_price: Int,
          subtotal: Int,
          tax_id: SnapId,
          tax_total: Int,
          source_line_id: OrNull(SnapId),
        },
        Strict,
      ),
    ),
    payments: Type.Array(Type.Object({ id: SnapId, payment_type_id: SnapId, amount: Int, paid_at: SnapTime }, Strict)),
    tax_rates: Type.Record(SnapId, Type.Object({ name: Text, rate: Type.Number({ minimum: 0, maximum: 1 }) }, Strict)),
  },
  Strict,
);

export const SnapshotStore = Type.Object(
  {
    settings: Type.Object(
      {
        id: SnapId,
        prefix: SnapPrefix,
        name: Text,
        currency: Text,
        timezone: Text,
        country: Text,
        created_at: SnapTime,
        plan: OneOf(PLANS),
        status: OneOf(STORE_STATUSES),
        product_limit: OrNull(Type.Integer({ minimum: 0 })),
        default_outlet_id: OrNull(SnapId),
      },
      Strict,
    ),
    /** The store's change sequence: the last number given; the next change takes the one after. */
    last_seq: SnapSeq,
    /** The version of `GET /store`. */
    settings_seq: SnapSeq,
    system_reason_id: SnapId,
    outlets: Row(Outlet),
    payment_types: Row(PaymentType),
    taxes: Row(Tax),
    adjustment_reasons: Row(Reason),
    catalog: Type.Object(
      {
        products: Row(Product),
        brands: Row(Brand),
        categories: Row(Category),
        tags: Row(Named),
        suppliers: Row(Named),
        other_category_id: SnapId,
        gift_card_category_id: SnapId,
        brand_names: Pairs,
        tag_names: Pairs,
        subcategories: Groups,
      },
      Strict,
    ),
    inventory: Type.Object({ levels: Type.Array(Level), movements: Type.Array(Movement) }, Strict),
    customers: Type.Object(
      {
        customers: Row(Customer),
        groups: Row(Named),
        walk_in_id: SnapId,
        default_group_id: SnapId,
        codes: Type.Array(Type.Tuple([Text, SnapId])),
      },
      Strict,
    ),
    sales: Type.Object({ sales: Row(Sale), refunds_of: Groups }, Strict),
  },
  Strict,
);
export type SnapshotStore = Static<typeof SnapshotStore>;
