"""The slash commands: one module per command group, named after it, and the tree that declares
them all in one place (:mod:`cogs.commands.tree`)."""
