-- As bot/migrations/0027_conditional_moves.sql: a player's conditional moves in one game.
CREATE TABLE conditional_moves (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    player_id   BIGINT NOT NULL REFERENCES players (id),
    lines       TEXT NOT NULL CHECK (length(lines) > 0),
    version     BIGINT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
