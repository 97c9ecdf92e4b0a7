"""What time does to games: deadlines and reminders due (:mod:`~bot.deadlines.service`), clocks
that stand still or get longer (:mod:`~bot.deadlines.holds`: vacations, pauses, more time) and the
one scheduler that wakes for them (:mod:`~bot.deadlines.scheduler`). Above games, coins and
tournaments, whose rules it applies when time runs out."""
