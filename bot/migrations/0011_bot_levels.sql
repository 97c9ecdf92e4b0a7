-- Challenges to Bredon itself (`/tak play`): the level it plays at, 1 (beginner) to 6 (the
-- strongest: the server's TEI engine if one is configured). The games of an accepted challenge
-- (a match's too) play at its level; a challenge to the bot without a row plays at the default.
CREATE TABLE bot_levels (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges(id),
    level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 6)
);
