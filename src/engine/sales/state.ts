import type { Milli } from "../../kernel/quantity.js";
import type { Feed } from "../feed.js";

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

/** Sales of one store. Spec: sales are never deleted. */
export class SalesState {
  readonly sales: Feed<SaleRecord>;
  /** Refund sales by the original they refund. */
  readonly refundsOf = new Map<string, string[]>();

  constructor(feed: <T>(list: string) => Feed<T>) {
    this.sales = feed("sales");
  }
}
