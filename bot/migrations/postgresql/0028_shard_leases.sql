-- As bot/migrations/0028_shard_leases.sql: which process runs which Discord shards.
CREATE TABLE shard_leases (
    shard       BIGINT PRIMARY KEY CHECK (shard >= -1),
    holder      TEXT NOT NULL,
    host        TEXT NOT NULL,
    pid         BIGINT NOT NULL,
    beat        BIGINT NOT NULL DEFAULT 0,
    claimed_at  TEXT NOT NULL
);
