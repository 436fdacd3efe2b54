/**
 * Posts one notification to an organization's webhook: signed JSON, retried with
 * exponential backoff on network errors and 5xx/429 answers, every attempt's result
 * kept. A 4xx other than 429 is the receiver saying no; retrying would not change it,
 * and neither would an address the egress policy refuses (checked again here, at
 * connection time, since a name may resolve elsewhere than when it was saved).
 */
import type { Notification, WebhookDelivery } from "../../domain/types.ts";
import { newId } from "../../domain/ids.ts";
import type { EgressFetch } from "../../lib/egress/egress-fetch.ts";
import { EgressRefused, refusalText } from "../../lib/egress/egress-policy.ts";
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from "./webhook-signature.ts";

export interface DeliveryDeps {
  /** The egress fetch (the runtime's); tests give their own. */
  fetch: EgressFetch;
  record: (d: WebhookDelivery) => Promise<void>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  /** Attempts in all (first try included). */
  attempts: number;
  /** Wait before the second attempt; doubled before each later one. */
  backoffMs: number;
  timeoutMs: number;
}

export const DEFAULT_DELIVERY = { attempts: 4, backoffMs: 1000, timeoutMs: 10_000 };

/** The JSON a receiver gets: the notification without internal fields. */
export function webhookBody(n: Notification): string {
  return JSON.stringify({
    id: n.id,
    kind: n.kind,
    severity: n.severity,
    title: n.title,
    data: n.body,
    createdAt: new Date(n.createdAt).toISOString(),
  });
}

const retryable = (status: number) => status >= 500 || status === 429;

/** Returns true once an attempt got a 2xx. */
export async function deliverWebhook(deps: DeliveryDeps, url: string, secret: string, n: Notification): Promise<boolean> {
  const body = webhookBody(n);
  for (let attempt = 1; attempt <= deps.attempts; attempt++) {
    const ts = Math.floor(deps.now() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await deps.fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signWebhook(secret, ts, body),
          [TIMESTAMP_HEADER]: String(ts),
          "user-agent": "gateway-alerts",
        },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      status = res.status;
      // The receiver's body is not ours to keep.
      await res.body?.cancel();
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (err) {
      if (err instanceof EgressRefused && !err.unresolved) {
        const refused = `refused: ${refusalText(err.reason)}`;
        await deps.record({
          id: newId("whd"),
          orgId: n.orgId,
          notificationId: n.id,
          attempt,
          status,
          error: refused,
          createdAt: deps.now(),
        });
        return false;
      }
      error = err instanceof Error && err.name === "TimeoutError" ? "timed out" : "connection failed";
    }
    await deps.record({ id: newId("whd"), orgId: n.orgId, notificationId: n.id, attempt, status, error, createdAt: deps.now() });
    if (error === null) return true;
    if (status !== null && !retryable(status)) return false;
    if (attempt < deps.attempts) await deps.sleep(deps.backoffMs * 2 ** (attempt - 1));
  }
  return false;
}
