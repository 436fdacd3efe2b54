/**
 * The five analytics views of one organization, read from the hourly roll-ups (never
 * raw usage rows). Every view answers the specification's analytics response over its
 * window, plus its own focus:
 * - forecast/:period  history = `timeframe`; `:period` is the horizon projected;
 * - anomalies         window = `timeframe`;
 * - trends/:period    window = `:period` (the path wins over `timeframe`);
 * - budget            window = `timeframe`, plus this month against `monthlyBudget`;
 * - providers/:period window = `:period`.
 */
import type { UsageHourly } from "../../domain/types.ts";
import type { Store } from "../../store/store.ts";
import { budgetStatus, type BudgetStatus, monthStart } from "./budget.ts";
import { forecastSum, fitHolt } from "./holt.ts";
import { toDollars } from "./money.ts";
import { type AnalyticsReport, buildReport, historyFrom } from "./report.ts";
import { DAY_MS, dayOf, parsePeriod, windowOf } from "./window.ts";

export type AnalyticsView = "forecast" | "anomalies" | "trends" | "budget" | "providers";

export interface AnalyticsQuery {
  /** The path's `:period`, on the views that have one. */
  period?: string | null;
  timeframe?: string | null;
  provider?: string | null;
  /** Only calls made for this application (`context.applicationId` / `x-gw-application`). */
  application?: string | null;
}

export type AnalyticsAnswer = AnalyticsReport & {
  view: AnalyticsView;
  provider: string | null;
  application: string | null;
  focus?: { horizonDays: number; projectedCost: number } | { budget: BudgetStatus };
};

/** The window's roll-ups summed per UTC day and provider by the store: at most days x providers rows. */
export function loadDailyByProvider(
  store: Store,
  orgId: string,
  from: number,
  to: number,
  provider: string | null,
  application: string | null = null,
): Promise<UsageHourly[]> {
  return store.sumUsage(orgId, from, to, { by: ["day", "provider"], provider, application });
}

/** This UTC month's spend, from the daily roll-up (the month starts on a day boundary). */
export async function spentThisMonthMicros(store: Store, orgId: string, now: number): Promise<number> {
  const [total] = await store.sumUsage(orgId, monthStart(now), dayOf(now) + DAY_MS, { by: [], provider: null });
  return total?.costMicros ?? 0;
}

export async function orgAnalytics(
  store: Store,
  orgId: string,
  view: AnalyticsView,
  q: AnalyticsQuery,
  now: number,
): Promise<AnalyticsAnswer> {
  // Checked first, so a bad value is a 400 before anything is read.
  const timeframeDays = parsePeriod(q.timeframe, "timeframe");
  const periodDays = view === "forecast" || view === "trends" || view === "providers" ? parsePeriod(q.period, "period") : null;
  const provider = q.provider ? q.provider.slice(0, 100) : null;
  const days = view === "trends" || view === "providers" ? periodDays! : timeframeDays;
  const w = windowOf(days, now);
  const report = buildReport(
    await loadDailyByProvider(store, orgId, historyFrom(w), w.to, provider, q.application ? q.application.slice(0, 200) : null),
    w,
  );
  const answer: AnalyticsAnswer = { view, provider, application: q.application || null, ...report };
  if (view === "forecast") {
    const closed = report.daily.slice(0, -1).map((d) => Math.round(d.cost * 1_000_000));
    answer.focus = {
      horizonDays: periodDays!,
      // The days the report's own forecast fitted: the closed days from the first with spend, read with the history.
      projectedCost: toDollars(Math.round(forecastSum(fitHolt(closed.slice(closed.length - report.forecast.model.daysFitted)), periodDays!))),
    };
  }
  if (view === "budget") {
    const prefs = await store.getOrgPreferences(orgId);
    answer.focus = { budget: budgetStatus(prefs.monthlyBudgetCents, await spentThisMonthMicros(store, orgId, now), now) };
  }
  return answer;
}
