"""`/tak`: playing a game (challenge, move with its suggestions, board, resign, draw, undo, abort,
games, help) and the moves typed in a game's thread; `/tak play` is with the bot player, in
:mod:`cogs.commands.tak_play`. Thin adapters from Discord to the services (the commands' names and
groups are declared in :mod:`cogs.commands.tree`).

Each command acknowledges at once (privately), asks a service, and lets :class:`GameTable` post
what the channel should see; refusals come back from the services as :class:`BredonError` and
are shown to the user as they are (:func:`cogs.interactions.acting`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.coins.service import MAX_COINS
from bot.computer.opponent import DEFAULT_LEVEL
from bot.errors import BredonError
from bot.games.lookup import Listing
from bot.games.model import MAX_MATCH_GAMES, GamePlace, GameRequest, GameView
from bot.languages import _, speaking
from bot.notifications.outbox import game_stream
from bot.play.service import position_mark, request_key, require_active
from bot.text_safety import one_line, typed_move
from bot.timekeeping.control import clock_options
from cogs.actions.presses import announce_to_me, post_or_withdraw, with_next_game
from cogs.arguments import (
    BoardSize,
    Colour,
    Days,
    Game,
    Komi,
    Text,
    Turn,
    find_game,
)
from cogs.checks import check_place, only_own_outside_servers, refuse_asking_me
from cogs.client import BredonBot
from cogs.components.buttons import buttons
from cogs.components.game_list import listing_page
from cogs.delivery.conversations import guild_of, place_of
from cogs.delivery.courier import Courier
from cogs.delivery.sharing import answer, wording_for
from cogs.interactions import Refusal, acting, apologise, person_language, player_of, services_of
from cogs.words import game_messages
from cogs.words.formatting import display
from tak import PTNError, parse_move
from tak.tps import MAX_TPS_LENGTH


@dataclass(frozen=True, slots=True)
class SuggestedMove:
    """A move as suggested by autocompletion: it carries the game, the ply and the mark of the
    position it was suggested for (``c3@12.7.9f3a01c2``, see
    :func:`~bot.play.service.position_mark`), so a stale or re-sent suggestion never lands in
    another position, even one reached again at the same ply after an undo."""

    move: str
    game_id: int
    ply: int
    position: str  # the position's mark

    @classmethod
    def for_game(cls, move: str, game: GameView) -> SuggestedMove:
        return cls(move, game.id, game.ply, position_mark(game.tps))

    @property
    def value(self) -> str:
        return f"{self.move}@{self.game_id}.{self.ply}.{self.position}"

    @classmethod
    def parse(cls, value: str) -> SuggestedMove | None:
        found = _SUGGESTED.fullmatch(value.strip())
        if found is None:
            return None
        return cls(found["move"], int(found["game"]), int(found["ply"]), found["position"])


_SUGGESTED = re.compile(
    r"(?P<move>[^@\s]{1,32})@(?P<game>\d{1,18})\.(?P<ply>\d{1,6})\.(?P<position>[0-9a-f]{8})"
)


class MoveArgument(Text):
    """A move, suggested from the legal moves of the caller's game that start with what was
    typed; each suggestion carries the game and the ply it was made for, so that it only ever
    applies there."""

    async def suggest(
        self, interaction: discord.Interaction, typed: str
    ) -> list[app_commands.Choice[str]]:
        try:
            target = await find_game(
                interaction, interaction.namespace.game, as_player=True, turn="mine"
            )
            legal = await services_of(interaction).games.legal_moves(target.id)
        except BredonError:
            return []
        return [
            app_commands.Choice(name=text, value=SuggestedMove.for_game(text, target).value)
            for text in suggested_moves(legal, typed_move(typed))
        ]


MAX_SUGGESTIONS = 25  # Discord shows no more


def suggested_moves(legal: list[str], typed: str) -> list[str]:
    """The legal moves that start with what was typed (in any case), as the typing reads best:
    the move typed in full first, then those whose first letter is the one typed (``c`` lists
    the c file's moves before the capstone placements ``Ca1``...), shorter before longer; at most
    25, so any legal move shows once typed far enough."""
    start = typed.lower()

    def order(text: str) -> tuple[bool, bool, int, str]:
        return text.lower() != start, bool(typed) and text[0] != typed[0], len(text), text

    found = [text for text in legal if text.lower().startswith(start)]
    return sorted(found, key=order)[:MAX_SUGGESTIONS]


Move = app_commands.Transform[str, MoveArgument]


@dataclass(frozen=True, slots=True)
class ChallengeOptions:
    """What `/tak challenge` was asked: the game (the custom rules' form adds to it), who to
    play and how."""

    request: GameRequest
    opponent: discord.Member | discord.User | None
    color: str
    games: int
    stakes: bool
    ante: int | None


class CustomRules(discord.ui.Modal):
    """The second step of `/tak challenge custom:True`: the rules a player rarely changes,
    written as Tak players write them (pieces as stones/capstones, ``21/1``; a bank or an
    increment as ``bank 7d`` or ``+1d max 10d``; the start as a TPS or opening moves); the
    challenge is then made with these and the first step's options. Every limit is checked by
    the game's setup (:meth:`bot.games.model.GameSetup.create`)."""

    def __init__(self, cog: TakCog, asked: ChallengeOptions) -> None:
        super().__init__(title=_("Custom rules"), timeout=15 * 60)
        self.cog, self.asked = cog, asked
        fields = (
            (
                "pieces",
                _("Pieces: stones/capstones"),
                _("21/1 for both, or 21/1 20/1: white, black"),
                20,
            ),
            (
                "rules",
                _("Opening and tie rule"),
                _("swap or no-swap; antiquity or no-antiquity"),
                40,
            ),
            (
                "clock",
                _("Time control besides the days"),
                _("bank 7d, or +1d (an increment) max 10d"),
                40,
            ),
            (
                "start",
                _("Start position: a TPS, or opening moves"),
                _("x5/x5/x2,1,x2/x5/x5 2 1, or a1 e5"),
                MAX_TPS_LENGTH,
            ),
        )
        self.inputs: dict[str, discord.ui.TextInput[CustomRules]] = {}
        for name, label, placeholder, longest in fields:
            self.inputs[name] = discord.ui.TextInput(
                label=label[:45],
                placeholder=placeholder[:100],
                custom_id=name,
                required=False,
                max_length=longest,
            )
            self.add_item(self.inputs[name])

    async def on_submit(self, interaction: discord.Interaction) -> None:
        async with acting(interaction):
            text = {name: field.value.strip() for name, field in self.inputs.items()}
            request = replace(self.asked.request, start=text["start"] or None)
            request = with_pieces(request, text["pieces"])
            request = with_clock(with_rules(request, text["rules"]), text["clock"])
            await self.cog.post_challenge(interaction, replace(self.asked, request=request))

    async def on_error(  # type: ignore[override]  # as discord.py's Modal narrows it
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await apologise(interaction, error, "the custom rules form")


_PIECES = re.compile(r"(\d{1,4})\s*/\s*(\d{1,4})(?:[\s,;]+(\d{1,4})\s*/\s*(\d{1,4}))?")


def with_pieces(request: GameRequest, text: str) -> GameRequest:
    """Stones and capstones as written: ``21/1`` (both players), or ``21/1 20/1`` (white's,
    then black's); none given: the size's standard."""
    if not text:
        return request
    found = _PIECES.fullmatch(text)
    if found is None:
        raise Refusal(
            _(
                "Write the pieces as stones/capstones, e.g. 21/1, or white's then black's: "
                "21/1 20/1."
            )
        )
    stones, caps, black_stones, black_caps = (
        None if number is None else int(number) for number in found.groups()
    )
    return replace(
        request, stones=stones, caps=caps, black_stones=black_stones, black_caps=black_caps
    )


def with_rules(request: GameRequest, text: str) -> GameRequest:
    """The opening (``swap``, the standard, or ``no-swap``) and the tie rule (``antiquity`` or
    ``no-antiquity``; none given: the server's)."""
    for word in text.lower().replace(",", " ").replace(";", " ").split():
        if word in ("swap", "no-swap"):
            request = replace(request, opening=word)
        elif word in ("antiquity", "no-antiquity"):
            request = replace(request, antiquity=word == "antiquity")
        else:
            raise Refusal(
                _(
                    "The opening is swap or no-swap, the tie rule antiquity or no-antiquity "
                    "(not {word}).",
                    word=one_line(word),
                )
            )
    return request


def with_clock(request: GameRequest, text: str) -> GameRequest:
    """A bank (``bank 7d``), or an increment (``+1d``) with its maximum (``max 10d``), as
    durations (checked with the game's setup)."""
    spans: dict[str, str] = {}
    words = text.lower().replace(",", " ").split()
    while words:
        word = words.pop(0)
        if word in ("bank", "max") and words:
            spans[word] = words.pop(0)
        elif word.startswith("+") and (word[1:] or words):
            spans["increment"] = word[1:] or words.pop(0)
        else:
            raise Refusal(
                _(
                    "Write the time control as a bank, e.g. bank 7d, or an increment with its "
                    "maximum if you like: +1d max 10d."
                )
            )
    return replace(
        request, **clock_options(spans.get("bank"), spans.get("increment"), spans.get("max"))
    )


class TakCog(commands.Cog):
    """Challenges, moves, boards, offers and your games list: the bodies of `/tak` (their names
    and groups are declared in :mod:`cogs.commands.tree`), and the moves typed in threads."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.bot = bot
        self.services = bot.services
        self.courier = courier
        self.table = courier.table

    # ----------------------------------------------------------------- challenges

    @app_commands.describe(
        opponent="Who to play; leave out for an open challenge anyone may accept",
        days="Days each player has for a move (default: the server's)",
        games="Games in the match, colours alternating (default 1)",
        rated="Whether the game counts for the ratings (default yes; a game from a TPS: never)",
        stakes="Play for coins, if the server allows it: antes, bids for first, Tak payments",
        ante="Coins each player puts in the pot (default: the server's, usually 10)",
        custom="Set custom rules in a second step: pieces, opening, tie rule, clock, start",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member | discord.User | None = None,
        size: BoardSize | None = None,
        komi: Komi | None = None,
        color: Colour = "random",
        days: Days | None = None,
        games: app_commands.Range[int, 1, MAX_MATCH_GAMES] = 1,
        rated: bool | None = None,
        stakes: bool = False,
        ante: app_commands.Range[int, 1, MAX_COINS] | None = None,
        custom: bool = False,
    ) -> None:
        """Challenge someone (or anyone) to a game of Tak"""
        asked = ChallengeOptions(
            GameRequest(size=size, komi=komi, days_per_move=days, rated=rated),
            opponent,
            color,
            games,
            stakes,
            ante,
        )
        if custom:  # the rules a player rarely changes, in a form
            with speaking(await person_language(interaction)):
                form = CustomRules(self, asked)
            await interaction.response.send_modal(form)
            return
        async with acting(interaction):
            await self.post_challenge(interaction, asked)

    async def post_challenge(
        self, interaction: discord.Interaction, asked: ChallengeOptions
    ) -> None:
        """Post the challenge `asked` for (to Bredon itself: its service takes it), and tell
        the challenger where it is."""
        opponent, stakes, ante = asked.opponent, asked.stakes, asked.ante
        me = interaction.client.user
        against_me = me is not None and opponent == me
        in_server = place_of(interaction) is GamePlace.SERVER
        if in_server and opponent is not None and not isinstance(opponent, discord.Member):
            # Someone who left (a pasted ID or mention resolves them); elsewhere a user is all
            # Discord sends.
            raise Refusal(_("That user is not a member of this server."))
        if opponent is not None and opponent.bot and not against_me:
            raise Refusal(_("Bots cannot play Tak here: challenge a person."))
        if against_me and (stakes or ante is not None):
            raise Refusal(_("I don't play for coins: challenge me without stakes."))
        settings = await self.services.guilds.get(guild_of(interaction))
        place = await check_place(interaction, settings.use_threads)
        if me is not None and against_me:
            challenge = await self.services.opponent.challenge(
                guild_id=guild_of(interaction),
                channel_id=interaction.channel_id or 0,
                player=player_of(interaction.user),
                bot=player_of(me),
                level=DEFAULT_LEVEL,
                request=asked.request,
                defaults=settings,
                colour=asked.color,
                games=asked.games,
                fair_use=self.bot.settings.fair_use,
                place=place_of(interaction),
            )
        else:
            challenge = await self.services.challenges.create(
                guild_id=guild_of(interaction),
                channel_id=interaction.channel_id or 0,
                challenger=player_of(interaction.user),
                opponent=None if opponent is None else player_of(opponent),
                setup=settings.game_setup(asked.request),
                colour=asked.color,
                games=asked.games,
                stakes=stakes,
                ante=ante,
                place=place_of(interaction),
            )
        message = await post_or_withdraw(self.table, place, challenge)
        announce_to_me(self.bot, challenge)
        await interaction.followup.send(
            _(
                "Challenge #{challenge} is up: {link}",
                challenge=challenge.id,
                link=message.jump_url,
            ),
            ephemeral=True,
        )

    # ----------------------------------------------------------------- playing

    @app_commands.describe(
        ptn="The move, e.g. a1, Sb2 (wall), Cc3 (capstone), c3> or 3c3+12",
        game="The game number (default: this thread's game, your only one, or one awaiting you)",
    )
    async def move(
        self, interaction: discord.Interaction, ptn: Move, game: Game | None = None
    ) -> None:
        """Play a move in PTN (start typing for the legal moves)"""
        async with acting(interaction):
            chosen = SuggestedMove.parse(ptn)
            target = await find_game(
                interaction, chosen.game_id if chosen else game, as_player=True, turn="mine"
            )
            text = chosen.move if chosen else typed_move(ptn)
            outcome = await self.services.games.move(
                target.id,
                interaction.user.id,
                text,
                expected_ply=chosen.ply if chosen else None,
                expected_mark=chosen.position if chosen else None,
                key=(
                    request_key(interaction.user.id, target.id, chosen.ply, chosen.position, text)
                    if chosen
                    else f"interaction:{interaction.id}"
                ),
            )
            report = await self.courier.deliver_stream(game_stream(target.id))
            if outcome.repeated:
                played = game_messages.already_played(outcome)
            elif report.posted_in(interaction.channel_id):
                played = ""  # the post in front of the mover says it
            else:
                played = report.reply(*game_messages.you_played(outcome))
            reply = await with_next_game(interaction, target.id, played)
            if not reply.text:  # nothing to add to the post: no second message
                await interaction.delete_original_response()
                return
            await interaction.followup.send(
                reply.text, view=reply.view or discord.utils.MISSING, ephemeral=True
            )

    async def resign(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Resign a game (you will be asked to confirm)"""
        async with acting(interaction):
            target = await find_game(interaction, game, as_player=True)
            require_active(target)
            opponent = target.opponent_of(interaction.user.id)
            await interaction.followup.send(
                _(
                    "Resign game #{game} against {opponent}? This cannot be undone.",
                    game=target.id,
                    opponent=display(opponent.name),
                ),
                view=buttons(("resign", target.id)),
                ephemeral=True,
            )

    async def draw(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Offer your opponent a draw"""
        await self._ask(interaction, game, "draw")

    @app_commands.describe(
        game="The game number (default: this thread's game, or your only one you just moved in)"
    )
    async def undo(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Ask your opponent to take back the last move"""
        await self._ask(interaction, game, "undo")

    async def _ask(
        self,
        interaction: discord.Interaction,
        game: int | None,
        what: Literal["draw", "undo"],
    ) -> None:
        async with acting(interaction):
            turn: Turn | None = "theirs" if what == "undo" else None
            target = await find_game(interaction, game, as_player=True, turn=turn)
            refuse_asking_me(interaction, target, what)
            ask = {"draw": self.services.games.offer_draw, "undo": self.services.games.request_undo}
            await ask[what](target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            late = (
                _("Your draw request was recorded")
                if what == "draw"
                else _("Your undo request was recorded")
            )
            text = report.reply(_("Asked your opponent"), late)
            await interaction.followup.send(text, ephemeral=True)

    async def abort(self, interaction: discord.Interaction, game: Game | None = None) -> None:
        """Call off a game before both players have moved"""
        async with acting(interaction):
            target = await find_game(interaction, game, as_player=True)
            await self.services.games.abort(target.id, interaction.user.id)
            report = await self.courier.deliver_stream(game_stream(target.id))
            done = _("Game #{game} is aborted", game=target.id)
            await interaction.followup.send(report.reply(done, done), ephemeral=True)

    # ----------------------------------------------------------------- looking

    async def board(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """Show a game's board"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            position = await self.services.games.position(target.id)
            async with wording_for(interaction, public):  # the picture's words too
                file = await self.table.board_file(target, position, viewer_id=interaction.user.id)
                state = game_messages.game_line(target, None if public else interaction.user.id)
            await answer(interaction, public, state, files=[file])

    @app_commands.describe(
        user="Whose games (default: yours)",
        show="Games in progress or over",
    )
    async def games(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,  # also someone who has left the server
        show: Literal["active", "finished"] = "active",
        public: bool = False,
    ) -> None:
        """Your games (or someone's) with links, a page at a time"""
        async with acting(interaction):
            caller, whose = interaction.user.id, (user or interaction.user).id
            only_own_outside_servers(interaction, whose)
            async with wording_for(interaction, public):
                embed, view = await listing_page(
                    interaction,
                    caller=caller,
                    whose=whose,
                    listing=Listing(show),
                    as_of=self.services.clock.now(),
                    number=0,
                    viewer_id=None if public else caller,
                )
            await answer(interaction, public, embed=embed, view=view)

    async def help(self, interaction: discord.Interaction) -> None:
        """How to play, read the board and write moves"""
        with speaking(await person_language(interaction)):
            embed = game_messages.help_embed()
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ----------------------------------------------------------------- typed moves

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A move typed in a game's thread, where the bot reads messages (BREDON_TYPED_MOVES)
        and the server allows it: played if it is a legal move by the player to move, for the
        position they see; anything else is left alone, as the players' own chat."""
        if not self.bot.settings.typed_moves or message.author.bot or message.guild is None:
            return
        text = typed_move(message.content)
        try:
            parse_move(text)
        except PTNError:
            return  # not a move: chat
        game = await self.services.lookup.game_in_thread(message.channel.id, message.guild.id)
        if game is None or not game.is_active or game.player_to_move.id != message.author.id:
            return
        if not (await self.services.guilds.get(message.guild.id)).typed_moves:
            return
        try:
            await self.services.games.move(
                game.id, message.author.id, text, expected_ply=game.ply, key=f"message:{message.id}"
            )
        except BredonError:
            return  # not a legal move here: just chat
        await self.courier.deliver_stream(game_stream(game.id))
