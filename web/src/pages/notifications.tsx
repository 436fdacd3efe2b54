/** Notifications (budget thresholds, alerts), from the notifications.list operation where the gateway has it. */
import { op } from "../api.ts";
import { Async, Empty, useLoad, when } from "../components.tsx";

interface Notification {
  id: string;
  kind?: string;
  title?: string;
  message?: string;
  createdAt: string;
  readAt?: string | null;
}

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
                  <strong>{n.title ?? n.kind}</strong> {n.message} <span class="muted small">{when(n.createdAt)}</span>
                </li>
              ))}
            </ul>
          )
        }
      </Async>
    </>
  );
}
