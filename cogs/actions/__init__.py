"""What a button's press does: the persistent buttons' handlers (:mod:`cogs.actions.presses`,
registered on :mod:`cogs.components.buttons`) and the move picker the Move button opens. Above the
presenters, as a press may post what a command would (a rematch's challenge)."""
