/**
 * The one channel for system notifications: a row in the notifications table, then
 * (when the organization set `alertWebhookUrl`) a signed post to its webhook in the
 * background. Budget thresholds, rate-limit states and other alerts all come here.
 */
import type { Notification } from "../../domain/types.ts";
import { newId } from "../../domain/ids.ts";
import type { Logger } from "../../lib/log.ts";
import type { SecretBox } from "../../lib/secret-box.ts";
import type { Store } from "../../store/store.ts";
import { type DeliveryDeps, deliverWebhook } from "./webhook-delivery.ts";
import { openWebhookSecret } from "./webhook-secret.ts";

export interface NotifierDeps {
  store: Store;
  box: SecretBox;
  log: Logger;
  delivery: Omit<DeliveryDeps, "record">;
}

export type NotificationInput = Pick<Notification, "orgId" | "kind" | "severity" | "title" | "body"> & {
  /**
   * For an alert that must exist once (a budget threshold in a month): its id is derived
   * from this, so a second node or a later check writing it again adds nothing and posts nothing.
   */
  onceKey?: string;
};

/** The id of the organization's notification named by `onceKey`: the same on every node. */
export function onceId(orgId: string, onceKey: string): string {
  return `ntf_${new Bun.CryptoHasher("sha256").update(`${orgId}\u0000${onceKey}`).digest("hex").slice(0, 32)}`;
}

export class Notifier {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly deps: NotifierDeps) {}

  /** The notification written, or null when its `onceKey` had been written already. */
  async notify(input: NotificationInput): Promise<Notification | null> {
    const { onceKey, ...fields } = input;
    const id = onceKey === undefined ? newId("ntf") : onceId(input.orgId, onceKey);
    const n: Notification = { ...fields, id, createdAt: this.deps.delivery.now() };
    if (!(await this.deps.store.createNotification(n))) return null;
    const { alertWebhookUrl } = await this.deps.store.getOrgPreferences(n.orgId);
    if (alertWebhookUrl) {
      const p = this.post(alertWebhookUrl, n)
        .catch((err) => this.deps.log.error("webhook delivery failed", { orgId: n.orgId, notificationId: n.id, error: String(err) }))
        .finally(() => this.pending.delete(p));
      this.pending.add(p);
    }
    return n;
  }

  /** Resolves when every delivery under way has finished (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private async post(url: string, n: Notification): Promise<void> {
    const record = (d: Parameters<Store["recordWebhookDelivery"]>[0]) => this.deps.store.recordWebhookDelivery(d);
    const secret = await openWebhookSecret(this.deps.store, this.deps.box, n.orgId);
    if (secret === null) {
      // Unsigned posts would teach receivers to accept forgeries: nothing is sent until an admin makes a secret.
      await record({
        id: newId("whd"),
        orgId: n.orgId,
        notificationId: n.id,
        attempt: 0,
        status: null,
        error: "no webhook secret; an admin creates one with org.webhook-secret.rotate (or by setting alertWebhookUrl again)",
        createdAt: this.deps.delivery.now(),
      });
      return;
    }
    await deliverWebhook({ ...this.deps.delivery, record }, url, secret, n);
  }
}
