-- An invitation lasted for ever: an address invited by mistake, or a person who left,
-- could sign in months later. Each now expires 7 days after it was sent (re-inviting
-- renews it). Invitations still pending get 7 days from this migration's time, so none
-- is cut short by an upgrade; accepted ones keep the expiry they would have had.
-- SQLite's text; 013_invitation_expiry.postgres.sql is Postgres's (the current time is
-- written differently).
ALTER TABLE member_invitations ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
UPDATE member_invitations SET expires_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 604800000 WHERE accepted_at IS NULL;
UPDATE member_invitations SET expires_at = created_at + 604800000 WHERE accepted_at IS NOT NULL;
