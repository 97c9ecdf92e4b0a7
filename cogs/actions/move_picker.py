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

The same steps pick a conditional move (`/game conditions add` without lines): while the
opponent is to move, their reply first, then the answer in the position after it; both complete,
the board after them is previewed with an Add button that keeps the line
(:mod:`bot.games.conditions`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.errors import BredonError, IllegalMove, NotYourTurn, PositionChanged
from bot.games.model import GameView
from bot.languages import _
from bot.play.service import position_mark, require_active
from cogs.actions.presses import MoveForm, play_move, table_of
from cogs.components.buttons import on_move_press, pressed
from cogs.words import game_messages
from cogs.words.formatting import display
from tak import Move, Placement, Position, Spread
from tak.moves import FILES, Direction, Piece

MAX_OPTIONS = 25  # Discord's limit on a select's options
_ORDER = FILES + "12345678" + "FSC" + "+-<>"  # placements before stack moves
_PIECE_STEPS = {"F": Piece.FLAT, "S": Piece.WALL, "C": Piece.CAP}


def _direction_name(direction: Direction) -> str:
    return {
        Direction.UP: _("up"),
        Direction.DOWN: _("down"),
        Direction.RIGHT: _("right"),
        Direction.LEFT: _("left"),
    }[direction]


# The steps a picker button carries in its custom_id (squares, a piece, directions, drops),
# shared by the move picker and the puzzle picker.
PICKED_STEPS = r"[a-h1-8FSC+<>\-]{0,12}"
_PICKER = r"(?P<game>\d+):(?P<ply>\d+):(?P<position>[0-9a-f]{8})"


class StaleChoice(BredonError):
    """A step that leads to no legal move (a forged or outdated component)."""

    def __init__(self) -> None:
        super().__init__(
            _("That choice leads to no legal move here: press the board's Move again.")
        )


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
        fields = {"move": move.ptn(), "square": move.square}
        return {
            Piece.FLAT: _("{move}: place a flat on {square}", **fields),
            Piece.WALL: _("{move}: place a wall (standing stone) on {square}", **fields),
            Piece.CAP: _("{move}: place a capstone on {square}", **fields),
        }[move.piece]
    if isinstance(move, Spread):
        landing = ", ".join(
            _("{count} on {square}", count=drop, square=f"{FILES[file]}{rank + 1}")
            for drop, (file, rank) in zip(move.drops, move.path(), strict=True)
        )
        return _(
            "{move}: carry {count} {direction}, {landing}",
            move=move.ptn(),
            count=move.count,
            direction=_direction_name(move.direction),
            landing=landing,
        )
    if len(steps) == 1:
        return _("Squares on the {file} file", file=steps)
    square = steps[:2]
    if len(steps) == 2:
        stack = position.stack(FILES.index(steps[0]), int(steps[1]) - 1)
        if not stack.colors:
            return _("{square}: empty, place a piece", square=square)
        height = len(stack.colors)
        if stack.colors[-1] == 0:
            return _("{square}: stack of {height}, white on top", square=square, height=height)
        return _("{square}: stack of {height}, black on top", square=square, height=height)
    direction = _direction_name(Direction(steps[2]))
    if len(steps) >= 5:
        return _(
            "{square}: move {direction}, carrying {count}, dropping {drops}, then more",
            square=square,
            direction=direction,
            count=steps[3],
            drops=", ".join(steps[4:]),
        )
    if len(steps) == 4:
        return _(
            "{square}: move {direction}, carrying {count}",
            square=square,
            direction=direction,
            count=steps[3],
        )
    return _("{square}: move {direction}", square=square, direction=direction)


def picker_text(game: GameView, chosen: str, position: Position) -> str:
    text = _("Your move in game #{game}: choose it below, step by step.", game=game.id)
    return text + so_far_text(chosen, position)


def so_far_text(chosen: str, position: Position) -> str:
    """The steps chosen so far, after a picker's question (nothing before the first)."""
    return " " + _("So far: {steps}.", steps=describe(chosen, position)) if chosen else ""


def picker_view(game: GameView, chosen: str, position: Position) -> discord.ui.View:
    """The select of the next steps after `chosen`, with Start over and Type PTN."""
    view = discord.ui.View(timeout=None)
    options = _options(position, chosen)
    view.add_item(PickSelect(game.id, game.ply, position_mark(game.tps), options))
    _add_buttons(view, game, chosen)
    return view


def _options(position: Position, chosen: str) -> list[discord.SelectOption]:
    """The next steps after `chosen` among the legal moves of `position`, described."""
    return [
        discord.SelectOption(label=describe(steps, position)[:100], value=steps)
        for steps in next_choices(position.legal_moves(), chosen)
    ]


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
    game = await _game_as_seen(interaction, game_id, ply, position)
    if game.player_to_move.id != interaction.user.id:
        raise NotYourTurn(game.id)
    return game


async def _game_as_seen(
    interaction: discord.Interaction, game_id: int, ply: int, position: str
) -> GameView:
    """The game, if it is going on, the presser plays in it, and it still stands where the
    picker saw it."""
    game = await table_of(interaction).services.games.get(game_id)
    require_active(game)
    game.color_of(interaction.user.id)
    if game.ply != ply or position_mark(game.tps) != position:
        raise PositionChanged(game.id, ply, game.ply)
    return game


async def show_step(
    interaction: discord.Interaction, game_id: int, ply: int, mark: str, chosen: str
) -> None:
    """Show the picker after `chosen` on the pressed message: the next choices, or the preview
    of a complete move with Confirm."""
    await interaction.response.defer()
    if re.fullmatch(PICKED_STEPS, chosen) is None:
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
        content=_(
            "Play **{move}** in game #{game}? {steps}. The board after it:",
            move=move.ptn(),
            game=game.id,
            steps=describe(chosen, position),
        ),
        view=view,
        attachments=[preview],
    )


