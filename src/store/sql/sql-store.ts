/**
 * The store over SQL, for SQLite (embedded) and Postgres (scale-out) alike: one
 * statement per operation, written once with `$n` parameters, on a driver that owns
 * what differs (sqlite/sqlite-driver.ts, postgres/postgres-driver.ts). One class per
 * family of tables, each extending the one before, so each file reads alone:
 * people-sql.ts (organizations, users, sessions), keys-sql.ts (service accounts, API
 * keys), settings-sql.ts (audit, preferences, providers), usage-sql.ts (the flush and
 * usage reads), mcp-sql.ts (tool servers), etl-sql.ts (the optimizer's figures), and here notifications and webhooks.
 */
import type { Notification, ReaderNotification, WebhookDelivery } from "../../domain/types.ts";
import type { Store } from "../store.ts";
import { EtlSql } from "./etl-sql.ts";
import { toNotification, toReaderNotification, toWebhookDelivery } from "./rows.ts";

export class SqlStore extends EtlSql implements Store {
  async claimMasterKeyCheck(check: string, now: number): Promise<string> {
    await this.run(
      "INSERT INTO master_key_checks (id, check_value, created_at) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING",
      check,
      now,
    );
    return String(await this.masterKeyCheck());
  }

  async masterKeyCheck(): Promise<string | null> {
    const [row] = await this.all("SELECT check_value FROM master_key_checks WHERE id = 1");
    return row ? String(row.check_value) : null;
  }

  async createNotification(n: Notification): Promise<boolean> {
    // An id already there is the same notification written by another node or an earlier check: kept as it was.
    const added = await this.run(
      "INSERT INTO notifications (id, org_id, kind, severity, title, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING",
      n.id,
      n.orgId,
      n.kind,
      n.severity,
      n.title,
      JSON.stringify(n.body),
      n.createdAt,
    );
    return added > 0;
  }

  async listNotifications(orgId: string, limit: number): Promise<Notification[]> {
    return (await this.all("SELECT * FROM notifications WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", orgId, limit)).map(
      toNotification,
    );
  }

  async listNotificationsFor(orgId: string, reader: string, opts: { limit: number; unreadOnly: boolean }): Promise<ReaderNotification[]> {
    // Columns named one by one: `notifications.read_at` (organization-wide, before 009) must not pass for the reader's mark.
    const rows = await this.all(
      `SELECT n.id, n.org_id, n.kind, n.severity, n.title, n.body, n.created_at, r.read_at FROM notifications n
         LEFT JOIN notification_reads r ON r.notification_id = n.id AND r.reader = $2
         WHERE n.org_id = $1${opts.unreadOnly ? " AND r.read_at IS NULL" : ""} ORDER BY n.created_at DESC, n.id DESC LIMIT $3`,
      orgId,
      reader,
      opts.limit,
    );
    return rows.map(toReaderNotification);
  }

  async markNotificationsRead(orgId: string, reader: string, ids: string[] | null, at: number): Promise<number> {
    if (ids?.length === 0) return 0;
    const only = ids ? ` AND id IN (${ids.map((_, i) => `$${i + 4}`).join(", ")})` : "";
    // A mark already there stays as it was (its first time), and is not counted.
    return this.run(
      `INSERT INTO notification_reads (notification_id, reader, read_at)
         SELECT id, CAST($2 AS TEXT), CAST($3 AS BIGINT) FROM notifications WHERE org_id = $1${only}
         ON CONFLICT (notification_id, reader) DO NOTHING`,
      orgId,
      reader,
      at,
      ...(ids ?? []),
    );
  }

  async pruneNotifications(cutoff: number, keep?: { kinds: readonly string[]; since: number }): Promise<number> {
    // Per organization, as the indexes lead with it. A delivery is made at or after its notification,
    // so the few made just after a pruned one's cutoff go on the next run.
    const kinds = keep?.kinds ?? [];
    const marks = kinds.map((_, i) => `$${i + 3}`).join(", ");
    // Notifications kept past the cutoff (this month's budget thresholds), and so their deliveries.
    const kept = kinds.length === 0 ? "" : ` AND NOT (kind IN (${marks}) AND created_at >= $2)`;
    const params = kinds.length === 0 ? [cutoff] : [cutoff, keep!.since, ...kinds];
    const old = `SELECT id FROM notifications WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1${kept}`;
    const keptDeliveries =
      kinds.length === 0
        ? ""
        : ` AND notification_id NOT IN (SELECT id FROM notifications WHERE created_at < $1 AND kind IN (${marks}) AND created_at >= $2)`;
    const [, , notifications] = await this.db.transaction([
      { text: `DELETE FROM notification_reads WHERE notification_id IN (${old})`, params },
      {
        text: `DELETE FROM webhook_deliveries WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1${keptDeliveries}`,
        params,
      },
      { text: `DELETE FROM notifications WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1${kept}`, params },
    ]);
    return notifications ?? 0;
  }

  async setWebhookSecret(orgId: string, sealed: string, at: number): Promise<void> {
    await this.run(
      "INSERT INTO webhook_secrets (org_id, sealed, created_at) VALUES ($1, $2, $3) ON CONFLICT (org_id) DO UPDATE SET sealed = excluded.sealed, created_at = excluded.created_at",
      orgId,
      sealed,
      at,
    );
  }

  async getWebhookSecret(orgId: string): Promise<string | null> {
    const r = await this.one("SELECT sealed FROM webhook_secrets WHERE org_id = $1", orgId);
    return r ? String(r.sealed) : null;
  }

  async recordWebhookDelivery(d: WebhookDelivery): Promise<void> {
    await this.run(
      "INSERT INTO webhook_deliveries (id, org_id, notification_id, attempt, status, error, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      d.id,
      d.orgId,
      d.notificationId,
      d.attempt,
      d.status,
      d.error,
      d.createdAt,
    );
  }

  async listWebhookDeliveriesOf(orgId: string, notificationIds: string[]): Promise<WebhookDelivery[]> {
    if (notificationIds.length === 0) return [];
    const ids = notificationIds.map((_, i) => `$${i + 2}`).join(", ");
    return (
      await this.all(
        `SELECT * FROM webhook_deliveries WHERE org_id = $1 AND notification_id IN (${ids}) ORDER BY created_at, attempt`,
        orgId,
        ...notificationIds,
      )
    ).map(toWebhookDelivery);
  }

  async listWebhookDeliveries(orgId: string, limit: number): Promise<WebhookDelivery[]> {
    return (
      await this.all("SELECT * FROM webhook_deliveries WHERE org_id = $1 ORDER BY created_at DESC, attempt DESC LIMIT $2", orgId, limit)
    ).map(toWebhookDelivery);
  }
}
