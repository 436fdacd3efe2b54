/**
 * The scale-out store: Postgres through Bun.SQL (a connection pool), chosen by
 * GW_DATABASE_URL=postgres://... Same tables, migrations and row mappings as SQLite;
 * the SQL differs only in placeholders ($n) and in a flush being a few multi-row
 * statements (flush-statements.ts). BIGINT columns arrive as strings; the row mappings
 * convert them.
 */
import { SQL } from "bun";
import {
  DEFAULT_ORG_PREFERENCES,
  DEFAULT_PERSONAL_PREFERENCES,
  type ApiKeyRecord,
  type AuditEntry,
  type FlushBatch,
  type KeyPrincipal,
  type LoginLink,
  type Notification,
  type OrgPreferences,
  type Organization,
  type PersonalPreferences,
  type ProviderConfigRecord,
  type ServiceAccount,
  type Session,
  type EtlDocument,
  type UsageEvent,
  type UsageHourly,
  type UsageSum,
  type User,
  type WebhookDelivery,
} from "../../domain/types.ts";
import { hourOf, rollUpHourly } from "../hourly-rollup.ts";
import {
  type Row,
  toApiKey,
  toAudit,
  toNotification,
  toOrganization,
  toProviderConfig,
  toServiceAccount,
  toSession,
  toEtlDocument,
  toUsageEvent,
  toUsageHourly,
  toUser,
  toWebhookDelivery,
} from "../sqlite/rows.ts";
import { toUsageSums, type UsageSumOptions, usageSumQuery } from "../usage-sums.ts";
import type { AuditPage, Store } from "../store.ts";
import { flushStatements } from "./flush-statements.ts";
import { migratePostgres } from "./migrate.ts";

export interface PostgresStoreOptions {
  /** Connections in the pool. */
  max?: number;
  /** Called with each statement's round trip in seconds (the /metrics histogram). */
  observe?: (seconds: number) => void;
}

export class PostgresStore implements Store {
  private readonly sql: SQL;
  private readonly observe: (seconds: number) => void;

  constructor(url: string, opts: PostgresStoreOptions = {}) {
    this.sql = new SQL(url, { max: opts.max ?? 10, idleTimeout: 30, connectionTimeout: 10 });
    this.observe = opts.observe ?? (() => {});
  }

  private async all(text: string, ...params: unknown[]): Promise<Row[]> {
    const started = performance.now();
    try {
      return (await this.sql.unsafe(text, params)) as Row[];
    } finally {
      this.observe((performance.now() - started) / 1000);
    }
  }

  private async one(text: string, ...params: unknown[]): Promise<Row | null> {
    return (await this.all(text, ...params))[0] ?? null;
  }

  /** Statements that must apply together, in one transaction. */
  private async transaction(statements: { text: string; params: unknown[] }[]): Promise<number[]> {
    const started = performance.now();
    try {
      return await this.sql.begin(async (tx) => {
        const counts: number[] = [];
        for (const s of statements) counts.push(Number(((await tx.unsafe(s.text, s.params)) as unknown as { count: number }).count ?? 0));
        return counts;
      });
    } finally {
      this.observe((performance.now() - started) / 1000);
    }
  }

  /** Rows changed by an INSERT/UPDATE/DELETE. */
  private async run(text: string, ...params: unknown[]): Promise<number> {
    const started = performance.now();
    try {
      const r = (await this.sql.unsafe(text, params)) as unknown as { count: number };
      return Number(r.count ?? 0);
    } finally {
      this.observe((performance.now() - started) / 1000);
    }
  }

  async migrate(): Promise<void> {
    await migratePostgres(this.sql);
  }

  async ping(): Promise<void> {
    await this.one("SELECT 1");
  }

  async close(): Promise<void> {
    await this.sql.close({ timeout: 5 });
  }

  // Organizations and people

