-- The one master key this database's API keys were hashed and provider keys sealed with,
-- as a check value derived from it (never the key): recorded by the first start, compared
-- by every later start and node, so one with another key is refused instead of answering
-- 401 to every key made elsewhere. One row (id 1).
CREATE TABLE master_key_checks (
  id INTEGER NOT NULL PRIMARY KEY,
  check_value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
