-- As bot/migrations/0030_web_pages.sql: a server's pages (off, unlisted, listed) and the secret
-- the pages' addresses are signed with.
ALTER TABLE guild_settings ADD COLUMN pages TEXT NOT NULL DEFAULT 'off'
    CHECK (pages IN ('off', 'unlisted', 'listed'));
CREATE TABLE page_secret (
    id      BIGINT PRIMARY KEY CHECK (id = 1),
    secret  TEXT NOT NULL
);
