/**
 * Holt's linear (double exponential) smoothing over a daily series: a level and a
 * trend, each smoothed. The smoothing constants are fitted by the smallest one-step
 * squared error over a fixed grid, so a steady series and a noisy one each get the
 * constants that track them best, and the caller sees what was fitted.
 */

export interface HoltFit {
  /** The smoothed value of the last day. */
  level: number;
  /** The smoothed day-over-day change at the last day. */
  trend: number;
  alpha: number;
  beta: number;
}

const GRID = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

function run(ys: readonly number[], alpha: number, beta: number): { level: number; trend: number; sse: number } {
  let level = ys[0]!;
  // The first difference starts the trend: a perfectly linear series is then followed exactly.
  let trend = ys[1]! - ys[0]!;
  let sse = 0;
  for (let t = 1; t < ys.length; t++) {
    const y = ys[t]!;
    const predicted = level + trend;
    sse += (y - predicted) ** 2;
    const nextLevel = alpha * y + (1 - alpha) * predicted;
    trend = beta * (nextLevel - level) + (1 - beta) * trend;
    level = nextLevel;
  }
  return { level, trend, sse };
}

/**
 * The series from its first day with spend: the days before an organization's first call
 * are not a history of spending nothing, and fitted as one they turn a new organization's
 * steady pace into a steep trend (two days of $5 forecast $2,300 over 90 days). Spend
 * before the series (`spentBefore`) makes its first empty days a pause, which is history:
 * the whole series.
 */
export function fromFirstSpend(ys: readonly number[], spentBefore = false): number[] {
  if (spentBefore) return [...ys];
  const first = ys.findIndex((y) => y !== 0);
  return first < 0 ? [] : ys.slice(first);
}

export function fitHolt(ys: readonly number[]): HoltFit {
  if (ys.length === 0) return { level: 0, trend: 0, alpha: 0, beta: 0 };
  // One day says nothing about a trend: the level is that day.
  if (ys.length === 1) return { level: ys[0]!, trend: 0, alpha: 1, beta: 0 };
  let best: HoltFit & { sse: number } = { level: 0, trend: 0, alpha: 0, beta: 0, sse: Infinity };
  for (const alpha of GRID) {
    for (const beta of GRID) {
      const r = run(ys, alpha, beta);
      if (r.sse < best.sse) best = { ...r, alpha, beta };
    }
  }
  return { level: best.level, trend: best.trend, alpha: best.alpha, beta: best.beta };
}

/** The sum of the next `days` forecast days; a day never forecasts below zero (costs do not go negative). */
export function forecastSum(fit: HoltFit, days: number): number {
  let sum = 0;
  for (let h = 1; h <= days; h++) sum += Math.max(0, fit.level + h * fit.trend);
  return sum;
}
