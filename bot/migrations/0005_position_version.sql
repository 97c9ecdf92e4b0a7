-- A version for each game's position, and the position after each logged move.
--
-- games.version counts the changes of the game's position (every move and every undo), so it
-- names one history of the game: a process keeping a position in memory uses it only while the
-- stored version is still the one it saw. Ply and TPS do not do that: moves transpose, and two
-- histories can meet in the same position. The triggers below refuse a change of ply that does
-- not add exactly one to it, so it cannot fall out of step with the log.
--
-- moves.tps is the position after the move (copied from the game row by games_log_move), so a
-- game is loaded from the TPS before its last move and that move, without replaying its log. It
-- is NULL for moves logged before this migration.

ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

ALTER TABLE moves ADD COLUMN tps TEXT;

DROP TRIGGER moves_only_undo;

CREATE TRIGGER moves_only_undo BEFORE UPDATE ON moves
WHEN NEW.game_id IS NOT OLD.game_id OR NEW.ply IS NOT OLD.ply OR NEW.ptn IS NOT OLD.ptn
    OR NEW.player_id IS NOT OLD.player_id OR NEW.played_at IS NOT OLD.played_at
    OR NEW.tps IS NOT OLD.tps OR OLD.undone_at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only: a move can only be marked undone, once');
END;

DROP TRIGGER games_log_move;

CREATE TRIGGER games_log_move AFTER UPDATE OF ply ON games
WHEN NEW.ply > OLD.ply
BEGIN
    SELECT RAISE(ABORT, 'a game advances one ply at a time, with its move')
    WHERE NEW.ply != OLD.ply + 1 OR NEW.last_ptn IS NULL OR NEW.last_player_id IS NULL
        OR NEW.last_move_at IS NULL;
    SELECT RAISE(ABORT, 'a change of ply adds one to the game''s version')
    WHERE NEW.version IS NOT OLD.version + 1;
    INSERT INTO moves (game_id, ply, ptn, player_id, played_at, tps)
    VALUES (NEW.id, NEW.ply, NEW.last_ptn, NEW.last_player_id, NEW.last_move_at, NEW.tps);
END;

-- Going back: one ply, whose move is already marked undone in the log.
CREATE TRIGGER games_unlog_move AFTER UPDATE OF ply ON games
WHEN NEW.ply < OLD.ply
BEGIN
    SELECT RAISE(ABORT, 'a game goes back one ply at a time, its move marked undone first')
    WHERE NEW.ply != OLD.ply - 1 OR EXISTS (
        SELECT 1 FROM moves WHERE game_id = NEW.id AND ply > NEW.ply AND undone_at IS NULL
    );
    SELECT RAISE(ABORT, 'a change of ply adds one to the game''s version')
    WHERE NEW.version IS NOT OLD.version + 1;
END;
