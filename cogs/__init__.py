"""The Discord layer: everything that knows discord.py.

The client and its command tree (:mod:`cogs.client`), how every interaction answers
(:mod:`cogs.interactions`), running it (:mod:`cogs.running`), the commands by group
(:mod:`cogs.commands`), buttons and forms (:mod:`cogs.components`), the announcements'
presenters (:mod:`cogs.presenters`), their delivery (:mod:`cogs.delivery`) and the words
(:mod:`cogs.words`). It asks the services of :mod:`bot` and words their answers: no SQL, no rules.
"""
