-- The organizers' toolkit for entries (bot.services.tournament_entry): check-in before the start,
-- seeds set by hand during sign-up, late entry into a running Swiss, and replacing a player.

-- Check-in: opens at checkin_opens_at (NULL: no check-in); its reminder is due at
-- checkin_remind_at. The two flags say the opening and the reminder were announced (in the
-- outbox), so each is announced once, across restarts.
ALTER TABLE tournaments ADD COLUMN checkin_opens_at TEXT;
ALTER TABLE tournaments ADD COLUMN checkin_remind_at TEXT;
ALTER TABLE tournaments ADD COLUMN checkin_announced INTEGER NOT NULL DEFAULT 0
    CHECK (checkin_announced IN (0, 1));
ALTER TABLE tournaments ADD COLUMN checkin_reminded INTEGER NOT NULL DEFAULT 0
    CHECK (checkin_reminded IN (0, 1));
-- A Swiss tournament takes late entrants while its next round is at most this one (NULL: none).
ALTER TABLE tournaments ADD COLUMN late_entry_until INTEGER
    CHECK (late_entry_until IS NULL OR late_entry_until >= 2);

ALTER TABLE tournament_players ADD COLUMN checked_in_at TEXT;
-- A late entrant: the first round they are paired in (NULL: entered before the start).
ALTER TABLE tournament_players ADD COLUMN first_round INTEGER;

-- Who took over whose place: the new player has the old one's entry (seed, pending matches);
-- the pairings already decided keep the old player's name, and count for the place.
CREATE TABLE tournament_replacements (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id),
    old_id          INTEGER NOT NULL REFERENCES players (id),
    new_id          INTEGER NOT NULL REFERENCES players (id),
    round           INTEGER NOT NULL,                    -- the round current at the change
    replaced_at     TEXT NOT NULL,
    PRIMARY KEY (tournament_id, old_id),
    CHECK (old_id != new_id)
);
