// Money is an integer number of cents (spec, rule 2 of "What the service does"). Products of cents
// with quantities or rates are computed exactly in BigInt and rounded once, half away from zero:
// 5400 x 0.0875 is 472.5 and rounds to 473, never to 472 through binary floating point.

/** n / d rounded half away from zero, exactly. */
export function divRound(n: bigint, d: bigint): number {
  if (d < 0n) return divRound(-n, -d);
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const q = (abs * 2n + d) / (2n * d);
  return Number(negative ? -q : q);
}

/** Rates are fractions with at most 6 decimals (0.0875 is 8.75%). */
const RATE_SCALE = 1_000_000n;
const rateUnits = (rate: number): bigint => BigInt(Math.round(rate * 1_000_000));

/** cents x rate, rounded half away from zero. */
export const applyRate = (cents: number, rate: number): number => divRound(BigInt(cents) * rateUnits(rate), RATE_SCALE);

/** unit price x a quantity in thousandths, rounded half away from zero. */
export const extend = (unitCents: number, quantityMilli: number): number =>
  divRound(BigInt(unitCents) * BigInt(quantityMilli), 1000n);

/** cents x part / whole (a share of an amount), rounded half away from zero. */
export const share = (cents: number, part: number, whole: number): number =>
  divRound(BigInt(cents) * BigInt(part), BigInt(whole));
