-- The ids of the usage flushes written lately, each recorded in its flush's transaction:
-- a batch retried after a commit whose acknowledgement was lost is recognized here and
-- not added twice, whether it holds events or key counters alone. Pruned after a day
-- (a batch is retried within minutes); no index on written_at, which only the hourly
-- prune reads, so a flush pays for one primary-key insert.
-- SQLite's text (Postgres's is 011_usage_flush_ids.postgres.sql): WITHOUT ROWID keeps the
-- rows in the primary key's own tree, one page changed a flush instead of two (the table
-- and its key's index); NOT NULL spelled out, since SQLite lets a TEXT primary key hold
-- NULLs, which would never match.
CREATE TABLE usage_flushes (
  id TEXT NOT NULL PRIMARY KEY,
  written_at BIGINT NOT NULL
) WITHOUT ROWID;
