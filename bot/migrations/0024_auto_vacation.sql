-- Automatic vacation (`/profile settings auto_vacation:on`): when the player's time runs out and
-- vacation days are left, one day is taken instead of the loss on time. Off (0) by default.
ALTER TABLE players ADD COLUMN auto_vacation INTEGER NOT NULL DEFAULT 0
    CHECK (auto_vacation IN (0, 1));
