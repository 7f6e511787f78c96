import { CatalogState } from "./catalog/state.js";
import { DEFAULT_CAPS, type Caps } from "./caps.js";
import { Feed, type SeqSource } from "./feed.js";
import { CustomerState } from "./customers/state.js";
import { InventoryState } from "./inventory/state.js";
import { SalesState } from "./sales/state.js";

import type { Plan, StoreStatus } from "../contract/store-states.js";

export interface StoreSettings {
  readonly id: string;
  readonly prefix: string;
  name: string;
  currency: string;
  timezone: string;
  country: string;
  readonly createdAt: number;
  plan: Plan;
  status: StoreStatus;
  /** Products the plan allows; null for no limit (spec: "The product limit per plan: not shown"). */
  productLimit: number | null;
  /** The outlet `GET /store` names as default: the first one created. */
  defaultOutletId: string | null;
}

/** Live outlets of one store the control plane lets exist (docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/outlets). */
export const MAX_OUTLETS = 100;

export interface OutletRecord {
  readonly id: string;
  name: string;
  timezone: string;
  status: "active" | "inactive";
  default_tax_id: string;
}

export interface PaymentTypeRecord {
  readonly id: string;
  name: string;
  enabled: boolean;
}

export interface TaxRecord {
  readonly id: string;
  name: string;
  rate: number;
}

export interface ReasonRecord {
  readonly id: string;
  name: string;
  type: "increase" | "decrease" | "any";
  is_system: boolean;
  /** Not a field of the spec's AdjustmentReason; a disabled reason is refused on stock writes. */
  enabled: boolean;
}

/** Puts at most `max` more deferred sales in the feed; true when none are left. */
export type SalesLayout = (sales: SalesState, max: number) => boolean;

/** One tenant: everything a store prefix owns. Nothing is shared between stores. */
export class StoreState implements SeqSource {
  private seq = 0;
  /** Sequence number of the store settings row (the version of `GET /store`). */
  settingsSeq: number;
  readonly outlets: Feed<OutletRecord>;
  readonly paymentTypes: Feed<PaymentTypeRecord>;
  readonly taxes: Feed<TaxRecord>;
  readonly reasons: Feed<ReasonRecord>;
  readonly catalog: CatalogState;
  readonly inventory: InventoryState;
  readonly customers: CustomerState;
  private readonly salesState: SalesState;
  /** Sales the build left to lay out (`deferSales`); null once every one is in the feed. */
  private salesLayout: SalesLayout | null = null;
  /** Spec, Inventory rules 1: the system reason "Stock set via API" records sets sent without a reason. */
  systemReasonId = "";

  constructor(
    readonly settings: StoreSettings,
    caps: Pick<Caps, "rowCache" | "movementHistory"> = DEFAULT_CAPS,
  ) {
    this.inventory = new InventoryState(caps.movementHistory);
    this.settingsSeq = this.nextSeq();
    this.outlets = this.feed("outlets");
    this.paymentTypes = this.feed("payment-types");
    this.taxes = this.feed("taxes");
    this.reasons = this.feed("adjustment-reasons");
    this.catalog = new CatalogState((list) => this.feed(list), caps.rowCache);
    this.customers = new CustomerState((list) => this.feed(list));
    this.salesState = new SalesState((list) => this.feed(list), caps.rowCache);
  }

  /** The store's sales, every one the build deferred laid out first. */
  get sales(): SalesState {
    if (this.salesLayout !== null) this.layOutSales(Number.POSITIVE_INFINITY);
    return this.salesState;
  }

  /**
   * Sales the build has drawn every id and sequence number for, whose rows are put in the feed later:
   * in slices (`layOutSales`) while the simulator is idle, or all at once when anything reads `sales`.
   * What is read is the same either way: the rows, versions and ids are fixed by the build.
   */
  deferSales(layout: SalesLayout): void {
    if (this.salesLayout !== null) throw new Error("a store defers one layout of sales at a time");
    this.salesLayout = layout;
  }

  /** Lays out at most `max` of the deferred sales; whether any are still left. */
  layOutSales(max: number): boolean {
    const layout = this.salesLayout;
    if (layout === null) return false;
    if (layout(this.salesState, max)) this.salesLayout = null;
    return this.salesLayout !== null;
  }

  /** `n` sequence numbers for rows put later (deferred sales): the first of them. */
  reserveSeqs(n: number): number {
    const first = this.seq + 1;
    this.seq += n;
    return first;
  }

  get prefix(): string {
    return this.settings.prefix;
  }

  /** Spec: every row's `version` comes from this per-store change sequence. */
  nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Snapshot restore: the change sequence goes on from the saved store's last number. */
  continueFrom(lastSeq: number): void {
    this.seq = lastSeq;
  }

  /** A feed named by store and list, so a cursor is readable only on the list and store that issued it. */
  private feed<T>(list: string): Feed<T> {
    return new Feed<T>(`${this.settings.prefix}/${list}`, this);
  }
}
