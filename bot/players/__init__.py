"""Players: who they are (`model.py`), their preferences, and the Glicko-2 arithmetic their
ratings use (the ratings themselves come from games: :mod:`bot.games.ratings`)."""
