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

-- The application a call was made for (request context or x-gw-application header).
ALTER TABLE usage_events ADD COLUMN application_id TEXT;

-- Daily roll-ups per provider, model and application, kept beside the hourly ones by
-- every flush: a 90-day cost view sums a few thousand rows instead of every key's every hour.
CREATE TABLE usage_daily (
  org_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  application_id TEXT NOT NULL,
  requests BIGINT NOT NULL,
  errors BIGINT NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  cost_micros BIGINT NOT NULL,
  latency_ms_sum BIGINT NOT NULL,
  PRIMARY KEY (org_id, day, provider, model, application_id)
);
INSERT INTO usage_daily (org_id, day, provider, model, application_id, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum)
  SELECT org_id, (hour / 86400000) * 86400000, provider, model, '', SUM(requests), SUM(errors), SUM(prompt_tokens), SUM(completion_tokens), SUM(cost_micros), SUM(latency_ms_sum)
  FROM usage_hourly GROUP BY org_id, (hour / 86400000) * 86400000, provider, model;