  async createOrganization(o: Organization): Promise<void> {
    await this.run("INSERT INTO organizations (id, name, tier, created_at) VALUES ($1, $2, $3, $4)", o.id, o.name, o.tier, o.createdAt);
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const r = await this.one("SELECT * FROM organizations WHERE id = $1", id);
    return r ? toOrganization(r) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.all("SELECT * FROM organizations ORDER BY created_at, id")).map(toOrganization);
  }

  async createUser(u: User): Promise<void> {
    await this.run(
      "INSERT INTO users (id, org_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)",
      u.id,
      u.orgId,
      u.email.toLowerCase(),
      u.role,
      u.createdAt,
    );
  }

  async getUser(id: string): Promise<User | null> {
    const r = await this.one("SELECT * FROM users WHERE id = $1", id);
    return r ? toUser(r) : null;
  }

  async getUserByEmail(email: string): Promise<User | null> {
    const r = await this.one("SELECT * FROM users WHERE email = $1", email.toLowerCase());
    return r ? toUser(r) : null;
  }

  async updateUserRole(id: string, role: User["role"]): Promise<User | null> {
    await this.run("UPDATE users SET role = $1 WHERE id = $2", role, id);
    return this.getUser(id);
  }

  async removeUser(id: string): Promise<boolean> {
    const counts = await this.transaction([
      { text: "DELETE FROM sessions WHERE user_id = $1", params: [id] },
      { text: "DELETE FROM login_links WHERE user_id = $1", params: [id] },
      { text: "DELETE FROM users WHERE id = $1", params: [id] },
    ]);
    return (counts[2] ?? 0) > 0;
  }

  async listUsers(orgId: string): Promise<User[]> {
    return (await this.all("SELECT * FROM users WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toUser);
  }

  // Service accounts and keys

  async deleteServiceAccount(id: string): Promise<boolean> {
    const counts = await this.transaction([
      { text: "DELETE FROM api_keys WHERE service_account_id = $1", params: [id] },
      { text: "DELETE FROM service_accounts WHERE id = $1", params: [id] },
    ]);
    return (counts[1] ?? 0) > 0;
  }

  async createServiceAccount(sa: ServiceAccount): Promise<void> {
    await this.run(
      "INSERT INTO service_accounts (id, org_id, name, description, role, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      sa.id,
      sa.orgId,
      sa.name,
      sa.description,
      sa.role,
      sa.createdBy,
      sa.createdAt,
    );
  }

  async listServiceAccounts(orgId: string): Promise<ServiceAccount[]> {
    return (await this.all("SELECT * FROM service_accounts WHERE org_id = $1 ORDER BY created_at, id", orgId)).map((r) =>
      toServiceAccount(r),
    );
  }

  async createApiKey(k: ApiKeyRecord): Promise<void> {
    await this.run(
      `INSERT INTO api_keys (id, org_id, service_account_id, name, key_hash, key_prefix, key_type, proxy_mode, spend_cap_cents,
         monthly_cap_cents, spent_micros, request_count, last_used_at, created_at, revoked_at, revoked_reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      k.id,
      k.orgId,
      k.serviceAccountId,
      k.name,
      k.keyHash,
      k.keyPrefix,
      k.keyType,
      k.proxyMode,
      k.spendCapCents,
      k.monthlyCapCents,
      k.spentMicros,
      k.requestCount,
      k.lastUsedAt,
      k.createdAt,
      k.revokedAt,
      k.revokedReason,
    );
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const r = await this.one("SELECT * FROM api_keys WHERE id = $1", id);
    return r ? toApiKey(r) : null;
  }

  async getKeyPrincipalByHash(keyHash: string): Promise<KeyPrincipal | null> {
    const r = await this.one(
      `SELECT k.*, sa.id AS sa_id, sa.org_id AS sa_org_id, sa.name AS sa_name, sa.description AS sa_description,
              sa.role AS sa_role, sa.created_by AS sa_created_by, sa.created_at AS sa_created_at,
              o.name AS o_name, o.tier AS o_tier, o.created_at AS o_created_at
         FROM api_keys k
         JOIN service_accounts sa ON sa.id = k.service_account_id
         JOIN organizations o ON o.id = k.org_id
        WHERE k.key_hash = $1`,
      keyHash,
    );
    if (!r) return null;
    return {
      key: toApiKey(r),
      serviceAccount: toServiceAccount(r, "sa_"),
      organization: toOrganization({ id: r.org_id, name: r.o_name, tier: r.o_tier, created_at: r.o_created_at }),
    };
  }

  async listApiKeys(orgId: string, opts: { includeRevoked: boolean }): Promise<ApiKeyRecord[]> {
    const text = opts.includeRevoked
      ? "SELECT * FROM api_keys WHERE org_id = $1 ORDER BY created_at, id"
      : "SELECT * FROM api_keys WHERE org_id = $1 AND revoked_at IS NULL ORDER BY created_at, id";
    return (await this.all(text, orgId)).map(toApiKey);
  }

  async revokeApiKey(id: string, at: number, reason: string | null): Promise<ApiKeyRecord | null> {
    // A key scheduled to stop later (rotation grace) may still be revoked sooner.
    await this.run(
      "UPDATE api_keys SET revoked_at = $1, revoked_reason = $2 WHERE id = $3 AND (revoked_at IS NULL OR revoked_at > $1)",
      at,
      reason,
      id,
    );
    return this.getApiKey(id);
  }

  async updateApiKey(
    id: string,
    patch: Partial<Pick<ApiKeyRecord, "name" | "spendCapCents" | "monthlyCapCents">>,
  ): Promise<ApiKeyRecord | null> {
    // One statement: a column the patch leaves out keeps its value, whatever another node wrote meanwhile.
    const r = await this.one(
      `UPDATE api_keys SET
         name = CASE WHEN $2::boolean THEN $3 ELSE name END,
         spend_cap_cents = CASE WHEN $4::boolean THEN $5::bigint ELSE spend_cap_cents END,
         monthly_cap_cents = CASE WHEN $6::boolean THEN $7::bigint ELSE monthly_cap_cents END
       WHERE id = $1 RETURNING *`,
      id,
      "name" in patch,
      patch.name ?? null,
      "spendCapCents" in patch,
      patch.spendCapCents ?? null,
      "monthlyCapCents" in patch,
      patch.monthlyCapCents ?? null,
    );
    return r ? toApiKey(r) : null;
  }

  // Sessions and sign-in links

  async createSession(s: Session): Promise<void> {
    await this.run(
      "INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $4)",
      s.idHash,
      s.userId,
      s.createdAt,
      s.lastSeenAt,
    );
  }

  async getSession(idHash: string): Promise<Session | null> {
    const r = await this.one("SELECT * FROM sessions WHERE id_hash = $1", idHash);
    return r ? toSession(r) : null;
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.run("UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2 AND last_seen_at < $1", at, idHash);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.run("DELETE FROM sessions WHERE id_hash = $1", idHash);
  }

  async listUserSessions(userId: string): Promise<Session[]> {
    return (await this.all("SELECT * FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC, id_hash", userId)).map(toSession);
  }

  async deleteUserSessions(userId: string): Promise<number> {
    return this.run("DELETE FROM sessions WHERE user_id = $1", userId);
  }

  async deleteSessionsIdleSince(cutoff: number): Promise<number> {
    return this.run("DELETE FROM sessions WHERE last_seen_at < $1", cutoff);
  }

  async createLoginLink(l: LoginLink): Promise<void> {
    await this.run(
      "INSERT INTO login_links (token_hash, user_id, expires_at, used_at) VALUES ($1, $2, $3, $4)",
      l.tokenHash,
      l.userId,
      l.expiresAt,
      l.usedAt,
    );
  }

  async consumeLoginLink(tokenHash: string, at: number): Promise<LoginLink | null> {
    // One statement: two nodes consuming the same link at once, only one gets it.
    const r = await this.one(
      "UPDATE login_links SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING *",
      at,
      tokenHash,
    );
    return r
      ? { tokenHash: String(r.token_hash), userId: String(r.user_id), expiresAt: Number(r.expires_at), usedAt: Number(r.used_at) }
      : null;
  }

  // Audit log

  async appendAudit(e: AuditEntry): Promise<void> {
    await this.run(
      "INSERT INTO audit_log (id, org_id, actor, action, target, ip, user_agent, created_at, details) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
      e.id,
      e.orgId,
      e.actor,
      e.action,
      e.target,
      e.ip,
      e.userAgent,
      e.createdAt,
      JSON.stringify(e.details),
    );
  }

  async listAudit(orgId: string, opts: { limit: number; before: string | null }): Promise<AuditPage> {
    // Ids are time-ordered lowercase hex after one prefix, so they sort alike under any collation.
    const rows = opts.before
      ? await this.all(
          "SELECT * FROM audit_log WHERE org_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3",
          orgId,
          opts.before,
          opts.limit + 1,
        )
      : await this.all("SELECT * FROM audit_log WHERE org_id = $1 ORDER BY id DESC LIMIT $2", orgId, opts.limit + 1);
    const entries = rows.slice(0, opts.limit).map(toAudit);
    return { entries, nextBefore: rows.length > opts.limit ? (entries.at(-1)?.id ?? null) : null };
  }

  // Preferences

  async getOrgPreferences(orgId: string): Promise<OrgPreferences> {
    const r = await this.one("SELECT data FROM org_preferences WHERE org_id = $1", orgId);
    return { ...DEFAULT_ORG_PREFERENCES, ...(r ? JSON.parse(String(r.data)) : {}) };
  }

  async setOrgPreferences(orgId: string, prefs: OrgPreferences): Promise<void> {
    await this.run(
      "INSERT INTO org_preferences (org_id, data) VALUES ($1, $2) ON CONFLICT (org_id) DO UPDATE SET data = excluded.data",
      orgId,
      JSON.stringify(prefs),
    );
  }

  async getPersonalPreferences(ownerId: string): Promise<PersonalPreferences> {
    const r = await this.one("SELECT data FROM personal_preferences WHERE owner_id = $1", ownerId);
    return { ...DEFAULT_PERSONAL_PREFERENCES, ...(r ? JSON.parse(String(r.data)) : {}) };
  }

  async setPersonalPreferences(ownerId: string, prefs: PersonalPreferences): Promise<void> {
    await this.run(
      "INSERT INTO personal_preferences (owner_id, data) VALUES ($1, $2) ON CONFLICT (owner_id) DO UPDATE SET data = excluded.data",
      ownerId,
      JSON.stringify(prefs),
    );
  }

  // Provider configurations

  async createProviderConfig(p: ProviderConfigRecord): Promise<void> {
    await this.run(
      `INSERT INTO provider_configs (id, org_id, owner_user_id, provider, name, base_url, country, format, models, limits,
         settings, secret_ciphertext, key_hint, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      p.id,
      p.orgId,
      p.ownerUserId,
      p.provider,
      p.name,
      p.baseUrl,
      p.country,
      p.format,
      JSON.stringify(p.models),
      JSON.stringify(p.limits),
      JSON.stringify(p.settings),
      p.secretCiphertext,
      p.keyHint,
      p.createdAt,
      p.updatedAt,
    );
  }

  async getProviderConfig(id: string): Promise<ProviderConfigRecord | null> {
    const r = await this.one("SELECT * FROM provider_configs WHERE id = $1", id);
    return r ? toProviderConfig(r) : null;
  }

  async listProviderConfigs(orgId: string): Promise<ProviderConfigRecord[]> {
    return (await this.all("SELECT * FROM provider_configs WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toProviderConfig);
  }

  async updateProviderConfig(p: ProviderConfigRecord): Promise<void> {
    await this.run(
      `UPDATE provider_configs SET owner_user_id = $1, provider = $2, name = $3, base_url = $4, country = $5, format = $6, models = $7,
         limits = $8, settings = $9, secret_ciphertext = $10, key_hint = $11, updated_at = $12 WHERE id = $13`,
      p.ownerUserId,
      p.provider,
      p.name,
      p.baseUrl,
      p.country,
      p.format,
      JSON.stringify(p.models),
      JSON.stringify(p.limits),
      JSON.stringify(p.settings),
      p.secretCiphertext,
      p.keyHint,
      p.updatedAt,
      p.id,
    );
  }

  async deleteProviderConfig(id: string): Promise<boolean> {
    return (await this.run("DELETE FROM provider_configs WHERE id = $1", id)) > 0;
  }

  // Usage

  async writeFlush(batch: FlushBatch): Promise<void> {
    if (batch.events.length === 0 && batch.keyTouches.length === 0) return;
    const statements = flushStatements(batch, rollUpHourly(batch.events));
    const started = performance.now();
    try {
      await this.sql.begin(async (tx) => {
        for (const s of statements) await tx.unsafe(s.text, s.params);
      });
    } finally {
      this.observe((performance.now() - started) / 1000);
    }
  }

  async countUsageEvents(orgId: string): Promise<number> {
    return Number((await this.one("SELECT COUNT(*) AS n FROM usage_events WHERE org_id = $1", orgId))?.n ?? 0);
  }

  async listUsageEvents(orgId: string): Promise<UsageEvent[]> {
    return (await this.all("SELECT * FROM usage_events WHERE org_id = $1 ORDER BY created_at, id", orgId)).map(toUsageEvent);
  }

  async listUsageHourly(orgId: string, from: number, to: number): Promise<UsageHourly[]> {
    return (
      await this.all(
        "SELECT * FROM usage_hourly WHERE org_id = $1 AND hour >= $2 AND hour < $3 ORDER BY hour, key_id, provider, model",
        orgId,
        from,
        to,
      )
    ).map(toUsageHourly);
  }

  async sumUsage(orgId: string, from: number, to: number, opts: UsageSumOptions): Promise<UsageSum[]> {
    const q = usageSumQuery(orgId, from, to, opts, (n) => `$${n}`);
    return toUsageSums(orgId, await this.all(q.text, ...q.params));
  }

  async sumCostMicros(orgId: string, keyId: string | null, from: number): Promise<number> {
    // From the hourly roll-ups: they outlive raw rows, and a month's sum must survive pruning.
    const hour = hourOf(from);
    const r = keyId
      ? await this.one(
          "SELECT COALESCE(SUM(cost_micros), 0) AS s FROM usage_hourly WHERE org_id = $1 AND key_id = $2 AND hour >= $3",
          orgId,
          keyId,
          hour,
        )
      : await this.one("SELECT COALESCE(SUM(cost_micros), 0) AS s FROM usage_hourly WHERE org_id = $1 AND hour >= $2", orgId, hour);
    return Number(r?.s ?? 0);
  }

  async pruneUsageEvents(cutoff: number): Promise<number> {
    return this.run("DELETE FROM usage_events WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1", cutoff);
  }

  // Notifications

  async createNotification(n: Notification): Promise<void> {
    await this.run(
      "INSERT INTO notifications (id, org_id, kind, severity, title, body, created_at, read_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      n.id,
      n.orgId,
      n.kind,
      n.severity,
      n.title,
      JSON.stringify(n.body),
      n.createdAt,
      n.readAt,
    );
  }

  async listNotifications(orgId: string, limit: number): Promise<Notification[]> {
    return (await this.all("SELECT * FROM notifications WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", orgId, limit)).map(
      toNotification,
    );
  }

  async markNotificationsRead(orgId: string, ids: string[] | null, at: number): Promise<number> {
    if (ids === null) return this.run("UPDATE notifications SET read_at = $1 WHERE org_id = $2 AND read_at IS NULL", at, orgId);
    if (ids.length === 0) return 0;
    return this.run("UPDATE notifications SET read_at = $1 WHERE org_id = $2 AND id = ANY($3::text[]) AND read_at IS NULL", at, orgId, ids);
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

  async listWebhookDeliveries(orgId: string, limit: number): Promise<WebhookDelivery[]> {
    return (
      await this.all("SELECT * FROM webhook_deliveries WHERE org_id = $1 ORDER BY created_at DESC, attempt DESC LIMIT $2", orgId, limit)
    ).map(toWebhookDelivery);
  }

  async recordEtlDocument(d: EtlDocument): Promise<void> {
    await this.run(
      "INSERT INTO etl_documents (id, org_id, created_at, original_tokens, optimized_tokens, cost_savings_micros, transformations) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      d.id,
      d.orgId,
      d.createdAt,
      d.originalTokens,
      d.optimizedTokens,
      d.costSavingsMicros,
      JSON.stringify(d.transformations),
    );
  }

  async listEtlDocuments(orgId: string, limit: number): Promise<EtlDocument[]> {
    return (await this.all("SELECT * FROM etl_documents WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2", orgId, limit)).map(
      toEtlDocument,
    );
  }

  async sumEtlDocuments(orgId: string) {
    const r = await this.one(
      "SELECT COUNT(*) AS n, COALESCE(SUM(original_tokens), 0) AS o, COALESCE(SUM(optimized_tokens), 0) AS p, COALESCE(SUM(cost_savings_micros), 0) AS c FROM etl_documents WHERE org_id = $1",
      orgId,
    );
    const transformations: Record<string, number> = {};
    const names = await this.all(
      "SELECT j.name, COUNT(*) AS n FROM etl_documents, jsonb_array_elements_text(etl_documents.transformations::jsonb) AS j(name) WHERE org_id = $1 GROUP BY j.name",
      orgId,
    );
    for (const t of names) transformations[String(t.name)] = Number(t.n);
    return {
      documents: Number(r?.n ?? 0),
      originalTokens: Number(r?.o ?? 0),
      optimizedTokens: Number(r?.p ?? 0),
      costSavingsMicros: Number(r?.c ?? 0),
      transformations,
    };
  }
}
