-- As bot/migrations/0021_black_reserves.sql: black's reserves on challenges, NULL when white's.
ALTER TABLE challenges ADD COLUMN stones2 BIGINT;
ALTER TABLE challenges ADD COLUMN caps2 BIGINT;
