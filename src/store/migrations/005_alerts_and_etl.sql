-- Alerts: each organization's webhook signing secret (sealed with the master key; shown
-- once when made) and every delivery attempt's result. ETL: one row of figures per
-- optimized document or request (counts only, never text).
CREATE TABLE webhook_secrets (
  org_id TEXT PRIMARY KEY,
  sealed TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  notification_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_org ON webhook_deliveries(org_id, created_at);

CREATE TABLE etl_documents (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  original_tokens BIGINT NOT NULL,
  optimized_tokens BIGINT NOT NULL,
  cost_savings_micros BIGINT NOT NULL,
  transformations TEXT NOT NULL
);
CREATE INDEX etl_documents_org ON etl_documents(org_id, created_at);
