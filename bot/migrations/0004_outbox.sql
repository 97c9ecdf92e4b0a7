-- The outbox: everything the players must be told because the database changed, written in the
-- same transaction as the change and marked delivered only once Discord accepted it.
-- Items of one stream ('game:12', 'tournament:3', 'challenge:7') are delivered in id order; an
-- item may also wait for another one (after_id), e.g. a match's next game for the previous ending.

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    stream          TEXT NOT NULL,
    kind            TEXT NOT NULL,
    payload         TEXT NOT NULL,                       -- JSON: the facts to announce
    progress        TEXT NOT NULL DEFAULT '{}',          -- JSON: steps already done (retries skip them)
    after_id        INTEGER REFERENCES outbox (id),
    created_at      TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    claimed_until   TEXT,                                -- a deliverer is at it until then
    last_error      TEXT,
    delivered_at    TEXT,                                -- NULL while pending
    outcome         TEXT CHECK (outcome IN ('posted', 'fallback', 'given_up'))
);

CREATE INDEX outbox_pending_stream ON outbox (stream, id) WHERE delivered_at IS NULL;
CREATE INDEX outbox_pending_due ON outbox (next_attempt_at) WHERE delivered_at IS NULL;
