-- As bot/migrations/0030_places.sql: where a game or a challenge lives.
ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'server'
    CHECK (place IN ('server', 'dm', 'group_dm', 'elsewhere'));
ALTER TABLE challenges ADD COLUMN place TEXT NOT NULL DEFAULT 'server'
    CHECK (place IN ('server', 'dm', 'group_dm', 'elsewhere'));
