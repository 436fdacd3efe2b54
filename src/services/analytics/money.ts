/** Integer micro-dollars inside; dollars and cents only at the edge. */
export const MICROS_PER_DOLLAR = 1_000_000;
export const MICROS_PER_CENT = 10_000;

export const toDollars = (micros: number): number => micros / MICROS_PER_DOLLAR;
/** Whole cents, rounded half up (the specification's integer `costCents`). */
export const toCents = (micros: number): number => Math.round(micros / MICROS_PER_CENT);
