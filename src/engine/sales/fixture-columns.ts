import { toMilli } from "../../kernel/quantity.js";
import { type Rng, uuidText } from "../../kernel/random.js";
import type { ProductRecord } from "../catalog/records.js";
import { LazyRow, type RowSource } from "../lazy-row.js";
import type { StoreState } from "../store.js";
import { saleLine, saleRecord, taxTable } from "./operations.js";
import type { SaleRecord } from "./state.js";

// Fixture sales in columns (the large fixture's 200,000): each a completed sale of one line, paid in
// full, in time order, oldest first. They are made as `createSale` would make them, drawing the same ids
// from the same stream in the same order, and the same versions, but later: the build keeps the words
// of each sale's ids (its line's, its own, its payment's) and reserves its version; the sale's row goes
// into the feed and its indexes after the build (`StoreState.deferSales`: in slices while the simulator
// is idle, or all at once when anything reads the sales), and its document is made when first read.

const HOUR = 3_600_000;
/** Words of ids kept per sale: its line's, its own and its payment's, four each. */
const WORDS = 12;

/** Sales by column; names are the fixture's (outlet names, SKUs, customer codes), referred to by index. */
export interface SaleColumns {
  readonly length: number;
  readonly outlets: readonly string[];
  readonly skus: readonly string[];
  readonly customers: readonly string[];
  /** Per sale: index into `outlets`. */
  readonly outlet: Uint8Array;
  /** Per sale: index into `skus`, the product of its one line. */
  readonly sku: Uint32Array;
  /** Per sale: index into `customers`, or -1 for the walk-in customer. */
  readonly customer: Int32Array;
  /** Per sale: the line's quantity (whole units) and unit price (cents). */
  readonly quantity: Uint16Array;
  readonly unitPrice: Float64Array;
  /** Per sale: how many hours before the world's start it completed; never rising. */
  readonly hoursAgo: Float64Array;
}

/** The key under which a fixture store document carries sales by column (never part of a JSON fixture). */
export const SALE_COLUMNS = Symbol("sale columns");

/** A fixture store that may carry sales by column besides its `sales`. */
export interface WithSaleColumns {
  readonly [SALE_COLUMNS]?: SaleColumns;
}

/** What a sale's document is made from: the columns, and the store's rows as they were at the build. */
class SaleSource implements RowSource<SaleRecord> {
  constructor(
    readonly columns: SaleColumns,
    readonly now: number,
    readonly outlets: readonly {
      id: string;
      tax: { id: string; name: string; rate: number };
      rates: SaleRecord["tax_rates"];
    }[],
    /** Per SKU: the product's id and its name at the build (a line keeps the name it was sold under). */
    readonly productIds: readonly string[],
    readonly productNames: (string | LazyRow<ProductRecord>)[],
    readonly customers: readonly string[],
    readonly walkIn: string,
    readonly paymentTypeId: string,
    /** Per sale, twelve words: its line's id, its own id, then its payment's id. */
    readonly words: Uint32Array,
  ) {}

  completedAt(i: number): number {
    return this.now - (this.columns.hoursAgo[i] as number) * HOUR;
  }

  /** The name of product `p` at the build; a lazily made product's is made once, on the first sale read. */
  nameOf(p: number): string {
    const name = this.productNames[p] as string | LazyRow<ProductRecord>;
    if (typeof name === "string") return name;
    const made = name.original().name;
    this.productNames[p] = made;
    return made;
  }

  customerOf(i: number): string {
    const c = this.columns.customer[i] as number;
    return c < 0 ? this.walkIn : (this.customers[c] as string);
  }

  make(i: number, id: string): SaleRecord {
    const { columns, words } = this;
    const outlet = this.outlets[columns.outlet[i] as number] as SaleSource["outlets"][number];
    const w = i * WORDS;
    const word = (k: number) => words[w + k] as number;
    const p = columns.sku[i] as number;
    const line = saleLine(
      uuidText(word(0), word(1), word(2), word(3)),
      { id: this.productIds[p] as string, name: this.nameOf(p) },
      toMilli(columns.quantity[i] as number),
      columns.unitPrice[i] as number,
      outlet.tax,
    );
    const payment = { id: uuidText(word(8), word(9), word(10), word(11)), payment_type_id: this.paymentTypeId };
    return saleRecord(id, outlet.id, this.customerOf(i), this.completedAt(i), [line], payment, outlet.rates);
  }
}

