"""Playing: a game as it is played (service: moves, resignation, offers, aborts, and a game's
end, which settles its stakes, rates it and counts it in its match and tournament), inviting to
one (challenges), and what they report (outcomes). Above games, coins and tournaments, whose
rules a move and an ending apply."""
