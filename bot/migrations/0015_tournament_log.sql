-- The tournament log: every result an organizer corrected and every game reported from elsewhere
-- (a PTN file from PlayTak, say), with who did it, why and what followed. Like the coins ledger,
-- rows are only ever added: the log is the tournament's record of changes made by hand.

CREATE TABLE tournament_log (
    id              INTEGER PRIMARY KEY,
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    kind            TEXT NOT NULL CHECK (kind IN ('correction', 'report')),
    actor_id        INTEGER NOT NULL REFERENCES players (id),
    game_id         INTEGER NOT NULL REFERENCES games (id),
    result_before   TEXT,                                -- PTN; NULL for a reported game
    result_after    TEXT NOT NULL,                       -- PTN
    reason          TEXT NOT NULL,
    consequences    TEXT NOT NULL DEFAULT '',            -- what followed, one line each
    created_at      TEXT NOT NULL
);

CREATE INDEX tournament_log_tournament ON tournament_log (tournament_id, id);

CREATE TRIGGER tournament_log_no_update BEFORE UPDATE ON tournament_log
BEGIN
    SELECT RAISE(ABORT, 'the tournament log is append-only');
END;

CREATE TRIGGER tournament_log_no_delete BEFORE DELETE ON tournament_log
BEGIN
    SELECT RAISE(ABORT, 'the tournament log is append-only');
END;
