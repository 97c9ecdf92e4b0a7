"""Moving without PTN: the picker behind a board's Move button.

Every legal move is spelt as *steps*, one character each: the file, the rank, then a piece letter
(``F``, ``S``, ``C``) for a placement, or a direction (``+ - < >``), the count picked up and the
drops for a stack move (``c3>312`` is 3c3>12). A picker shows the steps chosen so far and offers
the next ones in one select, as deep as fits Discord's 25 options: the whole list of moves when
there are few, else the squares, or the files first, and from a square its placements, directions,
counts and drops. A complete move is previewed (the board after it) with a Confirm button that
plays it through the same service call as `/tak move`, for the position the picker was opened on.

Everything a picker needs is in its components' custom_ids (game, ply, position mark, steps), so a
picker still works after a restart, and one for a position that has changed is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.errors import BredonError, NotYourTurn, PositionChanged
from bot.games.model import GameView
from bot.games.service import position_mark, require_active
from cogs.actions import MoveForm, play_move, table_of
from cogs.buttons import on_move_press, pressed
from tak import Move, Placement, Position, Spread
from tak.moves import FILES, Direction, Piece

MAX_OPTIONS = 25  # Discord's limit on a select's options
_ORDER = FILES + "12345678" + "FSC" + "+-<>"  # placements before stack moves
_PIECE_STEPS = {"F": Piece.FLAT, "S": Piece.WALL, "C": Piece.CAP}
_PIECE_NAMES = {Piece.FLAT: "flat", Piece.WALL: "wall (standing stone)", Piece.CAP: "capstone"}
_DIRECTION_NAMES = {
    Direction.UP: "up",
    Direction.DOWN: "down",
    Direction.RIGHT: "right",
    Direction.LEFT: "left",
}
_STEPS = r"[a-h1-8FSC+<>\-]{0,12}"
_PICKER = r"(?P<game>\d+):(?P<ply>\d+):(?P<position>[0-9a-f]{8})"


class StaleChoice(BredonError):
    """A step that leads to no legal move (a forged or outdated component)."""

    def __init__(self) -> None:
        super().__init__("That choice leads to no legal move here: press the board's Move again.")


def move_steps(move: Move) -> str:
    """`move` as picker steps: ``c3F``, ``c3S``, ``c3C``, or ``c3>312`` for 3c3>12."""
    if isinstance(move, Placement):
        return f"{move.square}{'FSC'[move.piece]}"
    drops = "".join(map(str, move.drops))
    return f"{move.square}{move.direction.value}{move.count}{drops}"


def steps_move(steps: str) -> Move | None:
    """The move `steps` complete, or None while more steps are needed (or they make none)."""
    if len(steps) < 3 or steps[0] not in FILES or steps[1] not in "12345678":
        return None
    file, rank = FILES.index(steps[0]), int(steps[1]) - 1
    if len(steps) == 3 and steps[2] in _PIECE_STEPS:
        return Placement(file, rank, _PIECE_STEPS[steps[2]])
    if len(steps) < 5 or steps[2] not in "+-<>" or not steps[3:].isdigit():
        return None
    drops = tuple(int(d) for d in steps[4:])
    if 0 in drops or sum(drops) != int(steps[3]):
        return None
    return Spread(file, rank, Direction(steps[2]), drops)


def _ordered(steps: str) -> tuple[int, ...]:
    return tuple(_ORDER.index(step) for step in steps)


def next_choices(moves: Iterable[Move], chosen: str) -> list[str]:
    """What to offer after the steps `chosen`: the steps of every move below it cut at one
    depth, the deepest at which they still fit one select (at least one step further); raises
    :class:`StaleChoice` if no legal move follows `chosen`."""
    below = {steps for steps in map(move_steps, moves) if steps.startswith(chosen)}
    if not below:
        raise StaleChoice
    depth = len(chosen) + 1
    offered = {steps[:depth] for steps in below}
    deepest = max(map(len, below))
    while depth < deepest:
        deeper = {steps[: depth + 1] for steps in below}
        if len(deeper) > MAX_OPTIONS:
            break
        offered, depth = deeper, depth + 1
    return sorted((_whole_if_alone(step, below) for step in offered), key=_ordered)


def _whole_if_alone(step: str, below: set[str]) -> str:
    """A step that leads to one move only is offered as that move."""
    [first, *others] = (steps for steps in below if steps.startswith(step))
    return step if others else first


def describe(steps: str, position: Position) -> str:
    """The steps in words, for an option's label (at most 100 characters)."""
    move = steps_move(steps)
    if isinstance(move, Placement):
        return f"{move.ptn()}: place a {_PIECE_NAMES[move.piece]} on {move.square}"
    if isinstance(move, Spread):
        landing = ", ".join(
            f"{drop} on {FILES[file]}{rank + 1}"
            for drop, (file, rank) in zip(move.drops, move.path(), strict=True)
        )
        return f"{move.ptn()}: carry {move.count} {_DIRECTION_NAMES[move.direction]}, {landing}"
    if len(steps) == 1:
        return f"Squares on the {steps} file"
    square = steps[:2]
    if len(steps) == 2:
        stack = position.stack(FILES.index(steps[0]), int(steps[1]) - 1)
        if not stack.colors:
            return f"{square}: empty, place a piece"
        top = "white" if stack.colors[-1] == 0 else "black"
        return f"{square}: stack of {len(stack.colors)}, {top} on top"
    text = f"{square}: move {_DIRECTION_NAMES[Direction(steps[2])]}"
    if len(steps) >= 4:
        text += f", carrying {steps[3]}"
    if len(steps) >= 5:
        text += ", dropping " + ", ".join(steps[4:]) + ", then more"
    return text


