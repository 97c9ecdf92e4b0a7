-- The antiquity tie rule is now a rule of the game (a tied flat count goes to black, whatever the
-- komi), no longer half a flat added to the komi: komi 2.5 with it had become 3, where a tie was
-- a draw. The komi columns now hold the komi the players chose, as guild_settings already did;
-- every stored game and challenge keeps the komi and rule it was created with.
UPDATE games SET komi = komi - 0.5 WHERE antiquity = 1;
UPDATE challenges SET komi = komi - 0.5 WHERE antiquity = 1;
