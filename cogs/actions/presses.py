"""What each persistent button does. Every handler runs after the press was acknowledged
(:class:`cogs.components.buttons.ActionButton`), asks a service, then updates the pressed message
and posts what follows in the game's thread. Refusals raised by the services reach the presser
privately.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import discord

from bot.errors import (
    BredonError,
    GameOver,
    NoDrawOffer,
    NoUndoRequest,
)
from bot.games.model import NO_SERVER, ChallengeView, GameView
from bot.languages import _, speaking
from bot.notifications.outbox import challenge_stream, game_stream
from bot.play.service import position_mark, request_key
from bot.text_safety import typed_move
from cogs.arguments import known_here
from cogs.components.buttons import Handler, buttons, move_button, on_give_day_press, on_press
from cogs.delivery.conversations import Answering, guild_of
from cogs.delivery.courier import Courier, courier_of
from cogs.delivery.table import GameTable, Place, is_me
from cogs.interactions import Refusal, acting, apologise, player_of
from cogs.presenters.challenges import post_challenge
from cogs.words import clock_messages, game_messages

log = logging.getLogger(__name__)


MORE_TIME_BUTTON = timedelta(days=1)


def table_of(interaction: discord.Interaction) -> GameTable:
    return courier_of(interaction.client).table


def _courier(interaction: discord.Interaction) -> Courier:
    return courier_of(interaction.client)


async def post_or_withdraw(
    table: GameTable, place: Place | Answering | int, challenge: ChallengeView
) -> discord.Message:
    """Post a new challenge (in `place`, or the channel of that id); if Discord refuses, withdraw
    it, so that no challenge stands that nobody can see or accept."""
    try:
        where = await table.channel(place) if isinstance(place, int) else place
        return await post_challenge(table, where, challenge)
    except discord.HTTPException as error:
        log.warning("Challenge %s could not be posted (%s); withdrawn.", challenge.id, error)
        await table.services.challenges.cancel(challenge.id, challenge.challenger.id)
        raise Refusal(
            _(
                "I couldn't post the challenge here (Discord said: {error}), so it was "
                "withdrawn. Please try again, or in another channel.",
                error=error.text or error.status,
            )
        ) from None


def announce_to_me(client: discord.Client, challenge: ChallengeView) -> None:
    """A challenge posted to the bot itself (a challenge, a rematch): the bot player
    (:mod:`cogs.commands.tak_play`) accepts it now, not at its next look at the database minutes
    later."""
    if challenge.opponent is not None and is_me(client, challenge.opponent.id):
        client.dispatch("bot_challenged")


async def settle_message(interaction: discord.Interaction, text: str) -> None:
    """Replace the pressed message's text and take its buttons away."""
    await interaction.edit_original_response(content=text, view=None)


async def settle_offer(interaction: discord.Interaction, word: Callable[[str], str]) -> None:
    """Settle an offer's message with `word` (given the presser's mention): in the server's
    language where the offer was posted in a server, for everyone reads it there."""
    mention = interaction.user.mention
    guild_id = guild_of(interaction)
    if guild_id == NO_SERVER:
        await settle_message(interaction, word(mention))
        return
    with speaking(await table_of(interaction).server_language(guild_id)):
        text = word(mention)
    await settle_message(interaction, text)


def lapses(handler: Handler) -> Handler:
    """An answer to an offer that is gone (a move or an answer came first): the offer's
    message loses its buttons, and the presser is told why."""

    async def answering(interaction: discord.Interaction, game_id: int) -> None:
        try:
            await handler(interaction, game_id)
        except (NoDrawOffer, NoUndoRequest, GameOver):
            if interaction.message is not None:
                content = interaction.message.content

                def lapsed(_mention: str) -> str:  # in the server's language: a public post
                    note = _("This has lapsed.")
                    return f"{content}\n*{note}*"[:2000]

                await settle_offer(interaction, lapsed)
            raise

    return answering


