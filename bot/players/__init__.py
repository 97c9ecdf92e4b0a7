"""Players: their preferences, their ratings (Glicko-2 per server and board size)."""
