"""Persistent buttons: everything a button needs is in its custom_id (``bredon:<action>:<id>``), so
a button pressed days later, after any number of restarts, still works.

This module only knows the buttons' looks and ids. What a press does is registered by
:mod:`cogs.actions` with :func:`on_press`; whether the presser may do it is decided by the services
(an outsider pressing Accept gets the service's refusal, ephemerally).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.app import apologise, refusals
from bot.services.views import ChallengeView

Handler = Callable[[discord.Interaction, int], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ButtonKind:
    label: str
    style: discord.ButtonStyle


KINDS = {
    "accept": ButtonKind("Accept", discord.ButtonStyle.success),
    "decline": ButtonKind("Decline", discord.ButtonStyle.secondary),
    "cancel": ButtonKind("Cancel", discord.ButtonStyle.secondary),
    "draw-yes": ButtonKind("Accept draw", discord.ButtonStyle.success),
    "draw-no": ButtonKind("Decline draw", discord.ButtonStyle.secondary),
    "undo-yes": ButtonKind("Allow undo", discord.ButtonStyle.success),
    "undo-no": ButtonKind("Refuse undo", discord.ButtonStyle.secondary),
    "resign": ButtonKind("Resign", discord.ButtonStyle.danger),
    "rematch": ButtonKind("Rematch", discord.ButtonStyle.primary),
}
HANDLERS: dict[str, Handler] = {}


def on_press(action: str) -> Callable[[Handler], Handler]:
    """Register what pressing the `action` button does; the handler gets the id it carries."""
    if action not in KINDS:
        raise ValueError(f"Unknown button action {action!r}.")

    def register(handler: Handler) -> Handler:
        HANDLERS[action] = handler
        return handler

    return register


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bredon:(?P<action>[a-z-]+):(?P<target>\d+)",
):
    def __init__(self, action: str, target: int) -> None:
        kind = KINDS[action]
        super().__init__(
            discord.ui.Button(
                label=kind.label, style=kind.style, custom_id=f"bredon:{action}:{target}"
            )
        )
        self.action = action
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ActionButton:
        return cls(match["action"], int(match["target"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Acknowledge at once (the message stays as it is), then act; refusals are private."""
        try:
            async with refusals(interaction):
                await interaction.response.defer()
                await HANDLERS[self.action](interaction, self.target)
        except Exception as error:
            await apologise(interaction, error, f"the {self.action} button", self.target)


def buttons(*pairs: tuple[str, int]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, target in pairs:
        view.add_item(ActionButton(action, target))
    return view


def challenge_buttons(challenge: ChallengeView) -> discord.ui.View:
    """Accept for the opponent (anyone, for an open challenge), Decline for a named opponent,
    Cancel for the challenger."""
    pairs = [("accept", challenge.id)]
    if challenge.opponent is not None:
        pairs.append(("decline", challenge.id))
    pairs.append(("cancel", challenge.id))
    return buttons(*pairs)
