-- As bot/migrations/0031_league_reminders.sql: each round's lineup reminder (sent once), a
-- cancelled league, and the double round robin.
ALTER TABLE league_rounds ADD COLUMN reminded BIGINT NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN cancelled_at TEXT;
ALTER TABLE leagues ADD COLUMN legs BIGINT NOT NULL DEFAULT 1 CHECK (legs IN (1, 2));
