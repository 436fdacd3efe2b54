/**
 * What the ETL metrics' statements read, from SQLite's plans of the very texts the store
 * runs: the totals a row per organization (and per transformation name) by primary key,
 * the recent documents by the (org_id, created_at) index with their LIMIT, and never the
 * whole table. Postgres has the same keys and index; its planner chooses by the table's
 * size, so its plans are not asserted. The store contract shows the totals do not change
 * when documents are pruned, so they are not read from the documents.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ETL_SQL } from "../../../src/store/sql/etl-sql.ts";
import { SqliteStore } from "../../../src/store/sqlite/sqlite-store.ts";

test("SQLite: the metrics search one organization's totals rows and its newest documents, and the prune its old ones", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "gw-etl-sql-")), "gateway.db");
  const store = new SqliteStore(path);
  await store.migrate();
  await store.close();
  const db = new Database(path, { readonly: true });
  try {
    const plan = (text: string) => {
      const params = new Set(text.match(/\$\d+/g)).size;
      return (db.query(`EXPLAIN QUERY PLAN ${text.replace(/\$(\d+)/g, "?$1")}`).all(...Array(params).fill(0)) as { detail: string }[]).map(
        (r) => r.detail,
      );
    };
    expect(plan(ETL_SQL.totals)).toEqual([
      expect.stringMatching(/^SEARCH t USING INDEX \S+ \(org_id=\?\)$/),
      expect.stringMatching(/^SEARCH x USING INDEX \S+ \(org_id=\?\) LEFT-JOIN$/),
    ]);
    // Ordered by the index's created_at; only documents made at the same time are sorted by id.
    expect(plan(ETL_SQL.recent)).toEqual([
      "SEARCH etl_documents USING INDEX etl_documents_org (org_id=?)",
      "USE TEMP B-TREE FOR LAST TERM OF ORDER BY",
    ]);
    const prune = plan(ETL_SQL.prune);
    expect(prune).toContain("SEARCH etl_documents USING COVERING INDEX etl_documents_org (org_id=? AND created_at<?)");
    expect(prune).toContain("SEARCH k USING COVERING INDEX etl_documents_org (org_id=?)");
    expect(prune.filter((d) => d.startsWith("SCAN"))).toEqual([]);
  } finally {
    db.close();
  }
});
