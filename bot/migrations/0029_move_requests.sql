-- The request each move was made by (bot/games/storage.py): a key its caller gives (a Discord
-- interaction, a pressed Confirm button), written in the move's own transaction. A request seen
-- again (a retried command or button, or Bredon looking after a commit whose answer was lost)
-- is the same move: answered as done, never played twice.
CREATE TABLE move_requests (
    request_key TEXT PRIMARY KEY CHECK (length(request_key) BETWEEN 1 AND 200),
    game_id     INTEGER NOT NULL REFERENCES games (id),
    ply         INTEGER NOT NULL CHECK (ply >= 1),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    made_at     TEXT NOT NULL
);
-- An undo forgets its move's request by the game and ply.
CREATE INDEX move_requests_move ON move_requests (game_id, ply);
