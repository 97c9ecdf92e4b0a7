-- How each player is told of their games, per server: a mention per move, a DM per move, or a
-- daily digest by DM at a local hour in their own IANA time zone.
-- players.notify stays the default for a server where the player has not chosen (it was the one,
-- server-wide setting before this table).

CREATE TABLE notify_prefs (
    player_id       INTEGER NOT NULL REFERENCES players (id),
    guild_id        INTEGER NOT NULL,
    mode            TEXT NOT NULL CHECK (mode IN ('mention', 'dm', 'digest')),
    digest_hour     INTEGER CHECK (digest_hour IS NULL OR digest_hour BETWEEN 0 AND 23),
    time_zone       TEXT,                                -- IANA name, e.g. Europe/London
    next_digest_at  TEXT,                                -- UTC; NULL unless mode is 'digest'
    unreachable_at  TEXT,                                -- a DM was refused; told at their next command
    updated_at      TEXT NOT NULL,
    PRIMARY KEY (player_id, guild_id),
    CHECK (mode != 'digest' OR (digest_hour IS NOT NULL AND time_zone IS NOT NULL
        AND next_digest_at IS NOT NULL))
);

CREATE INDEX notify_prefs_digest ON notify_prefs (next_digest_at) WHERE next_digest_at IS NOT NULL;
