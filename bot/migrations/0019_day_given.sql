-- The Give 1 day button gives once a turn: the game's version (moves and undos raise it) when
-- the player waiting last gave a day with it, so a double click or a second press gives nothing.
ALTER TABLE games ADD COLUMN day_given_version INTEGER;
