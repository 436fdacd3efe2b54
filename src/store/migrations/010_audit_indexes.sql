-- The audit log grows with traffic (every refused operation and every flagged or blocked
-- call writes a row, kept GW_AUDIT_RETENTION_DAYS). Only (org_id, id) was indexed, so
-- metrics.comprehensive's count of the scanner's rows in a window (any reader, on every
-- dashboard overview) read every row the organization had.
CREATE INDEX audit_log_org_action ON audit_log(org_id, action, created_at);
