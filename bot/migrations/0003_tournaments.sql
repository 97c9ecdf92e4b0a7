-- Tournaments: their settings, their players, and each round's pairings with the match played.
-- A tournament match is an ordinary match (and its games ordinary games): tournament_pairings
-- links it to its tournament and round, and games reach it through games.match_id.

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,                    -- where its games are started
    name            TEXT NOT NULL,
    format          TEXT NOT NULL
                    CHECK (format IN ('round_robin', 'double_round_robin', 'swiss', 'elimination')),
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
    finished_at     TEXT
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
-- Players name a tournament in commands, so two live ones in a guild cannot share a name.
CREATE UNIQUE INDEX tournaments_live_name ON tournaments (guild_id, name COLLATE NOCASE)
WHERE status IN ('signup', 'running');

CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    seed            INTEGER CHECK (seed IS NULL OR seed >= 1),  -- 1 is the top seed; set at start
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'withdrawn', 'disqualified')),
    joined_at       TEXT NOT NULL,
    left_at         TEXT,                                -- when withdrawn or disqualified
    PRIMARY KEY (tournament_id, player_id)
);

-- One row per match of a round, and one per bye (player2_id NULL). A pairing is decided when its
-- match finishes, when it is forfeited, or at once for a bye.
CREATE TABLE tournament_pairings (
    id              INTEGER PRIMARY KEY,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    round           INTEGER NOT NULL CHECK (round >= 1),
    player1_id      INTEGER NOT NULL REFERENCES players (id),  -- white in the match's game 1
    player2_id      INTEGER REFERENCES players (id),           -- NULL: player 1 has a bye
    match_id        INTEGER UNIQUE REFERENCES matches (id),    -- NULL: a bye, or forfeited unplayed
    points1         INTEGER NOT NULL DEFAULT 0,                -- multi-game points scored
    points2         INTEGER NOT NULL DEFAULT 0,
    winner_id       INTEGER REFERENCES players (id),           -- NULL: undecided or drawn
    forfeit         INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    decided_at      TEXT,                                      -- NULL while being played
    CHECK (player2_id IS NULL OR player2_id != player1_id)
);

CREATE INDEX tournament_pairings_round ON tournament_pairings (tournament_id, round);

-- A match that may not end drawn (an elimination match): when its scheduled games leave the
-- players level on points, it goes on one game at a time, colours alternating, until one leads.
ALTER TABLE matches ADD COLUMN until_decided INTEGER NOT NULL DEFAULT 0
    CHECK (until_decided IN (0, 1));
