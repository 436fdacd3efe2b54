/**
 * The schema's versions, in order. A new migration is a new file appended here, never an
 * edit. Both stores apply this one list: `sql` is portable SQL (SQLite and Postgres alike);
 * where the dialects must differ, `sql` is SQLite's text and `postgres` Postgres's
 * (files NNN_name.sql and NNN_name.postgres.sql). README.md beside this file says how.
 */
import initial from "./001_initial.sql" with { type: "text" };
import dropUsageTimeIndex from "./002_drop_usage_time_index.sql" with { type: "text" };
import usagePriceEstimated from "./003_usage_price_estimated.sql" with { type: "text" };
import alertsAndEtl from "./005_alerts_and_etl.sql" with { type: "text" };
import usageAttempts from "./006_usage_attempts.sql" with { type: "text" };
import access from "./007_access.sql" with { type: "text" };
import mcpServers from "./008_mcp_servers.sql" with { type: "text" };
import notificationReads from "./009_notification_reads.sql" with { type: "text" };
import auditIndexes from "./010_audit_indexes.sql" with { type: "text" };
import usageFlushIds from "./011_usage_flush_ids.sql" with { type: "text" };
import usageFlushIdsPostgres from "./011_usage_flush_ids.postgres.sql" with { type: "text" };
import etlTotals from "./012_etl_totals.sql" with { type: "text" };
import invitationExpiry from "./013_invitation_expiry.sql" with { type: "text" };
import invitationExpiryPostgres from "./013_invitation_expiry.postgres.sql" with { type: "text" };
import signInDomainApprovals from "./014_sign_in_domain_approvals.sql" with { type: "text" };
import usageCacheTokens from "./015_usage_cache_tokens.sql" with { type: "text" };
import masterKeyCheck from "./016_master_key_check.sql" with { type: "text" };

export type Dialect = "sqlite" | "postgres";

export interface Migration {
  version: number;
  name: string;
  /** Portable SQL, or SQLite's when `postgres` is given. */
  sql: string;
  /** Postgres's own text, only where it cannot share `sql`. */
  postgres?: string;
}

export const MIGRATIONS: Migration[] = [
  { version: 1, name: "initial", sql: initial },
  { version: 2, name: "drop_usage_time_index", sql: dropUsageTimeIndex },
  { version: 3, name: "usage_price_estimated", sql: usagePriceEstimated },
  { version: 5, name: "alerts_and_etl", sql: alertsAndEtl },
  { version: 6, name: "usage_attempts", sql: usageAttempts },
  { version: 7, name: "access", sql: access },
  { version: 8, name: "mcp_servers", sql: mcpServers },
  { version: 9, name: "notification_reads", sql: notificationReads },
  { version: 10, name: "audit_indexes", sql: auditIndexes },
  { version: 11, name: "usage_flush_ids", sql: usageFlushIds, postgres: usageFlushIdsPostgres },
  { version: 12, name: "etl_totals", sql: etlTotals },
  { version: 13, name: "invitation_expiry", sql: invitationExpiry, postgres: invitationExpiryPostgres },
  { version: 14, name: "sign_in_domain_approvals", sql: signInDomainApprovals },
  { version: 15, name: "usage_cache_tokens", sql: usageCacheTokens },
  { version: 16, name: "master_key_check", sql: masterKeyCheck },
];

/**
 * Refuses a database a newer gateway migrated: its schema has versions this binary does
 * not know, which old code would read and write wrongly (a downgrade, or an old node left
 * behind in a rolling upgrade). `applied` is schema_migrations' rows.
 */
export function refuseNewerSchema(applied: { version: number; name: string }[]): void {
  const latest = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
  const newer = applied.filter((r) => Number(r.version) > latest).sort((a, b) => Number(a.version) - Number(b.version));
  if (newer.length === 0) return;
  throw new NewerSchemaError(
    `the database was migrated by a newer gateway (schema ${newer.map((r) => `${r.version} ${r.name}`).join(", ")}; this one knows up to ${latest}): run that version or a later one, or restore the backup taken before the upgrade`,
  );
}

export class NewerSchemaError extends Error {
  override name = "NewerSchemaError";
}

/** The text a store of `dialect` runs for `m`. */
export function migrationSql(m: Migration, dialect: Dialect): string {
  return dialect === "postgres" ? (m.postgres ?? m.sql) : m.sql;
}
