// Stock quantities are exact to 3 decimal places (spec, InventoryLevel: on_hand "up to 3 decimal
// places"). They are held as integer thousandths, so 0.1 + 0.2 is exactly 0.3 and never drifts.

export type Milli = number;

/**
 * Thousandths of a quantity already validated to 3 decimals (the schemas' `decimals: 3`).
 * rule inventory.quantity-three-decimals: a quantity of up to 3 decimals is held exactly, as thousandths.
 */
export const toMilli = (quantity: number): Milli => Math.round(quantity * 1000);

/** The quantity as a JSON number: an integer divided by 1000 prints as its shortest decimal. */
export const fromMilli = (milli: Milli): number => milli / 1000;

/**
 * Weighted average cost in integer cents after adding `addedMilli` units at `unitCost` to `heldMilli`
 * units at `average`, rounded half up. BigInt keeps the products exact.
 */
export function blendAverage(heldMilli: Milli, average: number, addedMilli: Milli, unitCost: number): number {
  const held = BigInt(Math.max(0, heldMilli));
  const added = BigInt(addedMilli);
  const total = held + added;
  if (total <= 0n) return unitCost;
  const numerator = held * BigInt(average) + added * BigInt(unitCost);
  return Number((numerator * 2n + total) / (total * 2n));
}
