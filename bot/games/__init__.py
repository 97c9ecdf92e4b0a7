"""Games, challenges and matches: playing a game (service), inviting to one (challenges), N-game
series (matches), what the services hand back (model), lists and records of games, and the
SQL of the games tables (storage)."""
