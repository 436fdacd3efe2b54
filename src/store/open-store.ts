/** Chooses the store from the configuration: SQLite under the data folder unless a database URL says otherwise. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SqliteStore } from "./sqlite/sqlite-store.ts";
import type { Store } from "./store.ts";

export function openStore(opts: { databaseUrl: string | null; dataDir: string }): Store {
  const url = opts.databaseUrl;
  if (url === null || url.startsWith("sqlite:")) {
    mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
    const path = url ? url.replace(/^sqlite:(\/\/)?/, "") : join(opts.dataDir, "gateway.db");
    return new SqliteStore(path);
  }
  throw new Error("GW_DATABASE_URL points at Postgres, whose store arrives with the scale-out work; this build supports SQLite only");
}
