-- The antiquity tie rule (the beta rules: "in antiquity, if the flatstone score was tied, the
-- victory went to the player who went second"): exactly half a flat more komi for black. The
-- games' and challenges' komi columns hold the komi in force, the half flat included, so the
-- engine, scoring and PTN exports need nothing else; this flag says that it was asked for, to
-- show it. A server may make it the default for new challenges.
ALTER TABLE games ADD COLUMN antiquity INTEGER NOT NULL DEFAULT 0 CHECK (antiquity IN (0, 1));
ALTER TABLE challenges ADD COLUMN antiquity INTEGER NOT NULL DEFAULT 0
    CHECK (antiquity IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN antiquity INTEGER NOT NULL DEFAULT 0
    CHECK (antiquity IN (0, 1));
