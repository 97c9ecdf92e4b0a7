-- As bot/migrations/0024_auto_vacation.sql: a vacation day taken instead of a loss on time.
ALTER TABLE players ADD COLUMN auto_vacation BIGINT NOT NULL DEFAULT 0
    CHECK (auto_vacation IN (0, 1));
