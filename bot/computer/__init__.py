"""Bredon as a player and an analyst: games against the bot (its levels, its moves chosen in
worker processes) and post-game analysis."""
