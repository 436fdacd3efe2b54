/** The audit log, preferences and provider configurations, over keys (keys-sql.ts). */
import {
  DEFAULT_ORG_PREFERENCES,
  DEFAULT_PERSONAL_PREFERENCES,
  type AuditEntry,
  type OrgPreferences,
  type PersonalPreferences,
  type ProviderConfigRecord,
} from "../../domain/types.ts";
import type { AuditPage } from "../store.ts";
import { KeysSql } from "./keys-sql.ts";
import { toAudit, toProviderConfig } from "./rows.ts";

const PREFERENCE_KEY = { org_preferences: "org_id", personal_preferences: "owner_id" } as const;
type PreferenceTable = keyof typeof PREFERENCE_KEY;

export class SettingsSql extends KeysSql {
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

  /** Entries older than `cutoff`, per organization (the table's index leads with it); hourly, off the request path. */
  async pruneAuditEntries(cutoff: number): Promise<number> {
    return this.run("DELETE FROM audit_log WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1", cutoff);
  }

  async countAudit(orgId: string, actions: string[], from: number, to: number) {
    if (actions.length === 0) return [];
    const list = actions.map((_, i) => `$${i + 4}`).join(", ");
    const rows = await this.all(
      `SELECT action, target, COUNT(*) AS n FROM audit_log WHERE org_id = $1 AND created_at >= $2 AND created_at < $3
         AND action IN (${list}) GROUP BY action, target`,
      orgId,
      from,
      to,
      ...actions,
    );
    return rows.map((r) => ({ action: String(r.action), target: r.target === null ? null : String(r.target), count: Number(r.n) }));
  }

  // Preferences: one JSON document per organization or person, over the defaults

  private async readPreferences<T>(table: PreferenceTable, id: string, defaults: T): Promise<T> {
    const r = await this.one(`SELECT data FROM ${table} WHERE ${PREFERENCE_KEY[table]} = $1`, id);
    return { ...defaults, ...(r ? JSON.parse(String(r.data)) : {}) };
  }

  private async writePreferences(table: PreferenceTable, id: string, prefs: object): Promise<void> {
    const key = PREFERENCE_KEY[table];
    await this.run(
      `INSERT INTO ${table} (${key}, data) VALUES ($1, $2) ON CONFLICT (${key}) DO UPDATE SET data = excluded.data`,
      id,
      JSON.stringify(prefs),
    );
  }

  getOrgPreferences(orgId: string): Promise<OrgPreferences> {
    return this.readPreferences("org_preferences", orgId, DEFAULT_ORG_PREFERENCES);
  }

  setOrgPreferences(orgId: string, prefs: OrgPreferences): Promise<void> {
    return this.writePreferences("org_preferences", orgId, prefs);
  }

  getPersonalPreferences(ownerId: string): Promise<PersonalPreferences> {
    return this.readPreferences("personal_preferences", ownerId, DEFAULT_PERSONAL_PREFERENCES);
  }

  setPersonalPreferences(ownerId: string, prefs: PersonalPreferences): Promise<void> {
    return this.writePreferences("personal_preferences", ownerId, prefs);
  }

  // Provider configurations

  /**
   * Writes the configuration unless its organization holds `max` already (false then, nothing
   * written). The count and the insert are one conditional statement, after a write to the
   * organization's row in the same transaction: on Postgres, under READ COMMITTED, two
   * creates counting at once could both see `max - 1`; the row's lock makes the second wait
   * for the first to commit, and its insert's own snapshot, taken after, counts the first's
   * row. On SQLite that write takes the database's write lock before anything is counted.
   */
  async createProviderConfig(p: ProviderConfigRecord, max: number): Promise<boolean> {
    const [, inserted] = await this.db.transaction([
      // A write that changes nothing, for its lock: one statement both databases take (SQLite has no SELECT ... FOR UPDATE).
      { text: "UPDATE organizations SET tier = tier WHERE id = $1", params: [p.orgId] },
      {
        text: `INSERT INTO provider_configs (id, org_id, owner_user_id, provider, name, base_url, country, format, models, limits,
         settings, secret_ciphertext, key_hint, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15
        WHERE (SELECT COUNT(*) FROM provider_configs WHERE org_id = $2) < $16`,
        params: [p.id, p.orgId, ...editableColumns(p), p.createdAt, p.updatedAt, max],
      },
    ]);
    return inserted === 1;
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
      ...editableColumns(p),
      p.updatedAt,
      p.id,
    );
  }

  async disableUserProviders(orgId: string, userId: string, at: number, reason: string): Promise<ProviderConfigRecord[]> {
    const rows = await this.all(
      `UPDATE provider_configs SET disabled_at = $1, disabled_reason = $2
        WHERE org_id = $3 AND owner_user_id = $4 AND disabled_at IS NULL RETURNING *`,
      at,
      reason,
      orgId,
      userId,
    );
    return rows.map(toProviderConfig);
  }

  async deleteProviderConfig(id: string): Promise<boolean> {
    return (await this.run("DELETE FROM provider_configs WHERE id = $1", id)) > 0;
  }
}

/** A configuration's columns an update may change, in the order both statements write them (owner_user_id … key_hint). */
function editableColumns(p: ProviderConfigRecord): unknown[] {
  return [
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
  ];
}
