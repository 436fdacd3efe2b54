-- Postgres's text of 013_invitation_expiry.sql (which says why): the same column, and
-- 7 days from this migration's time for invitations still pending.
ALTER TABLE member_invitations ADD COLUMN expires_at BIGINT NOT NULL DEFAULT 0;
UPDATE member_invitations SET expires_at = CAST(EXTRACT(EPOCH FROM now()) * 1000 AS BIGINT) + 604800000 WHERE accepted_at IS NULL;
UPDATE member_invitations SET expires_at = created_at + 604800000 WHERE accepted_at IS NOT NULL;
