-- Games started from a position given in TPS (`/tak challenge tps:`): a lesson, a puzzle, an
-- adjourned game. NULL is the empty board. A game's `ply` counts from the TPS's ply (move 11
-- with black to move is ply 21), so that whose turn it is stays `ply % 2`; the log holds only the
-- moves played here, and no undo goes back past the start. Such games are never rated.
ALTER TABLE challenges ADD COLUMN start_tps TEXT;

ALTER TABLE games ADD COLUMN start_tps TEXT;
