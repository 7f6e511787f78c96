import type { SnapshotStore } from "../../contract/schemas/snapshot-stores.js";
import type { Feed, Row } from "../feed.js";
import { StoreState } from "../store.js";

// One store of a snapshot: its settings, the rows of every feed in change order with their sequence
// numbers, the lookups the writes keep in step whose order matters (names, subcategories, refunds),
// stock levels and the movement history. What can be rebuilt exactly from the rows (the product
// indexes) is rebuilt instead of saved.

type SavedRows<T> = { seq: number; deleted_at: number | null; value: T }[];

/** A feed's rows, oldest change first, as a snapshot keeps them. */
function rowsOf<T>(feed: Feed<T>): SavedRows<T> {
  const rows: SavedRows<T> = [];
  for (const row of feed.all()) rows.push({ seq: row.seq, deleted_at: row.deletedAt, value: row.value });
  return rows;
}

/** Saved rows back into an empty feed, in their order. Values are immutable records, shared with the document. */
function putRows<T extends { readonly id: string }>(feed: Feed<T>, rows: SavedRows<T>): void {
  for (const saved of rows) {
    const row: Row<T> = { id: saved.value.id, seq: saved.seq, deletedAt: saved.deleted_at, value: saved.value };
    feed.restore(row);
  }
}

export function saveStore(store: StoreState): SnapshotStore {
  const s = store.settings;
  const { catalog, customers, sales } = store;
  return {
    settings: {
      id: s.id,
      prefix: s.prefix,
      name: s.name,
      currency: s.currency,
      timezone: s.timezone,
      country: s.country,
      created_at: s.createdAt,
      plan: s.plan,
      status: s.status,
      product_limit: s.productLimit,
      default_outlet_id: s.defaultOutletId,
    },
    last_seq: store.lastSeq,
    settings_seq: store.settingsSeq,
    system_reason_id: store.systemReasonId,
    outlets: rowsOf(store.outlets),
    payment_types: rowsOf(store.paymentTypes),
    taxes: rowsOf(store.taxes),
    adjustment_reasons: rowsOf(store.reasons),
    catalog: {
      products: rowsOf(catalog.products) as SnapshotStore["catalog"]["products"],
      brands: rowsOf(catalog.brands),
      categories: rowsOf(catalog.categories),
      tags: rowsOf(catalog.tags),
      suppliers: rowsOf(catalog.suppliers),
      other_category_id: catalog.otherCategoryId,
      gift_card_category_id: catalog.giftCardCategoryId,
      brand_names: [...catalog.brandNames],
      tag_names: [...catalog.tagNames],
      subcategories: catalog.subcategories.entries(),
    },
    inventory: store.inventory.records(),
    customers: {
      customers: rowsOf(customers.customers),
      groups: rowsOf(customers.groups),
      walk_in_id: customers.walkInId,
      default_group_id: customers.defaultGroupId,
      codes: [...customers.codes],
    },
    sales: { sales: rowsOf(sales.sales) as SnapshotStore["sales"]["sales"], refunds_of: [...sales.refundsOf] },
  };
}

/** A store as it was saved. */
export function restoreStore(saved: SnapshotStore): StoreState {
  const s = saved.settings;
  const store = new StoreState({
    id: s.id,
    prefix: s.prefix,
    name: s.name,
    currency: s.currency,
    timezone: s.timezone,
    country: s.country,
    createdAt: s.created_at,
    plan: s.plan,
    status: s.status,
    productLimit: s.product_limit,
    defaultOutletId: s.default_outlet_id,
  });
  store.continueFrom(saved.last_seq);
  store.settingsSeq = saved.settings_seq;
  store.systemReasonId = saved.system_reason_id;
  putRows(store.outlets, saved.outlets);
  putRows(store.paymentTypes, saved.payment_types);
  putRows(store.taxes, saved.taxes);
  putRows(store.reasons, saved.adjustment_reasons);
  const { catalog, customers, sales } = store;
  const c = saved.catalog;
  putRows(catalog.products, c.products);
  putRows(catalog.brands, c.brands);
  putRows(catalog.categories, c.categories);
  putRows(catalog.tags, c.tags);
  putRows(catalog.suppliers, c.suppliers);
  catalog.otherCategoryId = c.other_category_id;
  catalog.giftCardCategoryId = c.gift_card_category_id;
  for (const [name, id] of c.brand_names) catalog.brandNames.set(name, id);
  for (const [name, id] of c.tag_names) catalog.tagNames.set(name, id);
  for (const [parent, children] of c.subcategories)
    for (const child of children) catalog.subcategories.add(parent, child);
  catalog.reindexProducts();
  store.inventory.restore(saved.inventory);
  putRows(customers.customers, saved.customers.customers);
  putRows(customers.groups, saved.customers.groups);
  customers.walkInId = saved.customers.walk_in_id;
  customers.defaultGroupId = saved.customers.default_group_id;
  for (const [code, id] of saved.customers.codes) customers.codes.set(code, id);
  putRows(sales.sales, shareTaxTables(saved.sales.sales));
  for (const [original, refunds] of saved.sales.refunds_of) sales.refundsOf.set(original, [...refunds]);
  return store;
}

/**
 * Sales made with the same tax rates share one rate table, as they do when made (a large store's
 * 200,000 sales would otherwise each hold a copy). The document's own tables are replaced by equal ones.
 */
function shareTaxTables(rows: SnapshotStore["sales"]["sales"]): SnapshotStore["sales"]["sales"] {
  type Table = SnapshotStore["sales"]["sales"][number]["value"]["tax_rates"];
  const tables = new Map<string, Table>();
  for (const { value } of rows) {
    let key = "";
    for (const id in value.tax_rates) {
      const tax = value.tax_rates[id] as Table[string];
      key += `${id}\u0000${tax.name}\u0000${tax.rate}\u0000`;
    }
    const shared = tables.get(key);
    if (shared === undefined) tables.set(key, Object.freeze(value.tax_rates));
    else value.tax_rates = shared;
  }
  return rows;
}
