-- A game's challenge is looked up by its game (the bot's level for the game, a rematch offer):
-- an index instead of a scan of every challenge ever made.
CREATE INDEX challenges_game ON challenges (game_id) WHERE game_id IS NOT NULL;
-- Nothing reads frozen games by the time they froze (the queries want the unfrozen ones).
DROP INDEX games_frozen;
