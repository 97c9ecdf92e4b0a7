-- Asymmetric reserves on challenges (`/tak challenge black_stones: black_caps:`): black's (player
-- 2's) stones and capstones when not white's. NULL: the same as white's (`stones`, `caps`). Games
-- already keep both players' (stones1/stones2, caps1/caps2).
ALTER TABLE challenges ADD COLUMN stones2 INTEGER;
ALTER TABLE challenges ADD COLUMN caps2 INTEGER;
