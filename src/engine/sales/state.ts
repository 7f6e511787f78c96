import type { Milli } from "../../kernel/quantity.js";
import { JsonCache } from "../../kernel/raw-json.js";
import { DEFAULT_CAPS } from "../caps.js";
import type { Feed, FeedIndex, Row } from "../feed.js";

export type SaleStatus = "open" | "completed" | "partially_refunded" | "refunded" | "voided";

export interface SaleLineRecord {
  readonly id: string;
  readonly product_id: string;
  readonly name: string;
  readonly quantity: Milli;
  readonly unit_price: number;
  readonly subtotal: number;
  readonly tax_id: string;
  readonly tax_total: number;
  /** On a refund line: the original line it gives back (not part of the document). */
  readonly source_line_id: string | null;
}

export interface SalePaymentRecord {
  readonly id: string;
  readonly payment_type_id: string;
  readonly amount: number;
  readonly paid_at: number;
}

export interface SaleRecord {
  readonly id: string;
  readonly status: SaleStatus;
  readonly outlet_id: string;
  readonly customer_id: string | null;
  readonly parent_sale_id: string | null;
  readonly created_at: number;
  readonly completed_at: number;
  readonly lines: readonly SaleLineRecord[];
  readonly payments: readonly SalePaymentRecord[];
  /** Rate of each tax used, as it was at the time of the sale. */
  readonly tax_rates: Readonly<Record<string, { name: string; rate: number }>>;
}

export const DAY_MS = 86_400_000;

/** The UTC day (days since the epoch) a sale completed on: the key of the time index. */
export const saleDay = (completedAt: number): number => Math.floor(completedAt / DAY_MS);

/**
 * Sales of one store. Spec: sales are never deleted. Each list filter has an index in change order,
 * so a selective filter pages its own rows (docs/performance.md, Reads and pages: no full-collection scan on any request path).
 */
export class SalesState {
  readonly sales: Feed<SaleRecord>;
  /** Refund sales by the original they refund. */
  readonly refundsOf = new Map<string, string[]>();
  readonly byStatus: FeedIndex<SaleRecord>;
  readonly byOutlet: FeedIndex<SaleRecord>;
  readonly byCustomer: FeedIndex<SaleRecord>;
  readonly byParent: FeedIndex<SaleRecord>;
  /** By UTC day of completed_at (decimal days since the epoch), for completed_from and completed_to. */
  readonly byDay: FeedIndex<SaleRecord>;
  /** Sale rows' JSON text by version: polling clients read the same sales again and again. At most `rowCache` rows. */
  readonly saleJson: JsonCache<Row<SaleRecord>>;
  /** One frozen rate table per tax version, shared by the sales made with it: 200,000 sales need not carry copies. */
  readonly taxTables = new WeakMap<object, Readonly<Record<string, { name: string; rate: number }>>>();

  constructor(feed: <T>(list: string) => Feed<T>, rowCache: number = DEFAULT_CAPS.rowCache) {
    this.saleJson = new JsonCache(rowCache);
    this.sales = feed("sales");
    this.byStatus = this.sales.index((s) => s.status);
    this.byOutlet = this.sales.index((s) => s.outlet_id);
    this.byCustomer = this.sales.index((s) => s.customer_id);
    this.byParent = this.sales.index((s) => s.parent_sale_id);
    this.byDay = this.sales.index((s) => String(saleDay(s.completed_at)));
  }

  /**
   * A new completed sale (no parent) whose value is made on first read: indexed by what is known of it
   * without reading it, the keys its value will have (the order of the indexes above).
   */
  insertCompleted(row: Row<SaleRecord>, outletId: string, customerId: string, completedAt: number, seq?: number): void {
    this.sales.insert(row, ["completed", outletId, customerId, null, String(saleDay(completedAt))], seq);
  }
}
