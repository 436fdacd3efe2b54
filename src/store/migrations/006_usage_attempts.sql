-- Which attempt at a provider a usage event was within its request (1 without fallback):
-- the answering row says how many attempts the call took, each failed one its own number.
ALTER TABLE usage_events ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
