-- Of each call's prompt tokens, those the provider's prompt cache served (reads) and those
-- written to it (writes, long-lived ones included), on the raw rows and both roll-ups so
-- their sums agree. Counts only. Rows written before this reported none: 0.
ALTER TABLE usage_events ADD COLUMN cache_read_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_events ADD COLUMN cache_write_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_hourly ADD COLUMN cache_read_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_hourly ADD COLUMN cache_write_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN cache_read_tokens BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_daily ADD COLUMN cache_write_tokens BIGINT NOT NULL DEFAULT 0;
