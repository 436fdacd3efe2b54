/**
 * Spending anomalies: a day whose cost lies more than 2 standard deviations from the
 * mean of the 7 days before it. Severity by how far: low under 3, medium under 4,
 * high from 4. A day needs a full trailing week to be judged.
 */

export interface Anomaly {
  /** Index of the day in the series. */
  index: number;
  cost: number;
  expectedCost: number;
  /** Signed distance from the trailing mean, in standard deviations. */
  deviation: number;
  severity: "low" | "medium" | "high";
}

/** The days before a day it is judged against. */
export const TRAILING_DAYS = 7;
const THRESHOLD = 2;
/**
 * A flat week has no spread, so any change would be infinitely many deviations away;
 * the spread is floored at 1% of the mean (and at 1 unit) so a flat week followed by a
 * doubling is `high` while a rounding wobble is nothing.
 */
const MIN_SPREAD_SHARE = 0.01;

export function severityOf(deviation: number): Anomaly["severity"] {
  const d = Math.abs(deviation);
  return d < 3 ? "low" : d < 4 ? "medium" : "high";
}

export function findAnomalies(ys: readonly number[]): Anomaly[] {
  const out: Anomaly[] = [];
  for (let i = TRAILING_DAYS; i < ys.length; i++) {
    let sum = 0;
    for (let j = i - TRAILING_DAYS; j < i; j++) sum += ys[j]!;
    const mean = sum / TRAILING_DAYS;
    let sq = 0;
    for (let j = i - TRAILING_DAYS; j < i; j++) sq += (ys[j]! - mean) ** 2;
    const spread = Math.max(Math.sqrt(sq / TRAILING_DAYS), mean * MIN_SPREAD_SHARE, 1);
    const deviation = (ys[i]! - mean) / spread;
    if (Math.abs(deviation) > THRESHOLD)
      out.push({ index: i, cost: ys[i]!, expectedCost: mean, deviation, severity: severityOf(deviation) });
  }
  return out;
}
