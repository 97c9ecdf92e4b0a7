"""Time at its lowest: where the services read the clock from (:mod:`~bot.timekeeping.clock`) and
time controls (:mod:`~bot.timekeeping.control`). What a turn's deadline is lives with the game
(:mod:`bot.games.turns`); what happens when time runs out, in :mod:`bot.deadlines`."""
