/** Notifications (budget thresholds, alerts), from the notifications.list operation where the gateway has it, each with its webhook delivery. */
import { op } from "../api.ts";
import { Async, Empty, useLoad, when } from "../components.tsx";
import type { Notification, WebhookOutcome } from "../types.ts";

export function Notifications() {
  const [list, reload] = useLoad(() => op<{ notifications: Notification[] }>("notifications.list", {}));
  return (
    <>
      <h1>Notifications</h1>
      <Async value={list} what="notifications" retry={reload}>
        {({ notifications }) =>
          notifications.length === 0 ? (
            <Empty>No notifications.</Empty>
          ) : (
            <ul class="plain">
              {notifications.map((n) => (
                <li key={n.id} class={n.readAt ? "muted" : ""}>
                  <span class={`badge ${n.severity}`}>{n.severity}</span> <strong>{n.title || n.kind}</strong>{" "}
                  <span class="muted small">{when(n.createdAt)}</span>
                  {n.webhook && <WebhookDelivery webhook={n.webhook} />}
                </li>
              ))}
            </ul>
          )
        }
      </Async>
    </>
  );
}

/** Delivered, or failed with the last error; every attempt's answer (open when it failed, the case an admin must act on). */
function WebhookDelivery({ webhook }: { webhook: WebhookOutcome }) {
  const last = webhook.attempts.at(-1);
  return (
    <details class="small webhook" open={!webhook.delivered}>
      <summary>
        {webhook.delivered ? (
          <span class="badge ok">webhook delivered</span>
        ) : (
          <>
            <span class="badge critical">webhook failed</span> {last?.error ?? "no attempt recorded"}
          </>
        )}{" "}
        <span class="muted">
          ({webhook.attempts.length} {webhook.attempts.length === 1 ? "attempt" : "attempts"})
        </span>
      </summary>
      <ol class="attempts">
        {webhook.attempts.map((a) => (
          <li key={`${a.attempt}-${a.at}`}>
            {a.attempt === 0 ? "Not sent" : `Attempt ${a.attempt}`}: {attemptOutcome(a)} <span class="muted">{when(a.at)}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

function attemptOutcome(a: WebhookOutcome["attempts"][number]): string {
  if (a.error !== null) return a.error;
  return a.status === null ? "no answer" : `answered ${a.status}`;
}
