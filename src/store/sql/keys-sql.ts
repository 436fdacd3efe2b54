/** Service accounts and their API keys, over the people tables (people-sql.ts). */
import type { ApiKeyRecord, KeyPrincipal, ServiceAccount } from "../../domain/types.ts";
import { PeopleSql } from "./people-sql.ts";
import { toApiKey, toOrganization, toServiceAccount } from "./rows.ts";

export class KeysSql extends PeopleSql {
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

  async deleteServiceAccount(id: string): Promise<boolean> {
    const counts = await this.db.transaction([
      { text: "DELETE FROM api_keys WHERE service_account_id = $1", params: [id] },
      { text: "DELETE FROM service_accounts WHERE id = $1", params: [id] },
    ]);
    return (counts[1] ?? 0) > 0;
  }

  async listServiceAccounts(orgId: string): Promise<ServiceAccount[]> {
    return (await this.all("SELECT * FROM service_accounts WHERE org_id = $1 ORDER BY created_at, id", orgId)).map((r) =>
      toServiceAccount(r),
    );
  }

  async createApiKey(k: ApiKeyRecord): Promise<void> {
    await this.run(
      `INSERT INTO api_keys (id, org_id, service_account_id, name, key_hash, key_prefix, key_type, proxy_mode, spend_cap_cents,
         monthly_cap_cents, spent_micros, request_count, last_used_at, created_at, revoked_at, revoked_reason, spend_key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
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
      k.spendKeyId ?? null,
    );
  }

  async keyLineSpentMicros(spendKeyId: string): Promise<number> {
    const r = await this.one("SELECT COALESCE(SUM(spent_micros), 0) AS s FROM api_keys WHERE id = $1 OR spend_key_id = $1", spendKeyId);
    return Number(r?.s ?? 0);
  }

  async getApiKey(id: string): Promise<ApiKeyRecord | null> {
    const r = await this.one("SELECT * FROM api_keys WHERE id = $1", id);
    return r ? toApiKey(r) : null;
  }

  /** The key with its service account and organization, in one read: what authentication needs. */
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
         name = CASE WHEN CAST($2 AS BOOLEAN) THEN $3 ELSE name END,
         spend_cap_cents = CASE WHEN CAST($4 AS BOOLEAN) THEN CAST($5 AS BIGINT) ELSE spend_cap_cents END,
         monthly_cap_cents = CASE WHEN CAST($6 AS BOOLEAN) THEN CAST($7 AS BIGINT) ELSE monthly_cap_cents END
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
}