def _select(state: str, options: list[discord.SelectOption]) -> discord.ui.Select[Any]:
    """A picker's select, with its `state` (kind, game, ply, mark, steps) in its custom_id."""
    return discord.ui.Select(custom_id=f"bredon:{state}", placeholder=_("Choose…"), options=options)


def _button(label: str, style: discord.ButtonStyle, state: str) -> discord.ui.Button[Any]:
    """A picker's button, with its `state` in its custom_id."""
    return discord.ui.Button(label=label, style=style, custom_id=f"bredon:{state}")


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=f"bredon:pick:{_PICKER}"):
    """The picker's select: each option's value is the steps chosen with it."""

    def __init__(
        self, game_id: int, ply: int, position: str, options: list[discord.SelectOption]
    ) -> None:
        super().__init__(_select(f"pick:{game_id}:{ply}:{position}", options))
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
    template=f"bredon:(?P<kind>pick0|pickptn|pickok):{_PICKER}(?::(?P<steps>{PICKED_STEPS}))?",
):
    """The picker's buttons: Start over (``pick0``), Type PTN (``pickptn``, the form), and
    Confirm (``pickok``, with the move's steps), which plays the previewed move for the position
    the picker was opened on only."""

    def __init__(self, kind: str, game_id: int, ply: int, position: str, steps: str = "") -> None:
        move = steps_move(steps)
        label, style = {
            "pick0": (_("Start over"), discord.ButtonStyle.secondary),
            "pickptn": (_("Type PTN"), discord.ButtonStyle.secondary),
            "pickok": (
                _("Confirm {move}", move=move.ptn() if move else ""),
                discord.ButtonStyle.success,
            ),
        }[kind]
        tail = f":{steps}" if kind == "pickok" else ""
        super().__init__(_button(label, style, f"{kind}:{game_id}:{ply}:{position}{tail}"))
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


# ----------------------------------------------------------------- conditional moves


def condition_picker(game: GameView, position: Position) -> tuple[str, discord.ui.View]:
    """The conditional-move picker as it opens: the opponent's reply to choose."""
    return _condition_step(game, position, "", "")


def _condition_step(
    game: GameView, position: Position, reply: str, chosen: str
) -> tuple[str, discord.ui.View]:
    """The picker's text and view with the reply's steps `reply` fixed (or none yet) and the
    steps `chosen` after it: the next choices of the reply, or of the answer on `position`
    (the board after the reply, once it is chosen)."""
    view = discord.ui.View(timeout=None)
    mark = position_mark(game.tps)
    view.add_item(ConditionSelect(game.id, game.ply, mark, reply, _options(position, chosen)))
    if reply or chosen:
        view.add_item(ConditionButton("cpick0", game.id, game.ply, mark))
    opponent = display(game.player_to_move.name)
    move = steps_move(reply)
    if move is None:
        text = _(
            "A conditional move in game #{game}: first the reply of **{opponent}** you foresee.",
            game=game.id,
            opponent=opponent,
        )
    else:
        text = _(
            "If **{opponent}** plays **{move}** in game #{game}, you answer:",
            opponent=opponent,
            move=move.ptn(),
            game=game.id,
        )
    return text + so_far_text(chosen, position), view


async def show_condition_step(
    interaction: discord.Interaction, game_id: int, ply: int, mark: str, reply: str, chosen: str
) -> None:
    """The conditional-move picker after the steps chosen: the opponent's reply (`reply`, while
    incomplete, is what was chosen), then the answer (`chosen`); both complete, the board after
    them with Add."""
    await interaction.response.defer()
    if re.fullmatch(PICKED_STEPS, reply) is None or re.fullmatch(PICKED_STEPS, chosen) is None:
        raise StaleChoice
    game, position, theirs = await _waiting(interaction, game_id, ply, mark, reply)
    if theirs is None or not position.is_legal(theirs):
        text, view = _condition_step(game, position, "", reply)
        await interaction.edit_original_response(content=text, view=view, attachments=[])
        return
    after = position.copy()
    after.play(theirs)
    if after.result is not None:
        raise IllegalMove(theirs.ptn(), _("that reply ends the game: there is nothing to answer"))
    mine = steps_move(chosen)
    if mine is None or not after.is_legal(mine):
        text, view = _condition_step(game, after, reply, chosen)
        await interaction.edit_original_response(content=text, view=view, attachments=[])
        return
    after.play(mine)
    table = table_of(interaction)
    preview = await table.board_file(game, after, viewer_id=interaction.user.id)
    view = discord.ui.View(timeout=None)
    view.add_item(ConditionButton("cpickok", game.id, game.ply, mark, reply, chosen))
    view.add_item(ConditionButton("cpick0", game.id, game.ply, mark))
    opponent = display(game.player_to_move.name)
    await interaction.edit_original_response(
        content=_(
            "If **{opponent}** plays **{theirs}**, Bredon plays **{mine}** for you at once. "
            "The board after both:",
            opponent=opponent,
            theirs=theirs.ptn(),
            mine=mine.ptn(),
        ),
        view=view,
        attachments=[preview],
    )


