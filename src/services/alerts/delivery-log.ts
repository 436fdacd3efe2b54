/**
 * What became of each notification's webhook post, from the recorded attempts:
 * delivered or not, and every attempt's answer or failure, so an admin sees a
 * receiver that refuses or a missing secret where the notifications are listed.
 */
import type { WebhookDelivery } from "../../domain/types.ts";
import type { Store } from "../../store/store.ts";

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
  // By the page's own ids: the organization's latest attempts may all be newer notifications' (a page of unread ones, say).
  for (const d of (await store.listWebhookDeliveriesOf(orgId, notificationIds)).sort(byTime)) {
    let o = out.get(d.notificationId);
    if (!o) out.set(d.notificationId, (o = { delivered: false, attempts: [] }));
    if (d.error === null && d.status !== null && d.status >= 200 && d.status < 300) o.delivered = true;
    o.attempts.push({ attempt: d.attempt, status: d.status, error: d.error, at: new Date(d.createdAt).toISOString() });
  }
  return out;
}

const byTime = (a: WebhookDelivery, b: WebhookDelivery) => a.createdAt - b.createdAt || a.attempt - b.attempt;
