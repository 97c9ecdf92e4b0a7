-- Post-game analysis (`/tak analysis`): one row per game, queued until a worker process has
-- evaluated it; the result is kept, so asking again shows it from here.
CREATE TABLE analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    requested_by INTEGER NOT NULL,
    requested_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    finished_at TEXT,
    evaluator TEXT,    -- who evaluated the positions: Bredon's own player or the TEI engine
    evaluations TEXT,  -- JSON: centi-flats from White's side, one per position, the start first
    marks TEXT,        -- JSON: the mark of each ply ("", "!", "?", "??")
    ptn TEXT,          -- the annotated game
    summary TEXT,      -- the biggest swings, one line each
    error TEXT
);
CREATE INDEX analyses_queued ON analyses (requested_at) WHERE status = 'queued';