async def _waiting(
    interaction: discord.Interaction, game_id: int, ply: int, mark: str, reply: str
) -> tuple[GameView, Position, Move | None]:
    """The game, where the presser may enter lines and the picker saw it, its position, and
    the reply the steps `reply` make (None while incomplete)."""
    game = await _game_as_seen(interaction, game_id, ply, mark)
    services = table_of(interaction).services
    await services.conditions.ready(game_id, interaction.user.id)
    return game, await services.games.position(game_id), steps_move(reply)


async def add_condition(
    interaction: discord.Interaction, game_id: int, ply: int, mark: str, reply: str, answer: str
) -> None:
    """Keep the picked reply and answer as a line, for the position the picker was opened on."""
    await interaction.response.defer()
    _, _, theirs = await _waiting(interaction, game_id, ply, mark, reply)
    mine = steps_move(answer)
    if theirs is None or mine is None:
        raise StaleChoice
    kept = await table_of(interaction).services.conditions.add(
        game_id, interaction.user.id, f"{theirs.ptn()} {mine.ptn()}", expected_ply=ply
    )
    await interaction.edit_original_response(
        content=game_messages.conditions_text(kept, added=True), view=None, attachments=[]
    )


class ConditionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=f"bredon:cpick:{_PICKER}:(?P<reply>{PICKED_STEPS})",
):
    """The conditional-move picker's select: the reply's steps while it is chosen (its custom_id
    has none), then, with the reply in its custom_id, the answer's."""

    def __init__(
        self, game_id: int, ply: int, position: str, reply: str, options: list[discord.SelectOption]
    ) -> None:
        super().__init__(_select(f"cpick:{game_id}:{ply}:{position}:{reply}", options))
        self.game_id, self.ply, self.position, self.reply = game_id, ply, position, reply

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConditionSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        game_id, ply = int(match["game"]), int(match["ply"])
        return cls(game_id, ply, match["position"], match["reply"], options)

    async def callback(self, interaction: discord.Interaction) -> None:
        [chosen] = self.item.values
        reply, answer = (self.reply, chosen) if self.reply else (chosen, "")
        step = show_condition_step(
            interaction, self.game_id, self.ply, self.position, reply, answer
        )
        await pressed(interaction, "the conditional move picker", self.game_id, step)


class ConditionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        f"bredon:(?P<kind>cpick0|cpickok):{_PICKER}(?::(?P<reply>{PICKED_STEPS}):(?P<answer>{PICKED_STEPS}))?"
    ),
):
    """The conditional-move picker's buttons: Start over (``cpick0``) and Add (``cpickok``, with
    the reply's and the answer's steps)."""

    def __init__(
        self, kind: str, game_id: int, ply: int, position: str, reply: str = "", answer: str = ""
    ) -> None:
        label, style = {
            "cpick0": (_("Start over"), discord.ButtonStyle.secondary),
            "cpickok": (_("Add this conditional move"), discord.ButtonStyle.success),
        }[kind]
        tail = f":{reply}:{answer}" if kind == "cpickok" else ""
        super().__init__(_button(label, style, f"{kind}:{game_id}:{ply}:{position}{tail}"))
        self.kind, self.game_id, self.ply, self.position = kind, game_id, ply, position
        self.reply, self.answer = reply, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ConditionButton:
        game_id, ply = int(match["game"]), int(match["ply"])
        reply, answer = match["reply"] or "", match["answer"] or ""
        return cls(match["kind"], game_id, ply, match["position"], reply, answer)

    async def callback(self, interaction: discord.Interaction) -> None:
        game_id, ply, mark = self.game_id, self.ply, self.position
        if self.kind == "cpickok":
            acted = add_condition(interaction, game_id, ply, mark, self.reply, self.answer)
        else:
            acted = show_condition_step(interaction, game_id, ply, mark, "", "")
        await pressed(interaction, "the conditional move picker", game_id, acted)


PICKER_ITEMS = (PickSelect, PickerButton, ConditionSelect, ConditionButton)


@on_move_press
async def open_picker(interaction: discord.Interaction, game_id: int, ply: int, mark: str) -> None:
    """Only the player to move, on the board of the current position, gets a picker (privately)."""
    game = await current_game(interaction, game_id, ply, mark)
    position = await table_of(interaction).services.games.position(game_id)
    await interaction.response.send_message(
        picker_text(game, "", position), view=picker_view(game, "", position), ephemeral=True
    )
