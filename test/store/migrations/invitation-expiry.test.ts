/**
 * The invitation_expiry migration over a database whose invitations had no expiry: each
 * one still pending gets 7 days from the migration's time (none is cut short by an
 * upgrade), an accepted one the expiry it would have had, on SQLite and on Postgres.
 */
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Dialect, MIGRATIONS, migrationSql } from "../../../src/store/migrations/index.ts";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import type { Store } from "../../../src/store/store.ts";
import { type PostgresServer, startPostgres } from "../../support/servers.ts";

const DAY = 24 * 3600 * 1000;
const BEFORE = MIGRATIONS.slice(
  0,
  MIGRATIONS.findIndex((m) => m.name === "invitation_expiry"),
);

/** An invitation sent a year ago and still pending, and one accepted long ago. */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1);
INSERT INTO member_invitations (org_id, email, role, created_at, accepted_at) VALUES
  ('org_a', 'old@a.test', 'admin', 1000, NULL), ('org_a', 'joined@a.test', 'member', 2000, 3000);
`;

function upToBefore(dialect: Dialect): string[] {
  return [
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    ...BEFORE.flatMap((m) => [
      migrationSql(m, dialect),
      `INSERT INTO schema_migrations (version, name, applied_at) VALUES (${m.version}, '${m.name}', 0)`,
    ]),
    SEED,
  ];
}

async function expectExpiries(store: Store) {
  const before = Date.now();
  await store.migrate();
  const after = Date.now();
  const pending = await store.getInvitation("org_a", "old@a.test");
  expect(pending).toMatchObject({ role: "admin", createdAt: 1000, acceptedAt: null });
  // Whole seconds on SQLite's clock: the migration ran between before and after.
  expect(pending!.expiresAt).toBeGreaterThanOrEqual(before - 1000 + 7 * DAY);
  expect(pending!.expiresAt).toBeLessThanOrEqual(after + 7 * DAY);
  expect(await store.getInvitation("org_a", "joined@a.test")).toMatchObject({
    createdAt: 2000,
    expiresAt: 2000 + 7 * DAY,
    acceptedAt: 3000,
  });
  await store.close();
}

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

test("SQLite: a pending invitation gets 7 days from the migration, an accepted one its own", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-migr-")), "gateway.db");
  const db = new Database(path);
  for (const text of upToBefore("sqlite")) db.exec(text);
  db.close();
  await expectExpiries(new SqliteStore(path));
});

test("Postgres: the same", async () => {
  const url = await pg.createDatabase();
  const sql = new SQL(url, { max: 1 });
  try {
    for (const text of upToBefore("postgres")) await sql.unsafe(text);
  } finally {
    await sql.close();
  }
  await expectExpiries(new PostgresStore(url, { max: 2 }));
});
