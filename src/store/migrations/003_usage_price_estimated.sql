-- A usage event priced at its model family's ceiling because the catalog does not list the model.
ALTER TABLE usage_events ADD COLUMN price_estimated INTEGER NOT NULL DEFAULT 0;
