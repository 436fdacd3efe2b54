/**
 * The notification_reads migration over a database that had organization-wide marks:
 * each read notification stays read for every member and service account of its
 * organization, on SQLite and on Postgres.
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

const BEFORE = MIGRATIONS.slice(
  0,
  MIGRATIONS.findIndex((m) => m.name === "notification_reads"),
);

/** Two organizations as the schema before per-reader marks held them: one notification read org-wide, one not. */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1), ('org_b', 'B', 'enterprise', 1);
INSERT INTO users (id, org_id, email, role, created_at) VALUES
  ('usr_admin', 'org_a', 'admin@a.test', 'admin', 1), ('usr_member', 'org_a', 'member@a.test', 'member', 1), ('usr_b', 'org_b', 'b@b.test', 'admin', 1);
INSERT INTO service_accounts (id, org_id, name, description, role, created_by, created_at) VALUES ('sa_bot', 'org_a', 'bot', '', 'member', NULL, 1);
INSERT INTO notifications (id, org_id, kind, severity, title, body, created_at, read_at) VALUES
  ('ntf_read', 'org_a', 'k', 'info', 'read', '{}', 10, 50), ('ntf_unread', 'org_a', 'k', 'info', 'unread', '{}', 20, NULL),
  ('ntf_b', 'org_b', 'k', 'info', 'b', '{}', 30, NULL);
`;

/** The statements that bring an empty database to the version before, recorded as the stores record them, then the seed. */
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

async function expectMarksCarried(store: Store) {
  await store.migrate();
  const seen = async (org: string, reader: string) =>
    (await store.listNotificationsFor(org, reader, { limit: 10, unreadOnly: false })).map((n) => [n.id, n.readAt]);
  for (const reader of ["user:usr_admin", "user:usr_member", "sa:sa_bot"])
    expect(await seen("org_a", reader)).toEqual([
      ["ntf_unread", null],
      ["ntf_read", 50],
    ]);
  expect(await seen("org_b", "user:usr_b")).toEqual([["ntf_b", null]]);
  // From here marks are per reader.
  expect(await store.markNotificationsRead("org_a", "user:usr_member", null, 60)).toBe(1);
  expect((await seen("org_a", "user:usr_admin"))[0]).toEqual(["ntf_unread", null]);
  await store.close();
}

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(async () => {
  await pg?.stop();
});

test("SQLite: organization-wide marks become every member's and service account's", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-migr-")), "gateway.db");
  const db = new Database(path);
  for (const text of upToBefore("sqlite")) db.exec(text);
  db.close();
  await expectMarksCarried(new SqliteStore(path));
});

test("Postgres: organization-wide marks become every member's and service account's", async () => {
  const url = await pg.createDatabase();
  const sql = new SQL(url, { max: 1 });
  try {
    for (const text of upToBefore("postgres")) await sql.unsafe(text);
  } finally {
    await sql.close();
  }
  await expectMarksCarried(new PostgresStore(url, { max: 2 }));
});
