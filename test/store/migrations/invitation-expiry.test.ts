/**
 * The invitation_expiry migration over a database whose invitations had no expiry: each
 * one still pending gets 7 days from the migration's time (none is cut short by an
 * upgrade), an accepted one the expiry it would have had, on SQLite and on Postgres.
 */
import { expect, test } from "bun:test";
import type { Store } from "../../../src/store/store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";
import { postgresBefore, sqliteBefore } from "./before-migration.ts";

const DAY = 24 * 3600 * 1000;
/** An invitation sent a year ago and still pending, and one accepted long ago. */
const SEED = `
INSERT INTO organizations (id, name, tier, created_at) VALUES ('org_a', 'A', 'enterprise', 1);
INSERT INTO member_invitations (org_id, email, role, created_at, accepted_at) VALUES
  ('org_a', 'old@a.test', 'admin', 1000, NULL), ('org_a', 'joined@a.test', 'member', 2000, 3000);
`;

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

const pg = postgresPerFile();

test("SQLite: a pending invitation gets 7 days from the migration, an accepted one its own", async () => {
  await expectExpiries(sqliteBefore("invitation_expiry", SEED));
});

test("Postgres: the same", async () => {
  await expectExpiries(await postgresBefore(await pg.createDatabase(), "invitation_expiry", SEED));
});
