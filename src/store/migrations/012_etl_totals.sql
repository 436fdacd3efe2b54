-- Running totals of the context optimizer's figures per organization, so that
-- GET /api/user/etl-metrics reads one row (and one per transformation name) instead of
-- summing every document the organization ever optimized, and so that document rows can
-- be pruned (kept as long as raw usage rows) without changing the totals. Each document
-- row is written in the same transaction as its increments (INSERT ... ON CONFLICT DO
-- UPDATE adding to the stored values, atomic with several nodes on one Postgres).
CREATE TABLE etl_totals (
  org_id TEXT PRIMARY KEY,
  documents BIGINT NOT NULL,
  original_tokens BIGINT NOT NULL,
  optimized_tokens BIGINT NOT NULL,
  cost_savings_micros BIGINT NOT NULL
);

-- How many times each transformation was applied, a row per name (not a JSON column):
-- an increment is then one upsert of a plain number on both stores.
CREATE TABLE etl_transformation_totals (
  org_id TEXT NOT NULL,
  name TEXT NOT NULL,
  applied BIGINT NOT NULL,
  PRIMARY KEY (org_id, name)
);

-- The documents recorded before this. A node still running the previous version during a
-- rollout writes document rows without increments: those are missing from the totals.
INSERT INTO etl_totals (org_id, documents, original_tokens, optimized_tokens, cost_savings_micros)
  SELECT org_id, COUNT(*), SUM(original_tokens), SUM(optimized_tokens), SUM(cost_savings_micros) FROM etl_documents GROUP BY org_id;
-- The names are the optimizer's four (a Transformation, listed at most once per document,
-- as JSON.stringify wrote it), so a match of the quoted name counts it without a JSON
-- function, which the two dialects spell differently.
INSERT INTO etl_transformation_totals (org_id, name, applied)
  SELECT d.org_id, t.name, COUNT(*) FROM etl_documents d
    JOIN (SELECT 'normalization' AS name UNION ALL SELECT 'deduplication' UNION ALL SELECT 'compression' UNION ALL SELECT 'chunking') t
      ON d.transformations LIKE '%"' || t.name || '"%'
  GROUP BY d.org_id, t.name;
