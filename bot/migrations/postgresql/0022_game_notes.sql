-- As bot/migrations/0022_game_notes.sql: a player's private note on one of their games.
CREATE TABLE game_notes (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    player_id   BIGINT NOT NULL REFERENCES players (id),
    text        TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 1500),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
