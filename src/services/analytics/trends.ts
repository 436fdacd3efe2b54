/** Trend figures of a daily cost series and of the roll-ups behind it. */
import type { UsageHourly } from "../../domain/types.ts";

export function dailyAverage(ys: readonly number[]): number {
  return ys.length === 0 ? 0 : ys.reduce((a, b) => a + b, 0) / ys.length;
}

/**
 * The last 7 days over the 7 before, in percent. From nothing to something is +100%
 * (a growth from zero has no ratio; 100 says "new spend" without an infinity in JSON).
 */
export function weeklyGrowth(ys: readonly number[]): number {
  const last = ys.slice(-7).reduce((a, b) => a + b, 0);
  const before = ys.slice(-14, -7).reduce((a, b) => a + b, 0);
  if (before === 0) return last === 0 ? 0 : 100;
  return ((last - before) / before) * 100;
}

/**
 * 0-100: the share of spend that bought successful answers. A roll-up row mixes the
 * hour's successes and failures, so its cost is split by their counts. With no spend
 * there is nothing wasted: 100.
 */
export function efficiencyScore(rows: readonly UsageHourly[]): number {
  let total = 0;
  let useful = 0;
  for (const r of rows) {
    total += r.costMicros;
    if (r.requests > 0) useful += (r.costMicros * (r.requests - r.errors)) / r.requests;
  }
  return total === 0 ? 100 : (useful / total) * 100;
}
