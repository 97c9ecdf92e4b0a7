"""Games and what they keep: what the services hand back (model), the SQL of the games tables
(storage, challenge_storage), when a turn ends (turns), N-game series (matches), ratings, lists
and records of games (lookup), notes, scratch boards and conditional moves. How a game is played
is :mod:`bot.play`, above."""
