-- A rotated key's successor spends against the same caps: `spend_key_id` names the first
-- key of the line (null: the key is its own). A removed member's personal providers stop
-- serving (`disabled_at`, and why) until an admin deletes them. Invitations are kept per
-- organization, whatever the address, so the listing cannot tell taken from free.
ALTER TABLE api_keys ADD COLUMN spend_key_id TEXT;
CREATE INDEX api_keys_spend_key ON api_keys(spend_key_id);
ALTER TABLE provider_configs ADD COLUMN disabled_at BIGINT;
ALTER TABLE provider_configs ADD COLUMN disabled_reason TEXT;
CREATE TABLE member_invitations (
  org_id TEXT NOT NULL,
  email TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  accepted_at BIGINT,
  PRIMARY KEY (org_id, email)
);
