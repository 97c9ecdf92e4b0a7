-- As bot/migrations/0025_languages.sql: a player's language and last Discord locale, a
-- server's language.
ALTER TABLE players ADD COLUMN language TEXT;
ALTER TABLE players ADD COLUMN discord_locale TEXT;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
