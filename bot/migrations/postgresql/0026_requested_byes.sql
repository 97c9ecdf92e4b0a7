-- As bot/migrations/0026_requested_byes.sql: what a requested bye scores, which byes were
-- requested, the requests for rounds not yet paired and the pairs kept apart.
ALTER TABLE tournaments ADD COLUMN requested_bye TEXT NOT NULL DEFAULT 'half'
    CHECK (requested_bye IN ('half', 'zero'));
ALTER TABLE tournament_pairings ADD COLUMN requested BIGINT NOT NULL DEFAULT 0
    CHECK (requested IN (0, 1));
CREATE TABLE tournament_bye_requests (
    tournament_id   BIGINT NOT NULL REFERENCES tournaments (id),
    player_id       BIGINT NOT NULL REFERENCES players (id),
    round           BIGINT NOT NULL CHECK (round >= 1),
    requested_by    BIGINT NOT NULL REFERENCES players (id),
    requested_at    TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player_id, round)
);
CREATE TABLE tournament_forbidden_pairs (
    tournament_id   BIGINT NOT NULL REFERENCES tournaments (id),
    player1_id      BIGINT NOT NULL REFERENCES players (id),
    player2_id      BIGINT NOT NULL REFERENCES players (id),
    added_at        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, player1_id, player2_id),
    CHECK (player1_id < player2_id)
);
