-- The ids of the usage flushes written lately: see 011_usage_flush_ids.sql (SQLite's text,
-- which differs only by WITHOUT ROWID, a SQLite storage choice Postgres has no use for).
CREATE TABLE usage_flushes (
  id TEXT PRIMARY KEY,
  written_at BIGINT NOT NULL
);
