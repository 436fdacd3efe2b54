/**
 * Budget alerts: each of 50/75/90/100% of the monthly budget is announced once per
 * month and budget amount, when the check first sees it reached. The notification's id is
 * derived from the organization, month, budget and threshold, so the store keeps it once
 * however many nodes check at the same moment and however many notifications came after it.
 * Amounts are exact (micro-dollars, and cents with decimals): a budget of a few cents
 * rounded to whole cents would read as 100% spent under a "50%" title.
 */
import type { Store } from "../../store/store.ts";
import { budgetStatus, monthStart, projectedMicros } from "../analytics/budget.ts";
import { DAY_MS } from "../analytics/window.ts";
import { MICROS_PER_CENT, MICROS_PER_DOLLAR } from "../analytics/money.ts";
import { spentThisMonthMicros } from "../analytics/org-analytics.ts";
import type { Notifier } from "./notifier.ts";

export const BUDGET_KIND = "budget.threshold";
/** A cheap first skip over recent notifications (and those written before ids were derived); the id is what guarantees once. */
const LOOKBACK = 500;

/**
 * This month's thresholds; and through the new month's first day, the month just ended's
 * too: a threshold crossed after its last check (or flushed late) is announced for it then.
 */
export async function checkBudget(store: Store, notifier: Notifier, orgId: string, now: number): Promise<number[]> {
  const prefs = await store.getOrgPreferences(orgId);
  if (prefs.monthlyBudgetCents === null) return [];
  const start = monthStart(now);
  const ended = now - start < DAY_MS ? await checkMonth(store, notifier, orgId, prefs.monthlyBudgetCents, start - 1, true) : [];
  return [...ended, ...(await checkMonth(store, notifier, orgId, prefs.monthlyBudgetCents, now, false))];
}

/** The thresholds of the month `at` falls in (its spend to `at`'s day end), announced if new. */
async function checkMonth(
  store: Store,
  notifier: Notifier,
  orgId: string,
  budgetCents: number,
  at: number,
  ended: boolean,
): Promise<number[]> {
  const spentMicros = await spentThisMonthMicros(store, orgId, at);
  const status = budgetStatus(budgetCents, spentMicros, at);
  if (status.thresholdsReached.length === 0) return [];
  const sent = new Set(
    (await store.listNotifications(orgId, LOOKBACK))
      .filter((n) => n.kind === BUDGET_KIND && n.body.month === status.month && n.body.monthlyBudgetCents === budgetCents)
      .map((n) => Number(n.body.threshold)),
  );
  const fresh = status.thresholdsReached.filter((t) => !sent.has(t));
  // The budget is read as it is now: changed since the month ended (lowered or raised for the new month, as a cap
  // spent at the month's end is), it is not the one that month had, and judged against it the month would be
  // announced at thresholds it never reached under its own.
  if (ended && fresh.length > 0 && (await budgetChangedSince(store, orgId, at + 1))) return [];
  // A month that has ended is spent, not projected.
  const projected = ended ? spentMicros : projectedMicros(spentMicros, at);
  const budgetMicros = budgetCents * MICROS_PER_CENT;
  const announced: number[] = [];
  for (const threshold of fresh) {
    const written = await notifier.notify({
      orgId,
      // The budget is part of the key: a budget changed during the month has thresholds of its own.
      onceKey: `${BUDGET_KIND}:${status.month}:${budgetCents}:${threshold}`,
      kind: BUDGET_KIND,
      severity: threshold >= 100 ? "critical" : threshold >= 90 ? "warning" : "info",
      title: `Spend reached ${threshold}% of the monthly budget${ended ? ` for ${status.month}` : ""} (${status.spentPercent}%: ${usd(spentMicros)} of ${usd(budgetMicros)})`,
      body: {
        month: status.month,
        threshold,
        spentPercent: status.spentPercent,
        spentMicros,
        monthlyBudgetMicros: budgetMicros,
        projectedMicros: projected,
        spentCents: spentMicros / MICROS_PER_CENT,
        monthlyBudgetCents: status.monthlyBudgetCents,
        projectedCents: projected / MICROS_PER_CENT,
      },
    });
    if (written) announced.push(threshold);
  }
  return announced;
}

/** Audit entries read, at most, looking for a budget change since the month ended (two hundred a page). */
const AUDIT_PAGES = 10;

/**
 * Whether the monthly budget was changed at `since` or after: the audit log's
 * `preferences.update` entries name the settings they changed. More entries since then
 * than are read: not known, so taken as changed (the ended month is then not judged).
 */
async function budgetChangedSince(store: Store, orgId: string, since: number): Promise<boolean> {
  let before: string | null = null;
  for (let page = 0; page < AUDIT_PAGES; page++) {
    const { entries, nextBefore } = await store.listAudit(orgId, { limit: 200, before });
    for (const e of entries) {
      if (e.createdAt < since) return false;
      const changed = e.details.changed;
      if (e.action === "preferences.update" && Array.isArray(changed) && changed.includes("monthlyBudgetCents")) return true;
    }
    if (nextBefore === null) return false;
    before = nextBefore;
  }
  return true;
}

/** Dollars to the micro-dollar, without trailing zeros: $0.0125, $2. */
function usd(micros: number): string {
  return `$${(micros / MICROS_PER_DOLLAR).toFixed(6).replace(/\.?0+$/, "")}`;
}
