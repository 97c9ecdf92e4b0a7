-- Which process runs which Discord shards (bot/store/shard_leases.py): a row per shard a process
-- claimed at start (shard -1: all of them, a process without BREDON_SHARD_IDS), its holder's
-- random token, host and process id, and a heartbeat counter it raises while it runs. Two
-- processes on one database never run the same shard.
CREATE TABLE shard_leases (
    shard       INTEGER PRIMARY KEY CHECK (shard >= -1),
    holder      TEXT NOT NULL,
    host        TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    beat        INTEGER NOT NULL DEFAULT 0,
    claimed_at  TEXT NOT NULL
);
