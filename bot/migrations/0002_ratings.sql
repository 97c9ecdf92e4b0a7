-- Glicko-2 ratings per guild and board size, and what each rated game did to them.

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    size        INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL CHECK (deviation > 0),
    volatility  REAL NOT NULL CHECK (volatility > 0),
    games       INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, size, player_id)
);

CREATE INDEX ratings_board ON ratings (guild_id, size, rating DESC);

-- One row per player of each rated game that ended: the rating before and after it.
CREATE TABLE rating_changes (
    game_id         INTEGER NOT NULL REFERENCES games (id),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    rating_before   REAL NOT NULL,
    rating_after    REAL NOT NULL,
    deviation_after REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