/**
 * Adds the sales of `columns` to the store, after its other sales: the same rows, versions, ids and
 * documents as `createSale` makes for each in turn, the documents made when first read. Refuses (throws)
 * names the store does not have, as the fixture's other sales do.
 */
export function buildColumnSales(store: StoreState, columns: SaleColumns, ids: Rng, now: number): void {
  const refuse = (what: string): never => {
    throw new Error(`fixture sale: ${what}`);
  };
  const outletRows = new Map([...store.outlets.all()].map((r) => [r.value.name, r]));
  const outlets = columns.outlets.map((name) => {
    const row = outletRows.get(name);
    if (!row || row.deletedAt !== null) return refuse(`outlet ${name} is not a live outlet of this store`);
    const tax = store.taxes.live(row.value.default_tax_id) ?? refuse(`the default tax of outlet ${name} is missing`);
    return { id: row.id, tax, rates: taxTable(store.sales, tax) };
  });
  // A product's name as the build left it: a lazily made product's is made again when a sale is read
  // (its row may have been renamed since), so the build does not make the catalog's records for good.
  const products = columns.skus.map((sku) => {
    const row = store.catalog.products.row(store.catalog.skuIndex.get(sku.toLowerCase()) ?? "");
    if (!row || row.deletedAt !== null) return refuse(`no product ${sku}`);
    return { id: row.id, name: row instanceof LazyRow ? (row as LazyRow<ProductRecord>) : row.value.name };
  });
  const customers = columns.customers.map(
    (code) => store.customers.codes.get(code.toLowerCase()) ?? refuse(`no customer ${code}`),
  );
  const payment = [...store.paymentTypes.all()].find((r) => r.deletedAt === null && r.value.enabled);
  if (!payment) refuse("the store has no enabled payment type");
  const words = new Uint32Array(columns.length * WORDS);
  const source = new SaleSource(
    columns,
    now,
    outlets,
    products.map((p) => p.id),
    products.map((p) => p.name),
    customers,
    store.customers.walkInId,
    payment?.id as string,
    words,
  );
  // The ids stream in createSale's order: the line's id, the sale's, the payment's; the versions follow
  // the store's other rows. Both are fixed here, so laying the rows out later changes nothing read.
  for (let i = 0; i < columns.length; i++) {
    if (i > 0 && (columns.hoursAgo[i] as number) > (columns.hoursAgo[i - 1] as number))
      refuse("sales by column must come in time order");
    for (let k = 0; k < WORDS; k++) words[i * WORDS + k] = ids.next32();
    if (source.completedAt(i) > now) refuse("a sale completes later than the world's start");
    if ((columns.outlet[i] as number) >= outlets.length) refuse(`no outlet number ${columns.outlet[i]}`);
    if ((columns.sku[i] as number) >= products.length || (columns.customer[i] as number) >= customers.length)
      refuse(`sale ${i} names a product or customer number the columns do not have`);
  }
  const firstSeq = store.reserveSeqs(columns.length);
  let next = 0;
  store.deferSales((sales, max) => {
    const end = Math.min(columns.length, next + max);
    for (; next < end; next++) {
      const w = next * WORDS + 4;
      const id = uuidText(words[w] as number, words[w + 1] as number, words[w + 2] as number, words[w + 3] as number);
      const outletId = (outlets[columns.outlet[next] as number] as { id: string }).id;
      const completedAt = source.completedAt(next);
      sales.insertCompleted(
        new LazyRow(id, source, next),
        outletId,
        source.customerOf(next),
        completedAt,
        firstSeq + next,
      );
    }
    return next === columns.length;
  });
}
