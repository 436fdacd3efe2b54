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

export type NotificationInput = Pick<Notification, "orgId" | "kind" | "severity" | "title" | "body">;

export class Notifier {
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly deps: NotifierDeps) {}

  async notify(input: NotificationInput): Promise<Notification> {
    const n: Notification = { ...input, id: newId("ntf"), createdAt: this.deps.delivery.now() };
    await this.deps.store.createNotification(n);
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
