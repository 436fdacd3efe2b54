/** Integer micro-dollars inside; dollars and cents only at the edge. */
export const MICROS_PER_DOLLAR = 1_000_000;
export const MICROS_PER_CENT = 10_000;

export const toDollars = (micros: number): number => micros / MICROS_PER_DOLLAR;
/** Whole cents, rounded half up (the specification's integer `costCents`). */
export const toCents = (micros: number): number => Math.round(micros / MICROS_PER_CENT);

/**
 * Whole cents for parts of a total such that the parts add up to the total's own
 * rounding (largest remainder), so a per-provider table always sums to its total.
 */
export function apportionCents(parts: readonly number[]): number[] {
  const total = toCents(parts.reduce((a, b) => a + b, 0));
  const floors = parts.map((m) => Math.floor(m / MICROS_PER_CENT));
  let left = total - floors.reduce((a, b) => a + b, 0);
  const order = parts.map((m, i) => ({ i, rest: m % MICROS_PER_CENT })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors;
}
