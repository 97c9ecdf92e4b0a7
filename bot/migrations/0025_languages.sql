-- The languages Bredon speaks (bot/languages): a player's own choice (`/profile settings
-- language:`; NULL follows their Discord's), the Discord language their last command came in (for
-- what reaches them outside a command: DMs, digests), and a server's language for its public posts
-- (`/bredon config language:`; NULL follows the server's own, Discord's "preferred locale").
ALTER TABLE players ADD COLUMN language TEXT;
ALTER TABLE players ADD COLUMN discord_locale TEXT;
ALTER TABLE guild_settings ADD COLUMN language TEXT;
