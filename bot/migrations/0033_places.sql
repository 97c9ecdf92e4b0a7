-- Where a game or a challenge lives (bot/games/model.py, GamePlace): a channel of a server that
-- installed Bredon ('server', every game so far), or, Bredon installed to a player's account, a
-- DM between players ('dm'), a group DM ('group_dm') or a server without Bredon ('elsewhere').
-- Those three are kept under guild_id 0: no server's lists, settings or ratings hold them, and
-- their ratings are one pool of their own per size.
ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'server'
    CHECK (place IN ('server', 'dm', 'group_dm', 'elsewhere'));
ALTER TABLE challenges ADD COLUMN place TEXT NOT NULL DEFAULT 'server'
    CHECK (place IN ('server', 'dm', 'group_dm', 'elsewhere'));
