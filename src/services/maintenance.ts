/**
 * Housekeeping that keeps the store bounded: raw usage rows past their retention
 * period (hourly roll-ups stay), the optimizer's document rows past the same period
 * (its running totals stay, and so do each organization's newest, which the metrics
 * list), the ids of usage flushes past a day, audit entries past theirs (every refusal
 * is audited, so the log grows with traffic), notifications past theirs (with their
 * read marks and webhook deliveries; budget thresholds of this month and the last
 * stay), and sessions idle past their 24 hours. Runs at start and then hourly, off the
 * request path.
 */
import type { Logger } from "../lib/log.ts";
import type { Store } from "../store/store.ts";
import { BUDGET_KIND } from "./alerts/budget-alerts.ts";
import { RECENT_DOCUMENTS } from "./context-optimizer/etl-service.ts";
import { SESSION_IDLE_MS } from "./sessions.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long a usage flush's id is kept. A batch is retried within minutes of its first try
 * (every flush interval while the store is away; a process that restarts forgets its
 * batches), so a day recognizes any retry with room to spare while the table stays small.
 */
const FLUSH_ID_MS = DAY_MS;

/** 00:00 UTC on the 1st of the month before the one `now` falls in. */
function previousMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
}

/** Days each kind of row is kept. */
export interface Retention {
  /** Raw usage events, and the optimizer's document rows. */
  usageDays: number;
  auditDays: number;
  notificationDays: number;
}

export async function runMaintenance(
  store: Store,
  retention: Retention,
  now: number,
): Promise<{
  usageEvents: number;
  usageFlushes: number;
  etlDocuments: number;
  auditEntries: number;
  notifications: number;
  sessions: number;
}> {
  const usageEvents = await store.pruneUsageEvents(now - retention.usageDays * DAY_MS);
  const usageFlushes = await store.pruneUsageFlushes(now - FLUSH_ID_MS);
  const etlDocuments = await store.pruneEtlDocuments(now - retention.usageDays * DAY_MS, RECENT_DOCUMENTS);
  const auditEntries = await store.pruneAuditEntries(now - retention.auditDays * DAY_MS);
  // A budget threshold's notification is what makes it announced once (its id is derived): this month's and the
  // last's stay whatever the retention, so neither a short one nor a pruning node's clock ahead of the others
  // (the last month is checked through the new one's first day) lets a threshold be announced again.
  const notifications = await store.pruneNotifications(now - retention.notificationDays * DAY_MS, {
    kinds: [BUDGET_KIND],
    since: previousMonthStart(now),
  });
  const sessions = await store.deleteSessionsIdleSince(now - SESSION_IDLE_MS);
  return { usageEvents, usageFlushes, etlDocuments, auditEntries, notifications, sessions };
}

/**
 * Starts the hourly job; returns a function that stops it. `claim` says whether this node
 * runs it this time (several nodes on one store: the first to claim the period does).
 */
export function scheduleMaintenance(
  store: Store,
  retention: Retention,
  log: Logger,
  everyMs = 60 * 60 * 1000,
  claim: (forMs: number) => Promise<boolean> = async () => true,
): () => void {
  const run = () =>
    // Claimed for most of a period: the node whose timer fires first in the next one runs it then.
    claim(everyMs * 0.9)
      .then((mine) => (mine ? runMaintenance(store, retention, Date.now()) : null))
      .then((removed) => {
        if (removed === null) return;
        if (Object.values(removed).some((n) => n > 0)) log.info("maintenance", { removed });
      })
      .catch((err) => log.error("maintenance failed", { error: String(err) }));
  const first = setTimeout(run, 5_000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
