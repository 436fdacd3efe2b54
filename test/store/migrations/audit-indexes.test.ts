/**
 * The audit_indexes migration. The audit log grows with traffic (every refused operation,
 * every flagged or blocked call), and it was indexed by (org_id, id) only: the scanner's
 * counts that metrics.comprehensive reads for any caller read every row the organization
 * had, and the hourly prune read the whole table. SQLite's plans now search the window
 * (of each action for the counts); Postgres has the same indexes (its planner chooses by
 * the table's size, so the plans are not asserted there).
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresStore } from "../../../src/store/postgres/postgres-store.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";
import { postgresPerFile } from "../../support/postgres-per-file.ts";

/** The statements as settings-sql.ts writes them (countAudit, for the scanner's two actions; pruneAuditEntries). */
const PRUNE = "DELETE FROM audit_log WHERE org_id IN (SELECT id FROM organizations) AND created_at < ?1";
const COUNT =
  "SELECT action, target, COUNT(*) AS n FROM audit_log WHERE org_id = ?1 AND created_at >= ?2 AND created_at < ?3 AND action IN (?4, ?5) GROUP BY action, target";

const pg = postgresPerFile();

test("SQLite: the scanner's counts and the prune search their window instead of reading every audit row", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-migr-")), "gateway.db");
  const store = new SqliteStore(path);
  await store.migrate();
  await store.close();
  const db = new Database(path, { readonly: true });
  try {
    const plan = (text: string, params: number) =>
      (db.query(`EXPLAIN QUERY PLAN ${text}`).all(...Array(params).fill(0)) as { detail: string }[])
        .map((r) => r.detail)
        .filter((d) => d.includes("audit_log"));
    expect(plan(COUNT, 5)).toEqual([
      expect.stringContaining("INDEX audit_log_org_action (org_id=? AND action=? AND created_at>? AND created_at<?)"),
    ]);
    expect(plan(PRUNE, 1)).toEqual([expect.stringContaining("INDEX audit_log_org_time (org_id=? AND created_at<?)")]);
  } finally {
    db.close();
  }
});

test("Postgres: the same indexes exist", async () => {
  const url = await pg.createDatabase();
  const store = new PostgresStore(url, { max: 2 });
  await store.migrate();
  await store.close();
  const sql = new SQL(url, { max: 1 });
  try {
    const rows = (await sql.unsafe("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audit_log' ORDER BY indexname")) as {
      indexname: string;
      indexdef: string;
    }[];
    expect(
      rows.filter((r) => r.indexname !== "audit_log_pkey").map((r) => [r.indexname, r.indexdef.replace(/^.* USING btree /, "")]),
    ).toEqual([
      ["audit_log_org", "(org_id, id)"],
      ["audit_log_org_action", "(org_id, action, created_at)"],
      ["audit_log_org_time", "(org_id, created_at)"],
    ]);
  } finally {
    await sql.close();
  }
});
