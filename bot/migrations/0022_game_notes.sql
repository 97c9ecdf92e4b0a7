-- Private notes (`/game note`): what a player writes down about one of their games, shown to them
-- only and put in their own PTN export as a comment. One note a player a game.
CREATE TABLE game_notes (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    text        TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 1500),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
