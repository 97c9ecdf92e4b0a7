-- Bredon has five levels now, not six: the old level 5 (40,000 positions a move) beat level 4
-- only 60% of the time (62.5% on 5x5, 58.8% on 6x6), so it is gone and the strongest (the server's TEI engine if configured)
-- is level 5. Challenges at the old 5 and 6 play at the new 5, the strongest.
CREATE TABLE bot_levels_new (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges(id),
    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 5)
);
INSERT INTO bot_levels_new (challenge_id, level)
    SELECT challenge_id, MIN(level, 5) FROM bot_levels;
DROP TABLE bot_levels;
ALTER TABLE bot_levels_new RENAME TO bot_levels;
