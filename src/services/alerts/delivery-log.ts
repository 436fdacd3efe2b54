/**
 * What became of each notification's webhook post, from the recorded attempts:
 * delivered or not, and every attempt's answer or failure, so an admin sees a
 * receiver that refuses or a missing secret where the notifications are listed.
 */
import type { WebhookDelivery } from "../../domain/types.ts";
import type { Store } from "../../store/store.ts";

/** Attempts read per listed notification at most: the delivery's own attempts, with room. */
const ATTEMPTS_PER_NOTIFICATION = 8;

export interface WebhookOutcome {
  /** An attempt got a 2xx answer. */
  delivered: boolean;
  /** Oldest first: `attempt` 0 is a post that was never sent (no signing secret). */
  attempts: { attempt: number; status: number | null; error: string | null; at: string }[];
}

/** The webhook outcome of each of these notifications that was posted (or meant to be); absent: no webhook was set. */
export async function webhookOutcomes(store: Store, orgId: string, notificationIds: string[]): Promise<Map<string, WebhookOutcome>> {
  const out = new Map<string, WebhookOutcome>();
  if (notificationIds.length === 0) return out;
  const wanted = new Set(notificationIds);
  // Newest first, as the notifications are listed: the page's attempts are the latest ones recorded.
  const recent = await store.listWebhookDeliveries(orgId, notificationIds.length * ATTEMPTS_PER_NOTIFICATION);
  const mine = recent.filter((d) => wanted.has(d.notificationId)).sort(byTime);
  for (const d of mine) {
    let o = out.get(d.notificationId);
    if (!o) out.set(d.notificationId, (o = { delivered: false, attempts: [] }));
    if (d.error === null && d.status !== null && d.status >= 200 && d.status < 300) o.delivered = true;
    o.attempts.push({ attempt: d.attempt, status: d.status, error: d.error, at: new Date(d.createdAt).toISOString() });
  }
  return out;
}

const byTime = (a: WebhookDelivery, b: WebhookDelivery) => a.createdAt - b.createdAt || a.attempt - b.attempt;
