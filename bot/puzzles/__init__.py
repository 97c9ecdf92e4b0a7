"""Puzzles: positions from finished games where one move wins by force (mined in `mining`),
kept with their ratings, the players' attempts and streaks, and the servers' daily puzzle."""
