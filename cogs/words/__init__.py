"""The words: what the bot says, by what it words (games, clocks, players, coins, notifications,
tournaments, results, analyses), in the language being spoken; names, mentions and times in
:mod:`cogs.words.formatting`. No Discord calls and no rules: the services decide."""
