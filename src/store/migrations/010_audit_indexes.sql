-- The audit log grows with traffic (every refused operation and every flagged or blocked
-- call writes a row, kept GW_AUDIT_RETENTION_DAYS). Only (org_id, id) was indexed, so
-- metrics.comprehensive's count of the scanner's rows in a window (any reader, on every
-- dashboard overview) read every row the organization had, and the hourly prune read
-- the whole table.
CREATE INDEX audit_log_org_action ON audit_log(org_id, action, created_at);
CREATE INDEX audit_log_org_time ON audit_log(org_id, created_at);
