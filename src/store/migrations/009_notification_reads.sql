-- Read marks per reader: a notification read by one member stays unread for the others.
-- `reader` names the caller as the audit log does: `user:<id>` for a dashboard session,
-- `sa:<id>` for a service account (all its keys share the marks).
CREATE TABLE notification_reads (
  notification_id TEXT NOT NULL,
  reader TEXT NOT NULL,
  read_at BIGINT NOT NULL,
  PRIMARY KEY (notification_id, reader)
);

-- Marks made organization-wide before this stay read for every member and service
-- account the organization has, so an upgrade does not bring old alerts back as unread.
-- `notifications.read_at` is no longer read or written; it stays (nullable) so a node
-- still running the previous version keeps creating notifications during a rollout.
INSERT INTO notification_reads (notification_id, reader, read_at)
  SELECT n.id, 'user:' || u.id, n.read_at FROM notifications n JOIN users u ON u.org_id = n.org_id WHERE n.read_at IS NOT NULL;
INSERT INTO notification_reads (notification_id, reader, read_at)
  SELECT n.id, 'sa:' || s.id, n.read_at FROM notifications n JOIN service_accounts s ON s.org_id = n.org_id WHERE n.read_at IS NOT NULL;
