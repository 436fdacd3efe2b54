/**
 * The specification's analytics response, computed from roll-up rows of one window and
 * the two weeks before it: totals, cost per provider, Holt forecast, anomalies and trends.
 * Forecast, anomalies, the daily average and the weekly growth look at closed days only
 * (today is still filling and would read as a drop). The history before the window lets
 * a window's first days be judged against the week before them and a 7-day window have a
 * week to grow from; the window's own figures (totals, providers, efficiency) never read it.
 */
import type { UsageHourly } from "../../domain/types.ts";
import { findAnomalies, TRAILING_DAYS } from "./anomalies.ts";
import { dailyCostMicros } from "./daily-series.ts";
import { fitHolt, forecastSum, fromFirstSpend } from "./holt.ts";
import { toDollars } from "./money.ts";
import { dailyAverage, efficiencyScore, weeklyGrowth } from "./trends.ts";
import { DAY_MS, type DayWindow } from "./window.ts";

export interface ProviderCost {
  provider: string;
  totalCost: number;
  requests: number;
  avgCost: number;
  /** Milliseconds per request. */
  avgLatency: number;
}

export interface AnalyticsReport {
  window: { from: string; to: string; days: number };
  totalCost: number;
  totalRequests: number;
  avgCostPerRequest: number;
  costByProvider: ProviderCost[];
  forecast: {
    "7day": number;
    "30day": number;
    "90day": number;
    model: {
      method: "holt-linear";
      level: number;
      trend: number;
      alpha: number;
      beta: number;
      daysFitted: number;
    };
  };
  anomalies: {
    date: string;
    cost: number;
    expectedCost: number;
    deviation: number;
    severity: "low" | "medium" | "high";
  }[];
  trends: {
    dailyAverage: number;
    weeklyGrowth: number;
    efficiencyScore: number;
  };
  /** Cost per UTC day of the window, oldest first (dollars). */
  daily: { date: string; cost: number }[];
}

const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const round = (n: number, places = 6): number => Math.round(n * 10 ** places) / 10 ** places;

export function providerCosts(rows: readonly UsageHourly[]): ProviderCost[] {
  const by = new Map<string, { micros: number; requests: number; latency: number }>();
  for (const r of rows) {
    const p = by.get(r.provider) ?? { micros: 0, requests: 0, latency: 0 };
    p.micros += r.costMicros;
    p.requests += r.requests;
    p.latency += r.latencyMsSum;
    by.set(r.provider, p);
  }
  return [...by.entries()]
    .map(([provider, p]) => ({
      provider,
      totalCost: toDollars(p.micros),
      requests: p.requests,
      avgCost: p.requests ? round(toDollars(p.micros) / p.requests) : 0,
      avgLatency: p.requests ? Math.round(p.latency / p.requests) : 0,
    }))
    .sort((a, b) => b.totalCost - a.totalCost || a.provider.localeCompare(b.provider));
}

/** Days read before a window: the trailing week of its first day's anomaly check, and two closed weeks for weekly growth. */
export const HISTORY_DAYS = 14;

/** Where the rows a report of `w` needs begin. */
export const historyFrom = (w: DayWindow): number => w.from - HISTORY_DAYS * DAY_MS;

/** `rows`: roll-ups from `historyFrom(w)` to `w.to` (rows outside the window count only as history). */
export function buildReport(allRows: readonly UsageHourly[], w: DayWindow): AnalyticsReport {
  const rows = allRows.filter((r) => r.hour >= w.from && r.hour < w.to);
  const series = dailyCostMicros(allRows, {
    from: historyFrom(w),
    to: w.to,
    days: w.days + HISTORY_DAYS,
  });
  // The history and the window's closed days: today, the last, is still filling.
  const closedSeries = series.slice(0, -1);
  const daily = series.slice(HISTORY_DAYS);
  const closed = closedSeries.slice(HISTORY_DAYS);
  let micros = 0;
  let requests = 0;
  for (const r of rows) {
    micros += r.costMicros;
    requests += r.requests;
  }
  // The window's closed days from its first with spend, unless the organization spent in the two weeks before it.
  const history = fromFirstSpend(closed, closedSeries.slice(0, HISTORY_DAYS).some((y) => y !== 0));
  // A day is judged against a week of spending history: the days before the first spend are none (a new
  // organization's first day would be "high", millions of deviations out). -1 (no spend): nothing to judge.
  const firstSpend = closedSeries.findIndex((y) => y !== 0);
  const fit = fitHolt(history);
  return {
    window: {
      from: new Date(w.from).toISOString(),
      to: new Date(w.to).toISOString(),
      days: w.days,
    },
    totalCost: toDollars(micros),
    totalRequests: requests,
    avgCostPerRequest: requests ? round(toDollars(micros) / requests) : 0,
    costByProvider: providerCosts(rows),
    forecast: {
      "7day": round(toDollars(forecastSum(fit, 7))),
      "30day": round(toDollars(forecastSum(fit, 30))),
      "90day": round(toDollars(forecastSum(fit, 90))),
      model: {
        method: "holt-linear",
        level: round(toDollars(fit.level)),
        trend: round(toDollars(fit.trend)),
        alpha: fit.alpha,
        beta: fit.beta,
        daysFitted: history.length,
      },
    },
    // Only the window's days are reported; each is judged against the 7 days before it, history included.
    anomalies: findAnomalies(closedSeries)
      .filter((a) => a.index >= HISTORY_DAYS && a.index >= firstSpend + TRAILING_DAYS)
      .map((a) => ({
        date: isoDate(historyFrom(w) + a.index * DAY_MS),
        cost: toDollars(a.cost),
        expectedCost: round(toDollars(a.expectedCost)),
        deviation: round(a.deviation, 2),
        severity: a.severity,
      })),
    trends: {
      dailyAverage: round(toDollars(dailyAverage(closed))),
      weeklyGrowth: round(weeklyGrowth(closedSeries), 2),
      efficiencyScore: round(efficiencyScore(rows), 2),
    },
    daily: daily.map((m, i) => ({
      date: isoDate(w.from + i * DAY_MS),
      cost: toDollars(m),
    })),
  };
}
