-- As bot/migrations/0029_move_requests.sql: the request each move was made by.
CREATE TABLE move_requests (
    request_key TEXT PRIMARY KEY CHECK (length(request_key) BETWEEN 1 AND 200),
    game_id     BIGINT NOT NULL REFERENCES games (id),
    ply         BIGINT NOT NULL CHECK (ply >= 1),
    player_id   BIGINT NOT NULL REFERENCES players (id),
    made_at     TEXT NOT NULL
);
-- An undo forgets its move's request by the game and ply.
CREATE INDEX move_requests_move ON move_requests (game_id, ply);
