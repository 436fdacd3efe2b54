/**
 * The context optimizer's figures over SQL: a row per document (kept for the metrics'
 * most recent documents, then pruned) and per organization the running totals the
 * metrics read, so their cost does not grow with history (migration 012_etl_totals.sql).
 */
import type { EtlDocument } from "../../domain/types.ts";
import type { EtlTotals } from "../store.ts";
import { McpSql } from "./mcp-sql.ts";
import { toEtlDocument } from "./rows.ts";
import type { Statement } from "./sql-driver.ts";

/** The statements, named so a test can read their plans. */
export const ETL_SQL = {
  insertDocument:
    "INSERT INTO etl_documents (id, org_id, created_at, original_tokens, optimized_tokens, cost_savings_micros, transformations) VALUES ($1, $2, $3, $4, $5, $6, $7)",
  // The database adds to what it holds, so nodes writing at once each count exactly once.
  addTotals: `INSERT INTO etl_totals (org_id, documents, original_tokens, optimized_tokens, cost_savings_micros) VALUES ($1, 1, $2, $3, $4)
    ON CONFLICT (org_id) DO UPDATE SET documents = etl_totals.documents + excluded.documents,
      original_tokens = etl_totals.original_tokens + excluded.original_tokens,
      optimized_tokens = etl_totals.optimized_tokens + excluded.optimized_tokens,
      cost_savings_micros = etl_totals.cost_savings_micros + excluded.cost_savings_micros`,
  addTransformation: `INSERT INTO etl_transformation_totals (org_id, name, applied) VALUES ($1, $2, $3)
    ON CONFLICT (org_id, name) DO UPDATE SET applied = etl_transformation_totals.applied + excluded.applied`,
  recent: "SELECT * FROM etl_documents WHERE org_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2",
  // One statement, so Postgres answers the totals and the names from one snapshot: a row per name
  // (one with a null name when none was applied), none before the organization's first document.
  totals: `SELECT t.documents, t.original_tokens, t.optimized_tokens, t.cost_savings_micros, x.name, x.applied
    FROM etl_totals t LEFT JOIN etl_transformation_totals x ON x.org_id = t.org_id WHERE t.org_id = $1`,
  // Per organization, as the index leads with it; a row at the time of the newest kept
  // one's (the $2-th, counted from 0) stays, so no tie splits what the metrics list.
  prune: `DELETE FROM etl_documents WHERE org_id IN (SELECT id FROM organizations) AND created_at < $1
    AND created_at < (SELECT k.created_at FROM etl_documents k WHERE k.org_id = etl_documents.org_id ORDER BY k.created_at DESC LIMIT 1 OFFSET $2)`,
} as const;

export class EtlSql extends McpSql {
  async recordEtlDocument(d: EtlDocument): Promise<void> {
    const applied = new Map<string, number>();
    for (const name of d.transformations) applied.set(name, (applied.get(name) ?? 0) + 1);
    const statements: Statement[] = [
      {
        text: ETL_SQL.insertDocument,
        params: [d.id, d.orgId, d.createdAt, d.originalTokens, d.optimizedTokens, d.costSavingsMicros, JSON.stringify(d.transformations)],
      },
      { text: ETL_SQL.addTotals, params: [d.orgId, d.originalTokens, d.optimizedTokens, d.costSavingsMicros] },
      // Names in one order, so two transactions of an organization on Postgres lock its rows alike and never deadlock.
      ...[...applied.keys()].sort().map((name) => ({ text: ETL_SQL.addTransformation, params: [d.orgId, name, applied.get(name)] })),
    ];
    await this.db.transaction(statements);
  }

  async listEtlDocuments(orgId: string, limit: number): Promise<EtlDocument[]> {
    return (await this.all(ETL_SQL.recent, orgId, limit)).map(toEtlDocument);
  }

  async getEtlTotals(orgId: string): Promise<EtlTotals> {
    const rows = await this.all(ETL_SQL.totals, orgId);
    const transformations: Record<string, number> = {};
    for (const r of rows) if (r.name !== null) transformations[String(r.name)] = Number(r.applied);
    const r = rows[0];
    return {
      documents: Number(r?.documents ?? 0),
      originalTokens: Number(r?.original_tokens ?? 0),
      optimizedTokens: Number(r?.optimized_tokens ?? 0),
      costSavingsMicros: Number(r?.cost_savings_micros ?? 0),
      transformations,
    };
  }

  async pruneEtlDocuments(cutoff: number, keepNewest: number): Promise<number> {
    if (!Number.isInteger(keepNewest) || keepNewest < 1) throw new RangeError("keepNewest must be a positive integer");
    return this.run(ETL_SQL.prune, cutoff, keepNewest - 1);
  }
}
