"""Pages anyone can open: a server's games, tournaments, players and lobby, served read-only
over HTTP (aiohttp) from the same services the Discord layer uses. An adapter beside ``cogs/``:
it imports ``tak``, ``rendering`` and ``bot``, never discord.py (``tests/test_layers.py``).

Off until a server turns them on (``/bredon config pages:``); each page's address is signed
(:mod:`bot.page_addresses`). Run by ``bredon web``, or inside the bot with ``BREDON_WEB_PORT``.
"""