def picker_text(game: GameView, chosen: str, position: Position) -> str:
    so_far = f" So far: {describe(chosen, position)}." if chosen else ""
    return f"Your move in game #{game.id}: choose it below, step by step.{so_far}"


def picker_view(game: GameView, chosen: str, position: Position) -> discord.ui.View:
    """The select of the next steps after `chosen`, with Start over and Type PTN."""
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(label=describe(steps, position)[:100], value=steps)
        for steps in next_choices(position.legal_moves(), chosen)
    ]
    view.add_item(PickSelect(game.id, game.ply, position_mark(game.tps), options))
    _add_buttons(view, game, chosen)
    return view


def _add_buttons(view: discord.ui.View, game: GameView, chosen: str) -> None:
    mark = position_mark(game.tps)
    if chosen:
        view.add_item(PickerButton("pick0", game.id, game.ply, mark))
    view.add_item(PickerButton("pickptn", game.id, game.ply, mark))


async def current_game(
    interaction: discord.Interaction, game_id: int, ply: int, position: str
) -> GameView:
    """The game, if it still stands where the picker (or board) saw it and the presser is to move;
    else the reason why not, as a refusal."""
    game = await table_of(interaction).services.games.get(game_id)
    require_active(game)
    game.color_of(interaction.user.id)
    if game.ply != ply or position_mark(game.tps) != position:
        raise PositionChanged(game.id, ply, game.ply)
    if game.player_to_move.id != interaction.user.id:
        raise NotYourTurn(game.id)
    return game


