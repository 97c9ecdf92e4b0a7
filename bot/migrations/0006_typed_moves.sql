-- A server may let players type their moves as plain messages in a game's thread (the bot must
-- also run with BREDON_TYPED_MOVES=1, which needs Discord's message content intent).
ALTER TABLE guild_settings ADD COLUMN typed_moves INTEGER NOT NULL DEFAULT 0
    CHECK (typed_moves IN (0, 1));
