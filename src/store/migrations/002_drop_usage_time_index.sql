-- Every usage event updated this index on the hot write path (about a fifth of a
-- flush's cost), for the hourly retention job only; retention now walks
-- usage_events_org_time, one organization at a time.
DROP INDEX usage_events_time;