@on_press("accept")
async def accept_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    table = table_of(interaction)
    accepted = await table.services.challenges.accept(challenge_id, player_of(interaction.user))
    courier = _courier(interaction)
    await courier.deliver_stream(challenge_stream(challenge_id))  # with the bidding, for stakes
    if accepted.game is not None:
        await courier.deliver_stream(game_stream(accepted.game.id))


@on_press("decline")
async def decline_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    await table_of(interaction).services.challenges.decline(challenge_id, interaction.user.id)
    await _courier(interaction).deliver_stream(challenge_stream(challenge_id))


@on_press("cancel")
async def cancel_challenge(interaction: discord.Interaction, challenge_id: int) -> None:
    await table_of(interaction).services.challenges.cancel(challenge_id, interaction.user.id)
    await _courier(interaction).deliver_stream(challenge_stream(challenge_id))


@on_press("draw-yes")
@lapses
async def accept_draw(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    await table.services.games.accept_draw(game_id, interaction.user.id)
    await _courier(interaction).deliver_stream(game_stream(game_id))
    await settle_offer(interaction, lambda who: _("{player} accepted the draw offer.", player=who))


@on_press("draw-no")
@lapses
async def decline_draw(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_draw(game_id, interaction.user.id)
    await settle_offer(
        interaction, lambda who: _("{player} declined the draw offer; play goes on.", player=who)
    )


@on_press("undo-yes")
@lapses
async def accept_undo(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.accept_undo(game_id, interaction.user.id)
    await _courier(interaction).deliver_stream(game_stream(game_id))
    await settle_offer(interaction, lambda who: _("{player} allowed the undo.", player=who))


@on_press("undo-no")
@lapses
async def decline_undo(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.games.decline_undo(game_id, interaction.user.id)
    await settle_offer(interaction, lambda who: _("{player} refused the undo.", player=who))


@on_press("resign")
async def resign(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    await table.services.games.resign(game_id, interaction.user.id)
    await _courier(interaction).deliver_stream(game_stream(game_id))
    await settle_message(interaction, _("You resigned game #{game}.", game=game_id))


@on_press("rematch")
async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    table = table_of(interaction)
    challenge = await table.services.challenges.rematch(game_id, player_of(interaction.user))
    message = await post_or_withdraw(table, challenge.channel_id, challenge)
    announce_to_me(interaction.client, challenge)
    await interaction.followup.send(
        _("Rematch offered: {link}", link=message.jump_url), ephemeral=True
    )


@on_press("pause-yes")
async def accept_pause(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.holds.accept_pause(game_id, interaction.user.id)
    await _courier(interaction).deliver_stream(game_stream(game_id))
    await settle_offer(interaction, lambda who: _("{player} agreed to pause the game.", player=who))


@on_press("pause-no")
async def decline_pause(interaction: discord.Interaction, game_id: int) -> None:
    await table_of(interaction).services.holds.decline_pause(game_id, interaction.user.id)
    await settle_offer(interaction, lambda who: _("{player} prefers to keep playing.", player=who))


@on_give_day_press
async def give_a_day(interaction: discord.Interaction, game_id: int, board_ply: int | None) -> None:
    """The player waiting gives the player to move a day (the services refuse anyone else),
    once a turn, on the turn the board shows (None on boards posted before boards said)."""
    game = await table_of(interaction).services.holds.give_time(
        game_id, interaction.user.id, MORE_TIME_BUTTON, board_ply=board_ply
    )
    await _courier(interaction).deliver_stream(game_stream(game_id))
    await interaction.followup.send(
        _(
            "{gave} in game #{game}.",
            gave=clock_messages.gave_time_text(game, MORE_TIME_BUTTON),
            game=game_id,
        ),
        ephemeral=True,
    )


@on_press("moretime")
async def give_a_day_on_an_older_board(interaction: discord.Interaction, game_id: int) -> None:
    await give_a_day(interaction, game_id, None)


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What the mover is told: the move, and the next game awaiting them here if any (with a
    button to it), as correspondence sites offer after a move."""

    text: str
    view: discord.ui.View | None = None


async def play_move(
    interaction: discord.Interaction, game_id: int, text: str, *, ply: int, mark: str
) -> Confirmation:
    """Play `text` for the user, only in the position they chose it for (its ply and
    :func:`~bot.play.service.position_mark`), post what follows, and return what to tell them."""
    courier = _courier(interaction)
    outcome = await courier.table.services.games.move(
        game_id,
        interaction.user.id,
        text,
        expected_ply=ply,
        expected_mark=mark,
        key=request_key(interaction.user.id, game_id, ply, mark, text),
    )
    report = await courier.deliver_stream(game_stream(game_id))
    played = (
        game_messages.already_played(outcome)
        if outcome.repeated
        else report.reply(*game_messages.you_played(outcome))
    )
    return await with_next_game(interaction, game_id, played)


async def with_next_game(
    interaction: discord.Interaction, just_played: int, text: str
) -> Confirmation:
    """`text`, and then the next game in this server awaiting the user's move (the soonest
    deadline first, the one just played last), with a Next game button; `text` alone if there
    is none."""
    services = _courier(interaction).table.services
    try:
        games = await services.lookup.games_for_player(
            interaction.user.id, guild_id=guild_of(interaction)
        )
        games = [game for game in games if known_here(interaction, game)]
    except BredonError:  # the move is in: a failed look for the next game must not hide it
        return Confirmation(text)
    # The game just played counts when it awaits the user again (a conditional move answered
    # it), but another comes first.
    waiting = [g for g in games if g.player_to_move.id == interaction.user.id and g.is_active]
    waiting.sort(key=lambda g: g.id == just_played)
    if not waiting:
        return Confirmation(text)
    line = game_messages.next_game_line(waiting[0], len(waiting))
    return Confirmation(f"{text}\n{line}" if text else line, buttons(("next", waiting[0].id)))


@on_press("next")
async def show_next_game(interaction: discord.Interaction, game_id: int) -> None:
    """The game's board, privately, with its Move button if it is still the presser's move."""
    table = _courier(interaction).table
    game = await table.services.games.get(game_id)
    game.color_of(interaction.user.id)  # refuses anyone but its players (the button is theirs)
    position = await table.services.games.position(game_id)
    file = await table.board_file(game, position, viewer_id=interaction.user.id)
    mine = game.is_active and game.player_to_move.id == interaction.user.id
    await interaction.followup.send(
        game_messages.game_line(game, interaction.user.id),
        file=file,
        view=move_button(game) if mine else discord.utils.MISSING,
        ephemeral=True,
    )


FEW_MOVES = 8  # the form lists the legal moves when there are no more than this


class MoveForm(discord.ui.Modal):
    """The form behind the move picker's Type PTN button: one field for the move, with the
    legal moves listed when there are few, or a reminder of how PTN writes moves."""

    def __init__(self, game: GameView, legal: list[str]) -> None:
        title = _("Your move in game #{game}", game=game.id)
        super().__init__(title=title[:45], timeout=15 * 60)
        self.game_id = game.id
        self.ply = game.ply
        self.mark = position_mark(game.tps)
        hint = (
            _("Legal: {moves}", moves=", ".join(legal))
            if len(legal) <= FEW_MOVES
            else _("e.g. c3, Sb2 (wall), Cc3 (capstone), c3> or 3c3+12 (spread)")
        )
        self.move: discord.ui.TextInput[MoveForm] = discord.ui.TextInput(
            label=_("Move (PTN)"), placeholder=hint[:100], custom_id="move", max_length=32
        )
        self.add_item(self.move)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async with acting(interaction):
            text = typed_move(self.move.value)
            reply = await play_move(interaction, self.game_id, text, ply=self.ply, mark=self.mark)
            await interaction.followup.send(
                reply.text, view=reply.view or discord.utils.MISSING, ephemeral=True
            )

    async def on_error(  # type: ignore[override]  # as discord.py's Modal narrows it
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await apologise(interaction, error, "the move form", self.game_id)
