"""Getting announcements to the players: the courier that delivers the outbox, the table every
presenter posts through (threads, posts, DMs, board images), answers shared in a channel, and
the notices after a command."""
