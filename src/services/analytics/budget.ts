/**
 * The organization's monthly budget against this UTC month's spend: spent, the
 * projection to month end at the month's pace so far, and the alert thresholds reached.
 */
import { MICROS_PER_CENT, toCents } from "./money.ts";

export const BUDGET_THRESHOLDS = [50, 75, 90, 100] as const;

export interface BudgetStatus {
  month: string;
  monthlyBudgetCents: number | null;
  spentCents: number;
  projectedCents: number;
  spentPercent: number | null;
  projectedPercent: number | null;
  thresholdsReached: number[];
}

export function monthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** This month's spend projected to its end at the pace so far (never below what is spent). */
export function projectedMicros(spentMicros: number, now: number): number {
  const start = monthStart(now);
  // At least an hour elapsed, so a call in the month's first second does not project to infinity.
  const elapsed = Math.max(now - start, 3_600_000);
  return Math.max(Math.round((spentMicros * (nextMonthStart(now) - start)) / elapsed), spentMicros);
}

/**
 * Percent of the budget, cut (never rounded up) to two places, in integers: 99.995% shows
 * as 99.99, so a shown percent never names a threshold the spend has not reached.
 */
function percentOf(micros: number, budgetMicros: number): number {
  return Number((BigInt(Math.round(micros)) * 10_000n) / BigInt(budgetMicros)) / 100;
}

export function budgetStatus(budgetCents: number | null, spentMicros: number, now: number): BudgetStatus {
  const start = monthStart(now);
  const projected = projectedMicros(spentMicros, now);
  // From micro-dollars, not rounded cents: a tenth of a cent against a one-cent budget is 10%, not 0%.
  const pct = (micros: number) =>
    budgetCents ? percentOf(micros, budgetCents * MICROS_PER_CENT) : budgetCents === 0 && micros > 0 ? 100 : null;
  const spentPercent = pct(spentMicros);
  // Compared exactly (integers), not from the shown percent: $99.995 of $100 has not reached 100%.
  const reached = (t: number) => (budgetCents ? spentMicros * 100 >= t * budgetCents * MICROS_PER_CENT : spentPercent !== null);
  return {
    month: new Date(start).toISOString().slice(0, 7),
    monthlyBudgetCents: budgetCents,
    spentCents: toCents(spentMicros),
    projectedCents: toCents(projected),
    spentPercent,
    projectedPercent: pct(projected),
    thresholdsReached: budgetCents === null ? [] : BUDGET_THRESHOLDS.filter(reached),
  };
}
