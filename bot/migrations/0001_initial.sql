-- Players, guild defaults, challenges, games, the move log and matches.
-- Ids are Discord snowflakes (INTEGER); times are ISO-8601 UTC text, which sorts in time order.

CREATE TABLE players (
    id          INTEGER PRIMARY KEY,                 -- Discord user id
    name        TEXT NOT NULL,                       -- the last display name seen
    theme       TEXT,                                -- board theme; NULL is the bot's default
    notify      TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE guild_settings (
    guild_id            INTEGER PRIMARY KEY,
    size                INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi                REAL NOT NULL,
    days_per_move       INTEGER NOT NULL CHECK (days_per_move >= 1),
    use_threads         INTEGER NOT NULL CHECK (use_threads IN (0, 1)),
    organizer_role_id   INTEGER
);

CREATE TABLE matches (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    player1_id      INTEGER NOT NULL REFERENCES players (id),  -- white in odd-numbered games
    player2_id      INTEGER NOT NULL REFERENCES players (id),
    games_total     INTEGER NOT NULL CHECK (games_total >= 1),
    games_played    INTEGER NOT NULL DEFAULT 0,
    points1         INTEGER NOT NULL DEFAULT 0,
    points2         INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'aborted')),
    created_at      TEXT NOT NULL,
    finished_at     TEXT
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER,
    message_id      INTEGER,                             -- the board message
    white_id        INTEGER NOT NULL REFERENCES players (id),  -- player 1
    black_id        INTEGER NOT NULL REFERENCES players (id),  -- player 2
    size            INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi            REAL NOT NULL,
    opening         TEXT NOT NULL CHECK (opening IN ('swap', 'no-swap')),
    stones1         INTEGER NOT NULL,
    stones2         INTEGER NOT NULL,
    caps1           INTEGER NOT NULL,
    caps2           INTEGER NOT NULL,
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    days_per_move   INTEGER NOT NULL CHECK (days_per_move >= 1),
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'finished', 'aborted')),
    result          TEXT,                                -- PTN result: R-0, 0-F, 1-0, 1/2-1/2, 0-0
    result_kind     TEXT,                                -- tak.ResultKind value
    winner_id       INTEGER REFERENCES players (id),     -- NULL for a draw or an abort
    points          INTEGER,                             -- the winner's score, 0 for a draw
    ply             INTEGER NOT NULL DEFAULT 0,          -- plies played (live moves in the log)
    tps             TEXT NOT NULL,                       -- the position after `ply` plies
    last_ptn        TEXT,                                -- the move that made ply `ply`
    last_player_id  INTEGER REFERENCES players (id),     -- who played it
    draw_offer_by   INTEGER REFERENCES players (id),
    undo_request_by INTEGER REFERENCES players (id),
    deadline_at     TEXT,                                -- the side to move loses on time then
    reminder_at     TEXT,                                -- NULL once the reminder is sent
    match_id        INTEGER REFERENCES matches (id),
    match_game      INTEGER,                             -- 1-based number within the match
    created_at      TEXT NOT NULL,
    last_move_at    TEXT,
    finished_at     TEXT
);

CREATE INDEX games_white ON games (white_id, status);
CREATE INDEX games_black ON games (black_id, status);
CREATE INDEX games_channel ON games (channel_id, status);
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_guild ON games (guild_id, status, finished_at);
CREATE INDEX games_finished ON games (finished_at) WHERE status != 'active';
CREATE INDEX games_match ON games (match_id) WHERE match_id IS NOT NULL;
CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';
CREATE INDEX games_reminder ON games (reminder_at) WHERE status = 'active';

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    challenger_id   INTEGER NOT NULL REFERENCES players (id),
    opponent_id     INTEGER REFERENCES players (id),     -- NULL: open, the first taker plays
    colour          TEXT NOT NULL CHECK (colour IN ('white', 'black', 'random')),  -- challenger's
    size            INTEGER NOT NULL CHECK (size BETWEEN 3 AND 8),
    komi            REAL NOT NULL,
    opening         TEXT NOT NULL CHECK (opening IN ('swap', 'no-swap')),
    stones          INTEGER,                             -- NULL: the standard reserve
    caps            INTEGER,
    days_per_move   INTEGER NOT NULL CHECK (days_per_move >= 1),
    games           INTEGER NOT NULL CHECK (games >= 1),
    rated           INTEGER NOT NULL CHECK (rated IN (0, 1)),
    status          TEXT NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    accepted_by     INTEGER REFERENCES players (id),
    game_id         INTEGER REFERENCES games (id),
    rematch_of      INTEGER REFERENCES games (id),
    created_at      TEXT NOT NULL,
    expires_at      TEXT NOT NULL,
    closed_at       TEXT
);

CREATE INDEX challenges_open ON challenges (expires_at) WHERE status = 'open';
CREATE INDEX challenges_channel ON challenges (channel_id, status);

-- The move log. Rows are only ever added (by games_log_move below); an accepted undo marks the
-- last live row undone.
CREATE TABLE moves (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    ply         INTEGER NOT NULL CHECK (ply >= 1),       -- 1 for the first move of the game
    ptn         TEXT NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    played_at   TEXT NOT NULL,
    undone_at   TEXT
);

-- At most one live move per ply: the database itself refuses a second move for the same ply.
CREATE UNIQUE INDEX moves_live ON moves (game_id, ply) WHERE undone_at IS NULL;

CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;

CREATE TRIGGER moves_only_undo BEFORE UPDATE ON moves
WHEN NEW.game_id IS NOT OLD.game_id OR NEW.ply IS NOT OLD.ply OR NEW.ptn IS NOT OLD.ptn
    OR NEW.player_id IS NOT OLD.player_id OR NEW.played_at IS NOT OLD.played_at
    OR OLD.undone_at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only: a move can only be marked undone, once');
END;

-- Advancing a game by one ply appends its move (last_ptn, last_player_id, last_move_at) to the log
-- within the same statement, so the game row and the log cannot disagree.
CREATE TRIGGER games_log_move AFTER UPDATE OF ply ON games
WHEN NEW.ply > OLD.ply
BEGIN
    SELECT RAISE(ABORT, 'a game advances one ply at a time, with its move')
    WHERE NEW.ply != OLD.ply + 1 OR NEW.last_ptn IS NULL OR NEW.last_player_id IS NULL
        OR NEW.last_move_at IS NULL;
    INSERT INTO moves (game_id, ply, ptn, player_id, played_at)
    VALUES (NEW.id, NEW.ply, NEW.last_ptn, NEW.last_player_id, NEW.last_move_at);
END;
