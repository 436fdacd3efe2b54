/** The monthly budget's figures: a threshold is reached only when the spend really reached it, to the micro-dollar. */
import { expect, test } from "bun:test";
import { budgetStatus, projectedMicros } from "../../../src/services/analytics/budget.ts";

const mid = Date.UTC(2026, 10, 16, 12);

test("a spend a hair under a threshold has not reached it, however the percent rounds", () => {
  // $100 budget; $99.995 spent is 99.995%: rounding to two places would say 100 and announce a spend cap not yet reached.
  const under = budgetStatus(10_000, 99_995_000, mid);
  expect(under.thresholdsReached).toEqual([50, 75, 90]);
  expect(under.spentPercent).toBeLessThan(100);
  expect(budgetStatus(10_000, 99_999_999, mid).thresholdsReached).not.toContain(100);
  expect(budgetStatus(10_000, 100_000_000, mid)).toMatchObject({ spentPercent: 100, thresholdsReached: [50, 75, 90, 100] });
  // Just under 50% by a micro-dollar.
  expect(budgetStatus(10_000, 49_999_999, mid).thresholdsReached).toEqual([]);
  expect(budgetStatus(10_000, 50_000_000, mid).thresholdsReached).toEqual([50]);
});

test("the percent shown never names a threshold the spend has not reached", () => {
  for (const spent of [74_999_999, 89_995_000, 99_995_001, 49_995_000]) {
    const b = budgetStatus(10_000, spent, mid);
    for (const t of [50, 75, 90, 100]) expect(b.spentPercent! >= t).toBe(b.thresholdsReached.includes(t));
  }
  // Shares that are not exact in binary still read as written: 29% of a $1 budget is 29, not 28.99.
  expect(budgetStatus(100, 290_000, mid).spentPercent).toBe(29);
});

test("months of 28, 30 and 31 days project at their own length", () => {
  // Halfway through each month (by time), the projection is twice the spend.
  for (const [y, m] of [
    [2026, 1],
    [2026, 10],
    [2026, 11],
    [2028, 1],
  ] as const) {
    const start = Date.UTC(y, m, 1);
    const half = start + (Date.UTC(y, m + 1, 1) - start) / 2;
    expect(projectedMicros(1_000_000, half)).toBe(2_000_000);
  }
  // In the month's first minutes, an hour counts as elapsed: no projection to infinity.
  expect(Number.isFinite(projectedMicros(5, Date.UTC(2026, 11, 1, 0, 0, 1)))).toBe(true);
});

test("a zero budget is spent by any spend; no budget has no thresholds", () => {
  expect(budgetStatus(0, 1, mid)).toMatchObject({ spentPercent: 100, thresholdsReached: [50, 75, 90, 100] });
  expect(budgetStatus(0, 0, mid).thresholdsReached).toEqual([]);
  expect(budgetStatus(null, 10, mid)).toMatchObject({ spentPercent: null, projectedPercent: null, thresholdsReached: [] });
});
