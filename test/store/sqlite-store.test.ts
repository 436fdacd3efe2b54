import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/store/migrations/index.ts";
import { openStore } from "../../src/store/open-store.ts";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.ts";
import { runFlushRetryContract } from "./flush-retry-contract.ts";
import { runStoreContract } from "./store-contract.ts";

const sqliteStore = async () => new SqliteStore(join(mkdtempSync(join(tmpdir(), "gw-store-")), "gateway.db"));
runStoreContract("SQLite", sqliteStore);
runFlushRetryContract("SQLite", sqliteStore);

test("the database is a WAL-mode file with its migrations recorded; reopening applies nothing new", async () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), "gw-store-")), "nested");
  const store = openStore({ databaseUrl: null, dataDir });
  await store.migrate();
  await store.close();
  const path = join(dataDir, "gateway.db");
  expect(existsSync(path)).toBe(true);
  const db = new Database(path);
  expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
  const versions = db.query("SELECT version, applied_at FROM schema_migrations ORDER BY version").all() as {
    version: number;
    applied_at: number;
  }[];
  expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
  db.close();
  const again = openStore({ databaseUrl: null, dataDir });
  await again.migrate();
  await again.close();
  const db2 = new Database(path);
  expect(db2.query("SELECT applied_at FROM schema_migrations ORDER BY version").all()).toEqual(
    versions.map((v) => ({ applied_at: v.applied_at })),
  );
  db2.close();
});

test("a URL of another kind is refused with a clear message", () => {
  expect(() => openStore({ databaseUrl: "mysql://x/y", dataDir: "/tmp" })).toThrow("GW_DATABASE_URL");
});

test("a database a newer gateway migrated is refused with the versions it does not know, and left as it was", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "gw-store-"));
  const store = openStore({ databaseUrl: null, dataDir });
  await store.migrate();
  await store.close();
  const path = join(dataDir, "gateway.db");
  const next = (MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0) + 1;
  const db = new Database(path);
  db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'from_the_future', 1)").run(next);
  db.close();
  const older = openStore({ databaseUrl: null, dataDir });
  await expect(older.migrate()).rejects.toThrow(
    `migrated by a newer gateway (schema ${next} from_the_future; this one knows up to ${next - 1})`,
  );
  await older.close();
  const after = new Database(path);
  expect((after.query("SELECT count(*) AS n FROM schema_migrations").get() as { n: number }).n).toBe(MIGRATIONS.length + 1);
  after.close();
});
