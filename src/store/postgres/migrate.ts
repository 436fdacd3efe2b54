/**
 * Applies pending migrations to Postgres in one transaction under a transaction-scoped
 * advisory lock: nodes starting together queue on the lock, and the later ones find
 * every version recorded and apply nothing. A failure rolls everything back.
 */
import type { SQL } from "bun";
import { MIGRATIONS, migrationSql, refuseNewerSchema } from "../migrations/index.ts";

/** Any constant shared by every node; "gw-migr" in ASCII. */
const MIGRATION_LOCK = 0x67772d6d69677200n;

export async function migratePostgres(sql: SQL, now: () => number = Date.now): Promise<void> {
  await sql.begin(async (tx) => {
    await tx.unsafe(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.unsafe(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
    const rows = (await tx.unsafe("SELECT version, name FROM schema_migrations")) as { version: number; name: string }[];
    refuseNewerSchema(rows);
    const applied = new Set(rows.map((r) => Number(r.version)));
    for (const m of MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await tx.unsafe(migrationSql(m, "postgres"));
      await tx.unsafe("INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", [m.version, m.name, now()]);
    }
  });
}
