-- As bot/migrations/0023_thematic_tournaments.sql: the position every game of a tournament
-- starts from, NULL for the empty board.
ALTER TABLE tournaments ADD COLUMN start_tps TEXT;