async def show_step(
    interaction: discord.Interaction, game_id: int, ply: int, mark: str, chosen: str
) -> None:
    """Show the picker after `chosen` on the pressed message: the next choices, or the preview
    of a complete move with Confirm."""
    await interaction.response.defer()
    if re.fullmatch(_STEPS, chosen) is None:
        raise StaleChoice
    game = await current_game(interaction, game_id, ply, mark)
    table = table_of(interaction)
    position = await table.services.games.position(game_id)
    move = steps_move(chosen)
    if move is None or not position.is_legal(move):
        view = picker_view(game, chosen, position)  # first: a forged step is refused here
        await interaction.edit_original_response(
            content=picker_text(game, chosen, position), view=view, attachments=[]
        )
        return
    after = position.copy()
    after.play(move)
    preview = await table.board_file(game, after, viewer_id=interaction.user.id)
    view = discord.ui.View(timeout=None)
    view.add_item(PickerButton("pickok", game.id, game.ply, mark, chosen))
    _add_buttons(view, game, chosen)
    await interaction.edit_original_response(
        content=f"Play **{move.ptn()}** in game #{game.id}? {describe(chosen, position)}. "
        "The board after it:",
        view=view,
        attachments=[preview],
    )


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=f"bredon:pick:{_PICKER}"):
    """The picker's select: each option's value is the steps chosen with it."""

    def __init__(
        self, game_id: int, ply: int, position: str, options: list[discord.SelectOption]
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"bredon:pick:{game_id}:{ply}:{position}",
                placeholder="Choose…",
                options=options,
            )
        )
        self.game_id, self.ply, self.position = game_id, ply, position

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["game"]), int(match["ply"]), match["position"], options)

    async def callback(self, interaction: discord.Interaction) -> None:
        [chosen] = self.item.values
        step = show_step(interaction, self.game_id, self.ply, self.position, chosen)
        await pressed(interaction, "the move picker", self.game_id, step)


class PickerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=f"bredon:(?P<kind>pick0|pickptn|pickok):{_PICKER}(?::(?P<steps>{_STEPS}))?",
):
    """The picker's buttons: Start over (``pick0``), Type PTN (``pickptn``, the form), and
    Confirm (``pickok``, with the move's steps), which plays the previewed move for the position
    the picker was opened on only."""

    def __init__(self, kind: str, game_id: int, ply: int, position: str, steps: str = "") -> None:
        move = steps_move(steps)
        label, style = {
            "pick0": ("Start over", discord.ButtonStyle.secondary),
            "pickptn": ("Type PTN", discord.ButtonStyle.secondary),
            "pickok": (f"Confirm {move.ptn() if move else ''}", discord.ButtonStyle.success),
        }[kind]
        tail = f":{steps}" if kind == "pickok" else ""
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"bredon:{kind}:{game_id}:{ply}:{position}{tail}",
            )
        )
        self.kind, self.game_id, self.ply, self.position = kind, game_id, ply, position
        self.move = move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickerButton:
        game_id, ply = int(match["game"]), int(match["ply"])
        return cls(match["kind"], game_id, ply, match["position"], match["steps"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "pickptn":
            opened = self.open_form(interaction)
            await pressed(interaction, "the Type PTN button", self.game_id, opened)
            return
        if self.kind == "pickok":
            acted = self.confirm(interaction)
        else:
            acted = show_step(interaction, self.game_id, self.ply, self.position, "")
        await pressed(interaction, "the move picker", self.game_id, acted)

    async def open_form(self, interaction: discord.Interaction) -> None:
        """The form must be the first answer, so nothing is acknowledged before it."""
        game = await current_game(interaction, self.game_id, self.ply, self.position)
        legal = await table_of(interaction).services.games.legal_moves(game.id)
        await interaction.response.send_modal(MoveForm(game, legal))

    async def confirm(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        if self.move is None:
            raise StaleChoice
        reply = await play_move(
            interaction, self.game_id, self.move.ptn(), ply=self.ply, mark=self.position
        )
        await interaction.edit_original_response(
            content=reply.text, view=reply.view, attachments=[]
        )


PICKER_ITEMS = (PickSelect, PickerButton)


@on_move_press
async def open_picker(interaction: discord.Interaction, game_id: int, ply: int, mark: str) -> None:
    """Only the player to move, on the board of the current position, gets a picker (privately)."""
    game = await current_game(interaction, game_id, ply, mark)
    position = await table_of(interaction).services.games.position(game_id)
    await interaction.response.send_message(
        picker_text(game, "", position), view=picker_view(game, "", position), ephemeral=True
    )
