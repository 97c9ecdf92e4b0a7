-- Conditional moves (`/game conditions`): the lines a player entered for Bredon to play for them
-- when the opponent makes the move a line foresaw (bot/games/conditions.py). One row a player a
-- game: the lines, one a text line of PTN plies, and the game's version at the position they
-- start from (any other version: the game has moved past them).
CREATE TABLE conditional_moves (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    lines       TEXT NOT NULL CHECK (length(lines) > 0),
    version     INTEGER NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
