"""Persistent buttons: everything a button needs is in its custom_id (``bredon:<action>:<id>``), so
a button pressed days later, after any number of restarts, still works.

This module only knows the buttons' looks and ids. What a press does is registered by
:mod:`cogs.actions.presses` with :func:`on_press`; whether the presser may do it is decided by
the services (an outsider pressing Accept gets the service's refusal, ephemerally).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.model import ChallengeView, GameView
from bot.languages import _, speaking
from bot.play.service import position_mark
from cogs.interactions import apologise, person_language, refusals

Handler = Callable[[discord.Interaction, int], Awaitable[None]]
FormOpener = Callable[[discord.Interaction, int, int, str], Awaitable[None]]
DayGiver = Callable[[discord.Interaction, int, int | None], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ButtonKind:
    label: Callable[[], str]
    """The button's word in the language spoken (a function: looked up when posted)."""
    style: discord.ButtonStyle


KINDS = {
    "accept": ButtonKind(lambda: _("Accept"), discord.ButtonStyle.success),
    "decline": ButtonKind(lambda: _("Decline"), discord.ButtonStyle.secondary),
    "cancel": ButtonKind(lambda: _("Cancel"), discord.ButtonStyle.secondary),
    "draw-yes": ButtonKind(lambda: _("Accept draw"), discord.ButtonStyle.success),
    "draw-no": ButtonKind(lambda: _("Decline draw"), discord.ButtonStyle.secondary),
    "undo-yes": ButtonKind(lambda: _("Allow undo"), discord.ButtonStyle.success),
    "undo-no": ButtonKind(lambda: _("Refuse undo"), discord.ButtonStyle.secondary),
    "resign": ButtonKind(lambda: _("Resign"), discord.ButtonStyle.danger),
    "rematch": ButtonKind(lambda: _("Rematch"), discord.ButtonStyle.primary),
    "pause-yes": ButtonKind(lambda: _("Agree to pause"), discord.ButtonStyle.success),
    "pause-no": ButtonKind(lambda: _("Keep playing"), discord.ButtonStyle.secondary),
    "moretime": ButtonKind(lambda: _("Give 1 day"), discord.ButtonStyle.secondary),
    "next": ButtonKind(lambda: _("Next game"), discord.ButtonStyle.primary),
}
HANDLERS: dict[str, Handler] = {}
MOVE_FORMS: list[FormOpener] = []  # the one handler for the Move button: cogs.actions.move_picker
GIVE_DAY: list[
    DayGiver
] = []  # the one handler for the Give 1 day button, set by cogs.actions.presses


def on_press(action: str) -> Callable[[Handler], Handler]:
    """Register what pressing the `action` button does; the handler gets the id it carries."""
    if action not in KINDS:
        raise ValueError(f"Unknown button action {action!r}.")

    def register(handler: Handler) -> Handler:
        HANDLERS[action] = handler
        return handler

    return register


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bredon:(?P<action>[a-z-]+):(?P<target>\d+)",
):
    def __init__(self, action: str, target: int) -> None:
        kind = KINDS[action]
        super().__init__(
            discord.ui.Button(
                label=kind.label(), style=kind.style, custom_id=f"bredon:{action}:{target}"
            )
        )
        self.action = action
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        return cls(match["action"], int(match["target"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Acknowledge at once (the message stays as it is), then act; refusals are private."""

        async def act() -> None:
            await interaction.response.defer()
            await HANDLERS[self.action](interaction, self.target)

        await pressed(interaction, f"the {self.action} button", self.target, act())


async def pressed(
    interaction: discord.Interaction, what: str, target: int, act: Awaitable[None]
) -> None:
    """Run a button's action: a refusal reaches the presser privately, anything else is logged
    and apologised for."""
    with speaking(await person_language(interaction, remember=False)):
        try:
            async with refusals(interaction):
                await act
        except Exception as error:
            await apologise(interaction, error, what, target)


def on_move_press(opener: FormOpener) -> FormOpener:
    """Register what pressing a board's Move button does (open the move picker)."""
    MOVE_FORMS[:] = [opener]
    return opener


def on_give_day_press(giver: DayGiver) -> DayGiver:
    """Register what pressing a board's Give 1 day button does."""
    GIVE_DAY[:] = [giver]
    return giver


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bredon:move:(?P<game>\d+):(?P<ply>\d+):(?P<position>[0-9a-f]{8})",
):
    """On every board: opens the move picker (:mod:`cogs.actions.move_picker`), for the
    position that board shows (its ply and :func:`~bot.play.service.position_mark`)."""

    def __init__(self, game_id: int, ply: int, position: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_("Move"),
                style=discord.ButtonStyle.primary,
                custom_id=f"bredon:move:{game_id}:{ply}:{position}",
            )
        )
        self.game_id = game_id
        self.ply = ply
        self.position = position

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), int(match["ply"]), match["position"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """The picker is the first answer, so nothing is acknowledged before it."""
        opened = MOVE_FORMS[0](interaction, self.game_id, self.ply, self.position)
        await pressed(interaction, "the Move button", self.game_id, opened)


class GiveDayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bredon:moretime:(?P<game>\d+):(?P<ply>\d+)",
):
    """On every board: the player waiting gives a day, once a turn, on the turn that board
    shows (boards posted before it carry ``bredon:moretime:<game>``, an ActionButton)."""

    def __init__(self, game_id: int, ply: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=KINDS["moretime"].label(),
                style=KINDS["moretime"].style,
                custom_id=f"bredon:moretime:{game_id}:{ply}",
            )
        )
        self.game_id = game_id
        self.ply = ply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GiveDayButton:
        return cls(int(match["game"]), int(match["ply"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def act() -> None:
            await interaction.response.defer()
            await GIVE_DAY[0](interaction, self.game_id, self.ply)

        await pressed(interaction, "the Give 1 day button", self.game_id, act())


def move_button(game: GameView) -> discord.ui.View:
    """The Move button alone: for a board shown to the player to move only."""
    view = discord.ui.View(timeout=None)
    view.add_item(MoveButton(game.id, game.ply, position_mark(game.tps)))
    return view


def turn_buttons(game: GameView) -> discord.ui.View:
    """A turn's buttons: Move for the player to move, Give 1 day for the one waiting."""
    view = discord.ui.View(timeout=None)
    view.add_item(MoveButton(game.id, game.ply, position_mark(game.tps)))
    view.add_item(GiveDayButton(game.id, game.ply))
    return view


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
