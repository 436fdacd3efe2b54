/**
 * A database as it was before one migration, for the tests of what that migration does
 * to existing rows: every earlier migration applied and recorded as the stores record
 * them, then the test's seed, on SQLite and on Postgres; the store opened over it applies
 * the rest when its `migrate` runs.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Dialect, MIGRATIONS, migrationSql } from "../../../src/store/migrations/index.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";

function upToBefore(migration: string, dialect: Dialect, seed: string): string[] {
  const at = MIGRATIONS.findIndex((m) => m.name === migration);
  if (at < 0) throw new Error(`no migration named ${migration}`);
  return [
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    ...MIGRATIONS.slice(0, at).flatMap((m) => [
      migrationSql(m, dialect),
      `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', 0)`,
    ]),
    seed,
  ];
}

export function sqliteBefore(migration: string, seed: string): SqliteStore {
  const path = join(mkdtempSync(join(tmpdir(), "gw-migr-")), "gateway.db");
  const db = new Database(path);
  for (const text of upToBefore(migration, "sqlite", seed)) db.exec(text);
  db.close();
  return new SqliteStore(path);
}

/** Over `url`, a new empty Postgres database. */
export async function postgresBefore(url: string, migration: string, seed: string): Promise<PostgresStore> {
  const sql = new SQL(url, { max: 1 });
  try {
    for (const text of upToBefore(migration, "postgres", seed)) await sql.unsafe(text);
  } finally {
    await sql.close();
  }
  return new PostgresStore(url, { max: 2 });
}
