-- Groups -> knockout tournaments, and tiebreak games with their own time control for drawn
-- knockout matches.

-- The format check gains 'groups'. SQLite cannot change a CHECK in place, so the table is rebuilt
-- with its rows; the other tables' foreign keys to it are checked at COMMIT, by when every row is
-- back under the same id.
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE tournaments_copy AS SELECT * FROM tournaments;

DROP TABLE tournaments;

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,                    -- where its games are started
    name            TEXT NOT NULL,
    format          TEXT NOT NULL CHECK (format IN (
                        'round_robin', 'double_round_robin', 'swiss', 'elimination', 'groups')),
    swiss_rounds    INTEGER CHECK (swiss_rounds IS NULL OR swiss_rounds >= 1),  -- Swiss only
    size            INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi            REAL NOT NULL,
    opening         TEXT NOT NULL CHECK (opening IN ('swap', 'no-swap')),
    games_per_match INTEGER NOT NULL CHECK (games_per_match >= 1),
    days_per_move   INTEGER NOT NULL CHECK (days_per_move >= 1),
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    scoring         TEXT NOT NULL CHECK (scoring IN ('game_points', 'match_points')),
    match_win       REAL NOT NULL,                       -- match points; a bye scores a win
    match_draw      REAL NOT NULL,
    match_loss      REAL NOT NULL,
    tie_breaks      TEXT NOT NULL,                       -- comma-separated, first applied first
    max_players     INTEGER NOT NULL CHECK (max_players >= 2),
    signup_deadline TEXT,                                -- no joining after it
    organizer_id    INTEGER NOT NULL REFERENCES players (id),  -- who created it
    status          TEXT NOT NULL DEFAULT 'signup'
                    CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    current_round   INTEGER NOT NULL DEFAULT 0,          -- 0 until it starts
    rounds_total    INTEGER,                             -- fixed at the start
    winner_id       INTEGER REFERENCES players (id),     -- the sole first place, once finished
    created_at      TEXT NOT NULL,
    started_at      TEXT,
    finished_at     TEXT,
    clock_bank      INTEGER NOT NULL DEFAULT 0 CHECK (clock_bank >= 0),
    clock_increment INTEGER NOT NULL DEFAULT 0 CHECK (clock_increment >= 0),
    clock_cap       INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0),
    vacation_allowed INTEGER NOT NULL DEFAULT 1 CHECK (vacation_allowed IN (0, 1)),
    -- Groups -> knockout only: how many groups, and how many of each go through.
    group_count     INTEGER CHECK (group_count IS NULL OR group_count >= 2),
    group_advance   INTEGER CHECK (group_advance IS NULL OR group_advance >= 1),
    -- Knockout matches (elimination, and the knockout of groups): the tiebreak games that settle a
    -- drawn match, their time control, and how many at most before the better seed goes through
    -- (NULL for tournaments created before: the match's own time control, no limit).
    tiebreak_days_per_move INTEGER CHECK (tiebreak_days_per_move IS NULL
                                          OR tiebreak_days_per_move >= 1),
    tiebreak_clock_bank INTEGER NOT NULL DEFAULT 0 CHECK (tiebreak_clock_bank >= 0),
    tiebreak_clock_increment INTEGER NOT NULL DEFAULT 0 CHECK (tiebreak_clock_increment >= 0),
    tiebreak_clock_cap INTEGER NOT NULL DEFAULT 0 CHECK (tiebreak_clock_cap >= 0),
    tiebreak_games  INTEGER CHECK (tiebreak_games IS NULL OR tiebreak_games >= 1)
);

INSERT INTO tournaments (id, guild_id, channel_id, name, format, swiss_rounds, size, komi, opening,
    games_per_match, days_per_move, rated, scoring, match_win, match_draw, match_loss, tie_breaks,
    max_players, signup_deadline, organizer_id, status, current_round, rounds_total, winner_id,
    created_at, started_at, finished_at, clock_bank, clock_increment, clock_cap, vacation_allowed)
SELECT id, guild_id, channel_id, name, format, swiss_rounds, size, komi, opening,
    games_per_match, days_per_move, rated, scoring, match_win, match_draw, match_loss, tie_breaks,
    max_players, signup_deadline, organizer_id, status, current_round, rounds_total, winner_id,
    created_at, started_at, finished_at, clock_bank, clock_increment, clock_cap, vacation_allowed
FROM tournaments_copy;

DROP TABLE tournaments_copy;

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE UNIQUE INDEX tournaments_live_name ON tournaments (guild_id, name COLLATE NOCASE)
WHERE status IN ('signup', 'running');

-- A groups -> knockout player's group (0 is group A), from the snake at the start; and their seed
-- in the knockout (1 is the top seed), once the groups are over and they went through.
ALTER TABLE tournament_players ADD COLUMN group_number INTEGER
    CHECK (group_number IS NULL OR group_number >= 0);
ALTER TABLE tournament_players ADD COLUMN knockout_seed INTEGER
    CHECK (knockout_seed IS NULL OR knockout_seed >= 1);

-- A match's tiebreak games (an until_decided match left level after its games): their time
-- control (NULL days: the match's own) and how many at most (NULL: until one player leads). After
-- the last one, a match still level ends drawn, and its tournament sends the better seed through.
ALTER TABLE matches ADD COLUMN tiebreak_days_per_move INTEGER
    CHECK (tiebreak_days_per_move IS NULL OR tiebreak_days_per_move >= 1);
ALTER TABLE matches ADD COLUMN tiebreak_clock_bank INTEGER NOT NULL DEFAULT 0
    CHECK (tiebreak_clock_bank >= 0);
ALTER TABLE matches ADD COLUMN tiebreak_clock_increment INTEGER NOT NULL DEFAULT 0
    CHECK (tiebreak_clock_increment >= 0);
ALTER TABLE matches ADD COLUMN tiebreak_clock_cap INTEGER NOT NULL DEFAULT 0
    CHECK (tiebreak_clock_cap >= 0);
ALTER TABLE matches ADD COLUMN tiebreak_games INTEGER
    CHECK (tiebreak_games IS NULL OR tiebreak_games >= 1);

-- A game's number among its match's tiebreak games (1 for the first); NULL for any other game.
ALTER TABLE games ADD COLUMN tiebreak INTEGER CHECK (tiebreak IS NULL OR tiebreak >= 1);
