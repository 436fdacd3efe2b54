/**
 * Budget alerts: each of 50/75/90/100% of the monthly budget is announced once per
 * month, when the check first sees it reached (earlier notifications are the memory).
 */
import type { Store } from "../../store/store.ts";
import { budgetStatus } from "../analytics/budget.ts";
import { spentThisMonthMicros } from "../analytics/org-analytics.ts";
import type { Notifier } from "./notifier.ts";

export const BUDGET_KIND = "budget.threshold";
/** How far back the check looks for this month's earlier budget notifications. */
const LOOKBACK = 500;

export async function checkBudget(store: Store, notifier: Notifier, orgId: string, now: number): Promise<number[]> {
  const prefs = await store.getOrgPreferences(orgId);
  if (prefs.monthlyBudgetCents === null) return [];
  const status = budgetStatus(prefs.monthlyBudgetCents, await spentThisMonthMicros(store, orgId, now), now);
  if (status.thresholdsReached.length === 0) return [];
  const sent = new Set(
    (await store.listNotifications(orgId, LOOKBACK))
      .filter((n) => n.kind === BUDGET_KIND && n.body.month === status.month)
      .map((n) => Number(n.body.threshold)),
  );
  const fresh = status.thresholdsReached.filter((t) => !sent.has(t));
  for (const threshold of fresh) {
    await notifier.notify({
      orgId,
      kind: BUDGET_KIND,
      severity: threshold >= 100 ? "critical" : threshold >= 90 ? "warning" : "info",
      title: `Spend reached ${threshold}% of the monthly budget`,
      body: {
        month: status.month,
        threshold,
        spentCents: status.spentCents,
        monthlyBudgetCents: status.monthlyBudgetCents,
        projectedCents: status.projectedCents,
      },
    });
  }
  return fresh;
}
