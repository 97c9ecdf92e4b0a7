-- Puzzles (bot/puzzles/): positions where one move wins by force, mined from the server's
-- finished games and from published games (bot/puzzles/published.json); each rated by Glicko-2
-- like a player, as solvers win or lose against it.
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY,
    tps         TEXT NOT NULL,
    komi        REAL NOT NULL,
    stones      INTEGER NOT NULL,
    caps        INTEGER NOT NULL,
    solution    TEXT NOT NULL,                       -- the one winning move, PTN
    kind        TEXT NOT NULL CHECK (kind IN ('road', 'tinue')),
    game_id     INTEGER REFERENCES games (id),       -- the server's game it came from
    source      TEXT,                                -- a published game's name and licence
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (tps, komi, stones, caps)
);
-- The server's finished games already mined (each once, whether it held a puzzle or not).
CREATE TABLE puzzle_mined_games (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    mined_at    TEXT NOT NULL
);
-- A player's first answer to a puzzle: the one that counts for ratings and streaks.
CREATE TABLE puzzle_attempts (
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    answer      TEXT NOT NULL,
    solved      INTEGER NOT NULL CHECK (solved IN (0, 1)),
    daily_day   TEXT,                                -- the day it was a daily puzzle answered
    answered_at TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, player_id)
);
-- A player's puzzle rating (Glicko-2) and daily streak: days in a row a daily was solved.
CREATE TABLE puzzle_players (
    player_id   INTEGER PRIMARY KEY REFERENCES players (id),
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    streak_day  TEXT,                                -- the last day the streak counted
    solved      INTEGER NOT NULL DEFAULT 0,
    attempted   INTEGER NOT NULL DEFAULT 0
);
-- Where a server's daily puzzle is posted.
CREATE TABLE puzzle_channels (
    guild_id    INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL,
    chosen_at   TEXT NOT NULL
);
-- A server's puzzle of each day (UTC): written with its announcement, so posted once a day.
CREATE TABLE daily_puzzles (
    guild_id    INTEGER NOT NULL,
    day         TEXT NOT NULL,                       -- YYYY-MM-DD
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (guild_id, day)
);
