-- Correspondence clocks: time controls with a bank or an increment, clocks that stand still
-- (a pause both players agreed to, a player's vacation), and reminders at the times players choose.
-- Durations are whole seconds; 0 means "none".

-- A game's time control besides days_per_move (see bot/services/timecontrol.py), and what each
-- player has left on their clock: the bank left, or the time on an increment clock (NULL: days per
-- move keeps no clock).
ALTER TABLE games ADD COLUMN clock_bank INTEGER NOT NULL DEFAULT 0 CHECK (clock_bank >= 0);
ALTER TABLE games ADD COLUMN clock_increment INTEGER NOT NULL DEFAULT 0
    CHECK (clock_increment >= 0);
ALTER TABLE games ADD COLUMN clock_cap INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0);
ALTER TABLE games ADD COLUMN clock_left1 INTEGER;
ALTER TABLE games ADD COLUMN clock_left2 INTEGER;
-- The clock stands still since then (a pause or a vacation): no deadline, no reminder passes; when
-- it runs again the deadline and the reminder move on by the time it stood still.
ALTER TABLE games ADD COLUMN frozen_at TEXT;
-- A pause both players agreed to, since then; and a pause proposed, by whom.
ALTER TABLE games ADD COLUMN paused_at TEXT;
ALTER TABLE games ADD COLUMN pause_offer_by INTEGER REFERENCES players (id);

ALTER TABLE challenges ADD COLUMN clock_bank INTEGER NOT NULL DEFAULT 0 CHECK (clock_bank >= 0);
ALTER TABLE challenges ADD COLUMN clock_increment INTEGER NOT NULL DEFAULT 0
    CHECK (clock_increment >= 0);
ALTER TABLE challenges ADD COLUMN clock_cap INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0);

-- A tournament's time control for its games, and whether it allows vacations (if not, its games'
-- clocks run whoever is away).
ALTER TABLE tournaments ADD COLUMN clock_bank INTEGER NOT NULL DEFAULT 0 CHECK (clock_bank >= 0);
ALTER TABLE tournaments ADD COLUMN clock_increment INTEGER NOT NULL DEFAULT 0
    CHECK (clock_increment >= 0);
ALTER TABLE tournaments ADD COLUMN clock_cap INTEGER NOT NULL DEFAULT 0 CHECK (clock_cap >= 0);
ALTER TABLE tournaments ADD COLUMN vacation_allowed INTEGER NOT NULL DEFAULT 1
    CHECK (vacation_allowed IN (0, 1));

-- Vacation days each player may take per calendar year (UTC) in the server; 0: no vacations.
ALTER TABLE guild_settings ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 14
    CHECK (vacation_days BETWEEN 0 AND 365);

-- A player's vacations in a server. One at a time: ended_at is NULL while it lasts; it ends at
-- ends_at unless the player ends it before. Its days count in the year it began.
CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    started_at  TEXT NOT NULL,
    ends_at     TEXT NOT NULL,
    ended_at    TEXT,
    CHECK (ends_at > started_at)
);

CREATE UNIQUE INDEX vacations_current ON vacations (guild_id, player_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_ending ON vacations (ends_at) WHERE ended_at IS NULL;
CREATE INDEX vacations_player ON vacations (guild_id, player_id, started_at);
CREATE INDEX games_frozen ON games (frozen_at) WHERE frozen_at IS NOT NULL;

-- When a player wants to be reminded before a deadline, per server: seconds before it, comma
-- separated ('' for never). No row: once, when 80% of the time for the move has passed.
CREATE TABLE reminder_offsets (
    guild_id    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players (id),
    offsets     TEXT NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);
