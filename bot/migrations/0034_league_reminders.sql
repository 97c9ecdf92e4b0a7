-- Team leagues, continued: each round's lineup reminder to the captains who have not set theirs
-- (`reminded`, sent once), a league called off by its organizers (`cancelled_at`, with status
-- 'finished'), and a double round robin (`legs` 2: each pair of teams meets twice).
ALTER TABLE league_rounds ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN cancelled_at TEXT;
ALTER TABLE leagues ADD COLUMN legs INTEGER NOT NULL DEFAULT 1 CHECK (legs IN (1, 2));
