/** Chooses the store from the configuration: SQLite under the data folder unless a database URL says otherwise. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.ts";
import { SqliteStore } from "./sqlite/sqlite-store.ts";
import type { Store } from "./store.ts";

export function openStore(opts: { databaseUrl: string | null; dataDir: string; postgres?: PostgresStoreOptions }): Store {
  const url = opts.databaseUrl;
  if (url === null || url.startsWith("sqlite:")) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const path = url ? url.replace(/^sqlite:(\/\/)?/, "") : join(opts.dataDir, "gateway.db");
    return new SqliteStore(path);
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return new PostgresStore(url, opts.postgres);
  throw new Error(`GW_DATABASE_URL must be a sqlite: or postgres:// URL`);
}
