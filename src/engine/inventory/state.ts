import type { Milli } from "../../kernel/quantity.js";
import { Recent } from "../../kernel/recent.js";

/** One product's stock at one outlet. Quantities in thousandths; average cost in integer cents. */
export interface LevelRecord {
  readonly outlet_id: string;
  readonly on_hand: Milli;
  /** Weighted average unit cost in cents (spec, Inventory rules 4). */
  readonly average_cost: number;
  readonly reorder_method: string;
  readonly reorder_point: Milli | null;
  readonly reorder_amount: Milli | null;
  readonly reorder_target: Milli | null;
  /** The store's change sequence number of the level's latest change: its `version`. */
  readonly seq: number;
}

/** A recorded stock change: the adjustment (with its reason) and the movement it made. */
export interface AdjustmentRecord {
  readonly id: string;
  readonly movement_id: string;
  readonly product_id: string;
  readonly outlet_id: string;
  readonly reason_id: string;
  readonly delta: Milli;
  readonly unit_cost: number | null;
  readonly at: number;
}

/** Outlets a product's levels are kept in an array for, searched in order; a map beyond. */
const SHORT = 8;

/** Stock of one store. Spec, Pagination rules 5: stock levels have no change feed. */
export class InventoryState {
  /**
   * Each product's levels, in the order its outlets were first stocked: a short array searched in order
   * (100,000 products' levels need no 100,000 maps), a map once a product has more than `SHORT` outlets.
   */
  private readonly levels = new Map<string, LevelRecord[] | Map<string, LevelRecord>>();
  /** The stock movements made, oldest first: the newest `movementHistory` of them (engine/caps.ts). */
  readonly adjustments: Recent<AdjustmentRecord>;

  constructor(movementHistory: number) {
    this.adjustments = new Recent(movementHistory);
  }

  level(productId: string, outletId: string): LevelRecord | undefined {
    const levels = this.levels.get(productId);
    if (levels === undefined || !Array.isArray(levels)) return levels?.get(outletId);
    for (const level of levels) if (level.outlet_id === outletId) return level;
    return undefined;
  }

  /** Every level of a product, in the order the outlets were first stocked. */
  levelsOf(productId: string): readonly LevelRecord[] {
    return [...(this.levels.get(productId)?.values() ?? [])];
  }

  put(productId: string, level: LevelRecord): void {
    const levels = this.levels.get(productId);
    if (levels === undefined) this.levels.set(productId, [level]);
    else if (!Array.isArray(levels)) levels.set(level.outlet_id, level);
    else {
      const at = levels.findIndex((l) => l.outlet_id === level.outlet_id);
      if (at !== -1) levels[at] = level;
      else if (levels.length < SHORT) levels.push(level);
      else this.levels.set(productId, new Map([...levels, level].map((l) => [l.outlet_id, l])));
    }
  }

  /** Snapshot: every level (product by product, each product's outlets in the order first stocked) and the movements, oldest first. */
  records(): { levels: { product_id: string; level: LevelRecord }[]; movements: AdjustmentRecord[] } {
    const levels: { product_id: string; level: LevelRecord }[] = [];
    for (const [product_id, ofProduct] of this.levels)
      for (const level of ofProduct.values()) levels.push({ product_id, level });
    return { levels, movements: [...this.adjustments] };
  }

  /** Snapshot restore, into an empty state: what `records` gave, in its order. */
  restore(records: ReturnType<InventoryState["records"]>): void {
    for (const { product_id, level } of records.levels) this.put(product_id, level);
    for (const movement of records.movements) this.adjustments.push(movement);
  }
}
