"""Answering a puzzle without PTN: the move picker's steps (:mod:`cogs.actions.move_picker`) on a
puzzle's position, in the private message that put the puzzle.

A select offers the next steps; a complete move asks for confirmation ("Answer c3>"), since only
the first answer to a puzzle counts. Everything the picker needs is in its custom_ids (the
puzzle and the steps), so it still works after a restart. The answer goes through the same
service call as `/puzzle answer` (:func:`answer_puzzle`).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.languages import _
from bot.puzzles.service import Puzzle
from cogs.actions.move_picker import (
    PICKED_STEPS,
    StaleChoice,
    describe,
    next_choices,
    so_far_text,
    steps_move,
)
from cogs.actions.presses import table_of
from cogs.components.buttons import pressed
from cogs.interactions import player_of
from cogs.words import puzzle_messages


def puzzle_view(puzzle: Puzzle, chosen: str = "") -> discord.ui.View:
    """The select of the next steps after `chosen` (with Start over once a step is chosen)."""
    position = puzzle.position()
    options = [
        discord.SelectOption(label=describe(steps, position)[:100], value=steps)
        for steps in next_choices(position.legal_moves(), chosen)
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(PuzzleSelect(puzzle.id, options))
    if chosen:
        view.add_item(PuzzleButton("again", puzzle.id))
    return view


async def answer_puzzle(interaction: discord.Interaction, puzzle_id: int, move: str) -> str:
    """Answer the puzzle for the user who acted; the verdict in words."""
    services = table_of(interaction).services
    answer = await services.puzzles.answer(player_of(interaction.user), puzzle_id, move)
    return puzzle_messages.answer_text(answer, move.strip())


async def show_step(interaction: discord.Interaction, puzzle_id: int, chosen: str) -> None:
    """The picker after `chosen`: the next choices, or a complete move to confirm."""
    await interaction.response.defer()
    if re.fullmatch(PICKED_STEPS, chosen) is None:
        raise StaleChoice
    puzzle = await table_of(interaction).services.puzzles.puzzle(puzzle_id)
    position = puzzle.position()
    move = steps_move(chosen)
    if move is None or not position.is_legal(move):
        view = puzzle_view(puzzle, chosen)  # first: a forged step is refused here
        text = _("Your answer to puzzle #{puzzle}:", puzzle=puzzle.id) + so_far_text(
            chosen, position
        )
        await interaction.edit_original_response(content=text, view=view)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(PuzzleButton("answer", puzzle.id, chosen))
    view.add_item(PuzzleButton("again", puzzle.id))
    text = _(
        "Answer **{move}** to puzzle #{puzzle}? {steps}. Only your first answer counts.",
        move=move.ptn(),
        puzzle=puzzle.id,
        steps=describe(chosen, position),
    )
    await interaction.edit_original_response(content=text, view=view)


async def confirm(interaction: discord.Interaction, puzzle_id: int, chosen: str) -> None:
    await interaction.response.defer()
    move = steps_move(chosen)
    if move is None:
        raise StaleChoice
    text = await answer_puzzle(interaction, puzzle_id, move.ptn())
    await interaction.edit_original_response(content=text, view=None)


class PuzzleSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"bredon:puzzle:(?P<puzzle>\d+):pick"
):
    """The puzzle picker's select: each option's value is the steps chosen with it."""

    def __init__(self, puzzle_id: int, options: list[discord.SelectOption]) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"bredon:puzzle:{puzzle_id}:pick",
                placeholder=_("Choose…"),
                options=options,
            )
        )
        self.puzzle_id = puzzle_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PuzzleSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["puzzle"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        [chosen] = self.item.values
        step = show_step(interaction, self.puzzle_id, chosen)
        await pressed(interaction, "the puzzle picker", self.puzzle_id, step)


class PuzzleButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"bredon:puzzle:(?P<puzzle>\d+):(?P<kind>again|answer)(?::(?P<steps>{PICKED_STEPS}))?",
):
    """Start over (``again``) and Answer (``answer``, with the move's steps)."""

    def __init__(self, kind: str, puzzle_id: int, steps: str = "") -> None:
        move = steps_move(steps)
        label, style = {
            "again": (_("Start over"), discord.ButtonStyle.secondary),
            "answer": (
                _("Answer {move}", move=move.ptn() if move else ""),
                discord.ButtonStyle.success,
            ),
        }[kind]
        tail = f":{steps}" if kind == "answer" else ""
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"bredon:puzzle:{puzzle_id}:{kind}{tail}"
            )
        )
        self.kind, self.puzzle_id, self.steps = kind, puzzle_id, steps

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PuzzleButton:
        return cls(match["kind"], int(match["puzzle"]), match["steps"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "answer":
            acted = confirm(interaction, self.puzzle_id, self.steps)
        else:
            acted = show_step(interaction, self.puzzle_id, "")
        await pressed(interaction, "the puzzle picker", self.puzzle_id, acted)


PUZZLE_ITEMS = (PuzzleSelect, PuzzleButton)
