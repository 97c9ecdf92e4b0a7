-- Requested byes and forbidden pairs (Swiss). `requested_bye`: what a requested bye scores in
-- match points, 'half' (a drawn match's points) or 'zero'. A pairing with `requested` = 1 is a
-- bye the player asked for, not the odd player's bye (in a round robin: the forfeit it made).
ALTER TABLE tournaments ADD COLUMN requested_bye TEXT NOT NULL DEFAULT 'half'
    CHECK (requested_bye IN ('half', 'zero'));
ALTER TABLE tournament_pairings ADD COLUMN requested INTEGER NOT NULL DEFAULT 0
    CHECK (requested IN (0, 1));
-- A bye a player asked for in a round not yet paired; the row goes when it is withdrawn.
CREATE TABLE tournament_bye_requests (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    player_id       INTEGER NOT NULL REFERENCES players (id),
    round           INTEGER NOT NULL CHECK (round >= 1),
    requested_by    INTEGER NOT NULL REFERENCES players (id),  -- the player or an organizer
    requested_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player_id, round)
);
-- Two players the Swiss pairing keeps apart (team-mates), the lower id first.
CREATE TABLE tournament_forbidden_pairs (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    player1_id      INTEGER NOT NULL REFERENCES players (id),
    player2_id      INTEGER NOT NULL REFERENCES players (id),
    added_at        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player1_id, player2_id),
    CHECK (player1_id < player2_id)
);
