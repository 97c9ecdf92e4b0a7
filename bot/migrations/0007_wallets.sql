-- The University Gambling Rules: coins per player and server, an append-only ledger of every
-- movement, and the staked games whose pots they fill (see bot/services/wallets.py).
--
-- Every coin movement is a row of `ledger`; a wallet's balance and a pot are caches of the sum
-- of their rows, kept by the triggers below in the same statement as the row, so they cannot
-- disagree with the ledger. Both are CHECKed never to go below zero: a movement that would
-- overdraw one is refused by the database itself.

-- Gambling is off until a server manager turns it on.
CREATE TABLE wallet_settings (
    guild_id            INTEGER PRIMARY KEY,
    enabled             INTEGER NOT NULL DEFAULT 0 CHECK (enabled IN (0, 1)),
    starting_balance    INTEGER NOT NULL DEFAULT 100 CHECK (starting_balance BETWEEN 0 AND 1000000),
    ante                INTEGER NOT NULL DEFAULT 10 CHECK (ante BETWEEN 1 AND 1000000)
);

CREATE TABLE wallets (
    guild_id        INTEGER NOT NULL,
    player_id       INTEGER NOT NULL REFERENCES players (id),
    balance         INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    started         INTEGER NOT NULL DEFAULT 0 CHECK (started IN (0, 1)),  -- starting grant given
    created_at      TEXT NOT NULL,
    PRIMARY KEY (guild_id, player_id)
);

CREATE INDEX wallets_board ON wallets (guild_id, balance DESC);

-- A challenge with stakes: each player's ante (NULL: no stakes).
ALTER TABLE challenges ADD COLUMN ante INTEGER CHECK (ante IS NULL OR ante >= 1);

-- One staked game, from its accepted challenge through the sealed bids for the first move
-- (no game yet) to its game's end.
CREATE TABLE stakes (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    challenge_id    INTEGER NOT NULL UNIQUE REFERENCES challenges (id),
    game_id         INTEGER UNIQUE REFERENCES games (id),          -- NULL while bidding
    challenger_id   INTEGER NOT NULL REFERENCES players (id),
    acceptor_id     INTEGER NOT NULL REFERENCES players (id),
    ante            INTEGER NOT NULL CHECK (ante >= 1),
    pot             INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),   -- the sum of its ledger rows
    phase           TEXT NOT NULL DEFAULT 'bidding'
                    CHECK (phase IN ('bidding', 'playing', 'settled')),
    bids_due_at     TEXT NOT NULL,
    challenger_bid  INTEGER CHECK (challenger_bid IS NULL OR challenger_bid >= 0),
    acceptor_bid    INTEGER CHECK (acceptor_bid IS NULL OR acceptor_bid >= 0),
    tie_to          INTEGER NOT NULL REFERENCES players (id),      -- the coin flipped at acceptance
    first_id        INTEGER REFERENCES players (id),               -- the high bidder, white
    first_paid      INTEGER,                                       -- what the high bid put in
    token_id        INTEGER REFERENCES players (id),  -- who last called Tak that cost a payment
    owes_id         INTEGER REFERENCES players (id),  -- who must pay 2 coins with their next move
    created_at      TEXT NOT NULL,
    settled_at      TEXT
);

CREATE INDEX stakes_bidding ON stakes (bids_due_at) WHERE phase = 'bidding';

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    player_id   INTEGER REFERENCES players (id),   -- a wallet; NULL: the pot of stake_id
    stake_id    INTEGER REFERENCES stakes (id),    -- the staked game it belongs to, if any
    game_id     INTEGER REFERENCES games (id),     -- that game, once bidding made it
    amount      INTEGER NOT NULL CHECK (amount != 0),
    reason      TEXT NOT NULL
                CHECK (reason IN ('start', 'grant', 'ante', 'bid', 'tak', 'pot', 'bonus', 'refund')),
    created_at  TEXT NOT NULL,
    CHECK (player_id IS NOT NULL OR stake_id IS NOT NULL)
);

CREATE INDEX ledger_player ON ledger (guild_id, player_id, id);
CREATE INDEX ledger_stake ON ledger (stake_id) WHERE stake_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- A row moves its wallet's balance (the wallet must exist: it is opened before its first row).
CREATE TRIGGER ledger_to_wallet AFTER INSERT ON ledger
WHEN NEW.player_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'a ledger row needs its wallet')
    WHERE NOT EXISTS (
        SELECT 1 FROM wallets WHERE guild_id = NEW.guild_id AND player_id = NEW.player_id
    );
    UPDATE wallets SET balance = balance + NEW.amount
    WHERE guild_id = NEW.guild_id AND player_id = NEW.player_id;
END;

-- A pot row moves its pot.
CREATE TRIGGER ledger_to_pot AFTER INSERT ON ledger
WHEN NEW.player_id IS NULL
BEGIN
    UPDATE stakes SET pot = pot + NEW.amount WHERE id = NEW.stake_id;
END;

-- Balances change only through the ledger.
CREATE TRIGGER wallets_by_ledger_only BEFORE UPDATE OF balance ON wallets
WHEN NEW.balance IS NOT OLD.balance AND NOT EXISTS (
    SELECT 1 FROM ledger WHERE id = (SELECT MAX(id) FROM ledger)
    AND guild_id = NEW.guild_id AND player_id = NEW.player_id
    AND amount = NEW.balance - OLD.balance
)
BEGIN
    SELECT RAISE(ABORT, 'a balance changes only by a ledger row');
END;

CREATE TRIGGER wallets_open_empty BEFORE INSERT ON wallets
WHEN NEW.balance != 0
BEGIN
    SELECT RAISE(ABORT, 'a wallet opens empty: coins come by ledger rows');
END;

CREATE TRIGGER pots_by_ledger_only BEFORE UPDATE OF pot ON stakes
WHEN NEW.pot IS NOT OLD.pot AND NOT EXISTS (
    SELECT 1 FROM ledger WHERE id = (SELECT MAX(id) FROM ledger)
    AND stake_id = NEW.id AND player_id IS NULL AND amount = NEW.pot - OLD.pot
)
BEGIN
    SELECT RAISE(ABORT, 'a pot changes only by a ledger row');
END;

CREATE TRIGGER stakes_open_empty BEFORE INSERT ON stakes
WHEN NEW.pot != 0
BEGIN
    SELECT RAISE(ABORT, 'a pot opens empty: coins come by ledger rows');
END;
