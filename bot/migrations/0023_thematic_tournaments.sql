-- Thematic tournaments (`/organize create start:`): every game of the event starts from this
-- position (TPS, as a challenge's start_tps; an opening given as moves is stored as the position
-- it leads to). NULL: the empty board. Such games are never rated.
ALTER TABLE tournaments ADD COLUMN start_tps TEXT;
