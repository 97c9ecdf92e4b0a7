-- Seasons (`/organize season`, `/season`): a league that recurs, one a server. Each season cuts
-- its players into divisions by the division earned last season, then rating; each division is
-- played as a tournament whose rounds wait for the season's period (`paced`).
ALTER TABLE tournaments ADD COLUMN paced INTEGER NOT NULL DEFAULT 0 CHECK (paced IN (0, 1));

CREATE TABLE season_leagues (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL UNIQUE,
    channel_id      INTEGER NOT NULL,                    -- where its games and news go
    name            TEXT NOT NULL,
    organizer_id    INTEGER NOT NULL REFERENCES players (id),
    format          TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss')),
    division_size   INTEGER NOT NULL CHECK (division_size BETWEEN 3 AND 16),
    period_days     INTEGER NOT NULL CHECK (period_days BETWEEN 1 AND 28),
    movers          INTEGER NOT NULL CHECK (movers >= 0),  -- up from, and down from, a division
    games_per_match INTEGER NOT NULL CHECK (games_per_match >= 1),
    size            INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi            REAL NOT NULL,
    days_per_move   INTEGER NOT NULL CHECK (days_per_move >= 1),
    created_at      TEXT NOT NULL
);

CREATE TABLE seasons (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES season_leagues (id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    status      TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished')),
    due_at      TEXT,  -- sign-up: when it starts by itself; running: its round's deadline
    started_at  TEXT,
    finished_at TEXT,
    UNIQUE (league_id, number)
);
CREATE INDEX seasons_due ON seasons (status, due_at);

CREATE TABLE season_players (
    season_id       INTEGER NOT NULL REFERENCES seasons (id),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    joined_at       TEXT NOT NULL,
    earned_division INTEGER,  -- the division the last season sent them to (1 the top); NULL: new
    division        INTEGER,  -- from the start
    place           INTEGER,  -- in their division's final table, at the end
    next_division   INTEGER,  -- where the final table sends them next season, at the end
    PRIMARY KEY (season_id, player_id)
);

CREATE TABLE season_divisions (
    season_id     INTEGER NOT NULL REFERENCES seasons (id),
    division      INTEGER NOT NULL CHECK (division >= 1),  -- 1 the top
    tournament_id INTEGER NOT NULL UNIQUE REFERENCES tournaments (id),
    PRIMARY KEY (season_id, division)
);
