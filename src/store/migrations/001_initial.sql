-- The initial schema. Portable on purpose (the Postgres store reuses it): text ids,
-- integer epoch-millisecond timestamps, JSON as text, money as integer micro-dollars.

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  tier TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  email TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX users_org ON users(org_id);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL
);
CREATE INDEX sessions_last_seen ON sessions(last_seen_at);

CREATE TABLE login_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id),
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

CREATE TABLE service_accounts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  role TEXT NOT NULL,
  created_by TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX service_accounts_org ON service_accounts(org_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  service_account_id TEXT NOT NULL REFERENCES service_accounts(id),
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  key_type TEXT NOT NULL,
  proxy_mode TEXT NOT NULL,
  spend_cap_cents BIGINT,
  monthly_cap_cents BIGINT,
  spent_micros BIGINT NOT NULL DEFAULT 0,
  request_count BIGINT NOT NULL DEFAULT 0,
  last_used_at BIGINT,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT,
  revoked_reason TEXT
);
CREATE INDEX api_keys_org ON api_keys(org_id);

CREATE TABLE provider_configs (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  owner_user_id TEXT,
  provider TEXT NOT NULL,
  name TEXT NOT NULL,
  base_url TEXT,
  country TEXT,
  format TEXT NOT NULL,
  models TEXT NOT NULL,
  limits TEXT NOT NULL,
  settings TEXT NOT NULL,
  secret_ciphertext TEXT NOT NULL,
  key_hint TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX provider_configs_org ON provider_configs(org_id);

CREATE TABLE usage_events (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  key_id TEXT,
  user_id TEXT,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  cost_micros BIGINT NOT NULL,
  latency_ms BIGINT NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT,
  created_at BIGINT NOT NULL
);
CREATE INDEX usage_events_org_time ON usage_events(org_id, created_at);
CREATE INDEX usage_events_time ON usage_events(created_at);

CREATE TABLE usage_hourly (
  org_id TEXT NOT NULL,
  hour BIGINT NOT NULL,
  key_id TEXT NOT NULL,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  requests BIGINT NOT NULL,
  errors BIGINT NOT NULL,
  prompt_tokens BIGINT NOT NULL,
  completion_tokens BIGINT NOT NULL,
  cost_micros BIGINT NOT NULL,
  latency_ms_sum BIGINT NOT NULL,
  PRIMARY KEY (org_id, hour, key_id, provider, model)
);

CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  ip TEXT,
  user_agent TEXT,
  created_at BIGINT NOT NULL,
  details TEXT NOT NULL
);
CREATE INDEX audit_log_org ON audit_log(org_id, id);

CREATE TABLE notifications (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  severity TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  read_at BIGINT
);
CREATE INDEX notifications_org ON notifications(org_id, created_at);

CREATE TABLE org_preferences (
  org_id TEXT PRIMARY KEY,
  data TEXT NOT NULL
);

CREATE TABLE personal_preferences (
  owner_id TEXT PRIMARY KEY,
  data TEXT NOT NULL
);
