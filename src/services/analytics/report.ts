/**
 * The specification's analytics response, computed from hourly roll-up rows of one
 * window: totals, cost per provider, Holt forecast, anomalies and trends. Forecast and
 * anomalies look at closed days only (today is still filling and would read as a drop).
 */
import type { UsageHourly } from "../../domain/types.ts";
import { findAnomalies } from "./anomalies.ts";
import { dailyCostMicros } from "./daily-series.ts";
import { fitHolt, forecastSum } from "./holt.ts";
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
    model: { method: "holt-linear"; level: number; trend: number; alpha: number; beta: number; daysFitted: number };
  };
  anomalies: { date: string; cost: number; expectedCost: number; deviation: number; severity: "low" | "medium" | "high" }[];
  trends: { dailyAverage: number; weeklyGrowth: number; efficiencyScore: number };
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

export function buildReport(rows: readonly UsageHourly[], w: DayWindow): AnalyticsReport {
  const daily = dailyCostMicros(rows, w);
  const closed = daily.length > 1 ? daily.slice(0, -1) : daily;
  let micros = 0;
  let requests = 0;
  for (const r of rows) {
    micros += r.costMicros;
    requests += r.requests;
  }
  const fit = fitHolt(closed);
  return {
    window: { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(), days: w.days },
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
        daysFitted: closed.length,
      },
    },
    anomalies: findAnomalies(closed).map((a) => ({
      date: isoDate(w.from + a.index * DAY_MS),
      cost: toDollars(a.cost),
      expectedCost: round(toDollars(a.expectedCost)),
      deviation: round(a.deviation, 2),
      severity: a.severity,
    })),
    trends: {
      dailyAverage: round(toDollars(dailyAverage(daily))),
      weeklyGrowth: round(weeklyGrowth(daily), 2),
      efficiencyScore: round(efficiencyScore(rows), 2),
    },
    daily: daily.map((m, i) => ({ date: isoDate(w.from + i * DAY_MS), cost: toDollars(m) })),
  };
}
