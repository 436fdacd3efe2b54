import { expect, test } from "bun:test";
import type { UsageHourly } from "../../../src/domain/types.ts";
import { budgetStatus } from "../../../src/services/analytics/budget.ts";
import { buildReport } from "../../../src/services/analytics/report.ts";
import { DAY_MS, parsePeriod, windowOf } from "../../../src/services/analytics/window.ts";

const now = Date.UTC(2026, 10, 25, 12);
const row = (day: number, provider: string, costMicros: number, requests: number, latencyMsSum: number): UsageHourly => ({
  orgId: "o",
  hour: Date.UTC(2026, 10, 25) - day * DAY_MS + 3_600_000,
  keyId: "k",
  provider,
  model: "m",
  requests,
  errors: 0,
  promptTokens: 0,
  completionTokens: 0,
  costMicros,
  latencyMsSum,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

test("totals, per-provider sums and the daily series agree", () => {
  const rows = [
    row(0, "openai", 2_000_000, 4, 400),
    row(1, "openai", 1_000_000, 1, 100),
    row(1, "anthropic", 500_000, 5, 1000),
    row(40, "openai", 9, 1, 1),
  ];
  const r = buildReport(
    rows.filter((x) => x.hour >= windowOf(7, now).from),
    windowOf(7, now),
  );
  expect(r.totalCost).toBe(3.5);
  expect(r.totalRequests).toBe(10);
  expect(r.avgCostPerRequest).toBe(0.35);
  expect(r.costByProvider).toEqual([
    { provider: "openai", totalCost: 3, requests: 5, avgCost: 0.6, avgLatency: 100 },
    { provider: "anthropic", totalCost: 0.5, requests: 5, avgCost: 0.1, avgLatency: 200 },
  ]);
  expect(r.daily).toHaveLength(7);
  expect(r.daily.at(-1)).toEqual({ date: "2026-11-25", cost: 2 });
  expect(r.daily.at(-2)).toEqual({ date: "2026-11-24", cost: 1.5 });
  expect(r.daily.reduce((s, d) => s + d.cost, 0)).toBeCloseTo(r.totalCost, 9);
  // Today's $2 is still filling: the average is of the six closed days ($1.50 / 6).
  expect(r.trends.dailyAverage).toBe(0.25);
});

test("an empty window answers zeros, not NaN", () => {
  const r = buildReport([], windowOf(30, now));
  expect(r).toMatchObject({
    totalCost: 0,
    totalRequests: 0,
    avgCostPerRequest: 0,
    costByProvider: [],
    anomalies: [],
    trends: { dailyAverage: 0, weeklyGrowth: 0, efficiencyScore: 100 },
  });
  expect(r.forecast).toMatchObject({ "7day": 0, "30day": 0, "90day": 0 });
});

test("periods: 7d, 30d, 90d; anything else is a 400", () => {
  expect(parsePeriod("7d", "period")).toBe(7);
  expect(parsePeriod(null, "timeframe")).toBe(30);
  expect(() => parsePeriod("31d", "timeframe")).toThrow(/timeframe/);
  expect(() => parsePeriod("constructor", "period")).toThrow(/period/);
});

test("budget: spent, projection at the month's pace, thresholds reached", () => {
  // Nov 2026 has 30 days; at noon on the 16th, 15.5 days have passed.
  const mid = Date.UTC(2026, 10, 16, 12);
  const b = budgetStatus(1000, 6_200_000, mid);
  expect(b).toMatchObject({ month: "2026-11", spentCents: 620, spentPercent: 62, thresholdsReached: [50] });
  expect(b.projectedCents).toBe(1200);
  expect(b.projectedPercent).toBe(120);
  expect(budgetStatus(null, 5, mid)).toMatchObject({ spentPercent: null, thresholdsReached: [] });
  expect(budgetStatus(100, 1_000_000, mid).thresholdsReached).toEqual([50, 75, 90, 100]);
});

/** `dollars` per UTC day for the `days` days before today, and `today` so far (rows are read with the window's history). */
const steady = (days: number, dollars: number, today: number, provider = "openai") => [
  ...Array.from({ length: days }, (_, i) => row(i + 1, provider, dollars * 1_000_000, 1, 1)),
  row(0, provider, today * 1_000_000, 1, 1),
];

test("a steady spend grows by 0% a week on every window, 7d included, however much of today has passed", () => {
  for (const days of [7, 30, 90]) {
    const w = windowOf(days, now);
    const r = buildReport(steady(days + 14, 1, 0.25), w);
    // Not +100% (a 7-day window has no week before it of its own) and not -11% (today is a quarter spent).
    expect(r.trends.weeklyGrowth).toBe(0);
    // The daily average of closed days: today's quarter is not a day.
    expect(r.trends.dailyAverage).toBe(1);
    // The window's own figures stay the window's: its days only, today included.
    expect(r.totalCost).toBe(days - 1 + 0.25);
    expect(r.daily).toHaveLength(days);
  }
});

test("a spike on a 7-day window's closed days is judged against the week before it, read from before the window", () => {
  const rows = [...steady(20, 1, 0.5).filter((x) => x.hour !== Date.UTC(2026, 10, 23) + 3_600_000), row(2, "openai", 9_000_000, 1, 1)];
  const r = buildReport(rows, windowOf(7, now));
  expect(r.anomalies).toEqual([{ date: "2026-11-23", cost: 9, expectedCost: 1, deviation: 800, severity: "high" }]);
  // A new organization's first week is not judged against the days before its first call (it was judged a
  // "high" anomaly 5,000,000 deviations out, and its second day a "low" one); from its eighth day it is.
  expect(buildReport(steady(6, 1, 1), windowOf(7, now)).anomalies).toEqual([]);
  const young = [...steady(8, 1, 1).filter((x) => x.hour !== Date.UTC(2026, 10, 24) + 3_600_000), row(1, "openai", 3_000_000, 1, 1)];
  expect(buildReport(young, windowOf(7, now)).anomalies).toEqual([
    { date: "2026-11-24", cost: 3, expectedCost: 1, deviation: 200, severity: "high" },
  ]);
});

test("a new organization's first days forecast their own pace: the empty days before its first spend are not a trend", () => {
  for (const days of [1, 2, 3]) {
    // $5 a day for the last `days` closed days, nothing before (the organization is new).
    const r = buildReport(
      Array.from({ length: days }, (_, i) => row(i + 1, "openai", 5_000_000, 1, 1)),
      windowOf(30, now),
    );
    expect(r.forecast).toMatchObject({ "7day": 35, "30day": 150, "90day": 450 });
    expect(r.forecast.model).toMatchObject({ level: 5, trend: 0, daysFitted: days });
  }
  // Spend that fell to nothing still forecasts from the days it was spent: zeros after the first spend are history.
  const stopped = buildReport([row(10, "openai", 5_000_000, 1, 1)], windowOf(30, now));
  expect(stopped.forecast.model.daysFitted).toBe(10);
  expect(stopped.forecast["30day"]).toBeLessThan(150);
});

test("an organization that spent before the window fits the window's first empty days too: a pause is history, not days before it existed", () => {
  // $5 a day until eight days ago, nothing since, then $5 yesterday: a 7-day window of five empty days and one of spend.
  const rows = [...Array.from({ length: 10 }, (_, i) => row(i + 8, "openai", 5_000_000, 1, 1)), row(1, "openai", 5_000_000, 1, 1)];
  const r = buildReport(rows, windowOf(7, now));
  expect(r.forecast.model.daysFitted).toBe(6);
  // Fitted on yesterday alone it would forecast yesterday's $5 a day, as for a new organization.
  expect(r.forecast["7day"]).toBeLessThan(35);
  // Nothing spent before the window: the empty days before the first spend are still left out.
  expect(buildReport([row(1, "openai", 5_000_000, 1, 1)], windowOf(7, now)).forecast.model.daysFitted).toBe(1);
});
