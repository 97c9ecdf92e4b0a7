"""Telling players: the outbox of announcements written with every change, how each player is
told (per server, DMs, quiet hours) and the daily digests."""
