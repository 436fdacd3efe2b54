/**
 * The notification_reads migration over a database that had organization-wide marks:
 * each read notification stays read for every member and service account of its
 * organization, on SQLite and on Postgres.
 */
import { expect, test } from "bun:test";
import type { Store } from "../../../src/store/store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { postgresBefore, sqliteBefore } from "./before-migration.ts";

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

const pg = postgresPerFile();

test("SQLite: organization-wide marks become every member's and service account's", async () => {
  await expectMarksCarried(sqliteBefore("notification_reads", SEED));
});

test("Postgres: organization-wide marks become every member's and service account's", async () => {
  await expectMarksCarried(await postgresBefore(await pg.createDatabase(), "notification_reads", SEED));
});
