"""Seasons: a server's league that recurs. Each season cuts its players into divisions
(:mod:`~bot.seasons.divisions`, pure), plays each division as a paced tournament of
:mod:`bot.tournaments` (one round a period, each with a deadline), then moves players up and down
for the next season (:mod:`~bot.seasons.service`; its tables in :mod:`~bot.seasons.storage`)."""
