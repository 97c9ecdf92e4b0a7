-- Team leagues (bot/leagues): teams of `boards` players meet in a team round robin; each round's
-- lineups are due at its `lineup_deadline`, when its games are made. Points are kept in halves
-- (a won board 2, a drawn one 1) so that they stay integers.
CREATE TABLE leagues (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    name            TEXT NOT NULL,
    organizer_id    INTEGER NOT NULL REFERENCES players (id),
    boards          INTEGER NOT NULL CHECK (boards BETWEEN 1 AND 6),
    size            INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi            REAL NOT NULL DEFAULT 0,
    days_per_move   INTEGER NOT NULL CHECK (days_per_move >= 1),
    round_days      INTEGER NOT NULL CHECK (round_days >= 1),
    status          TEXT NOT NULL DEFAULT 'signup'
        CHECK (status IN ('signup', 'running', 'finished')),
    created_at      TEXT NOT NULL,
    started_at      TEXT,
    finished_at     TEXT,
    UNIQUE (guild_id, name)
);
CREATE TABLE league_teams (
    id              INTEGER PRIMARY KEY,
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    name            TEXT NOT NULL,
    captain_id      INTEGER NOT NULL REFERENCES players (id),
    created_at      TEXT NOT NULL,
    UNIQUE (league_id, name)
);
-- A team's roster: a player is on one team per league.
CREATE TABLE league_players (
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    team_id         INTEGER NOT NULL REFERENCES league_teams (id),
    added_at        TEXT NOT NULL,
    PRIMARY KEY (league_id, player_id)
);
-- A round: its lineups are due at `lineup_deadline`; `begun_at` is set when its games are made.
CREATE TABLE league_rounds (
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    round           INTEGER NOT NULL CHECK (round >= 1),
    lineup_deadline TEXT NOT NULL,
    begun_at        TEXT,
    PRIMARY KEY (league_id, round)
);
-- A team match of a round (`away_team_id` NULL: the home team's bye).
CREATE TABLE league_matches (
    id              INTEGER PRIMARY KEY,
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    round           INTEGER NOT NULL CHECK (round >= 1),
    home_team_id    INTEGER NOT NULL REFERENCES league_teams (id),
    away_team_id    INTEGER REFERENCES league_teams (id),
    decided_at      TEXT
);
CREATE INDEX league_matches_round ON league_matches (league_id, round);
-- A captain's lineup for a match: who plays on which board.
CREATE TABLE league_lineups (
    match_id        INTEGER NOT NULL REFERENCES league_matches (id),
    team_id         INTEGER NOT NULL REFERENCES league_teams (id),
    board           INTEGER NOT NULL CHECK (board >= 1),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    set_at          TEXT NOT NULL,
    PRIMARY KEY (match_id, team_id, board)
);
-- A board of a begun match: its game, or none when a side had nobody (a forfeit).
CREATE TABLE league_boards (
    match_id        INTEGER NOT NULL REFERENCES league_matches (id),
    board           INTEGER NOT NULL CHECK (board >= 1),
    home_player_id  INTEGER REFERENCES players (id),
    away_player_id  INTEGER REFERENCES players (id),
    game_id         INTEGER UNIQUE REFERENCES games (id),
    home_halves     INTEGER NOT NULL DEFAULT 0 CHECK (home_halves BETWEEN 0 AND 2),
    away_halves     INTEGER NOT NULL DEFAULT 0 CHECK (away_halves BETWEEN 0 AND 2),
    decided_at      TEXT,
    PRIMARY KEY (match_id, board)
);
