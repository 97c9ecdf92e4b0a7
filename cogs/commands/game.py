"""`/game`: a game's record (tps, ptn, replay, view), a player's private note on it, a scratch board
to try moves from it and their conditional moves (`/game conditions`); `/game analysis` is with the
bot player's engine, in :mod:`cogs.commands.game_analysis`. Thin adapters from Discord to the
services (the commands' names and groups are declared in :mod:`cogs.commands.tree`)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine_sentences import engine_sentence
from bot.games.conditions import MAX_TEXT
from bot.games.explorer import explored_position, is_standard, standard_position
from bot.games.model import GameView
from bot.games.notes import MAX_NOTE
from bot.games.scratch import try_line
from bot.languages import _, ngettext, numeral
from bot.work.attached_files import FileReader, read_game
from cogs.actions.move_picker import condition_picker
from cogs.arguments import BoardSize, Game, Turn, find_game
from cogs.checks import refuse_asking_me, server_only
from cogs.client import BredonBot
from cogs.delivery.courier import Courier
from cogs.delivery.sharing import answer, wording_for
from cogs.interactions import Refusal, acting
from cogs.words import game_messages
from tak import Position, TakError
from tak.ptn import Game as PTNGame
from tak.tinue import with_calls

MAX_NINJA_LINK = 3900  # an embed description holds 4096 characters
# `/game view`: real PTN files take a few kilobytes (a 300-ply game about 3 KiB); the parser's own
# cap (a million characters) is far above this.
MAX_PTN_FILE_BYTES = 256 * 1024


class GameCog(commands.Cog):
    """A game's record: its position as TPS, its PTN, its replay, and a PTN file shown; a
    player's private note, scratch board and conditional moves."""

    def __init__(self, bot: BredonBot, courier: Courier) -> None:
        self.services = bot.services
        self.table = courier.table

    async def tps(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game's position as TPS text"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            async with wording_for(interaction, public):
                head = _("Game #{game}, ply {ply}:", game=target.id, ply=target.ply)
            await answer(interaction, public, f"{head}\n```\n{target.tps}\n```")

    async def ptn(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game's record as a PTN file, with a ptn.ninja link"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            record = await self.services.lookup.record(target.id)
            record = await asyncio.to_thread(with_calls, record)
            note = (
                None if public else await self.services.notes.read(target.id, interaction.user.id)
            )
            if note is not None:  # the user's own export only: a note is private
                record.comments.append(
                    _("Note by {player}: {note}", player=interaction.user.display_name, note=note)
                )
            text = record.ptn()
            url = record.ninja_url()
            async with wording_for(interaction, public):
                link = (
                    _("[Open game #{game} in ptn.ninja]({url})", game=target.id, url=url)
                    if len(url) <= MAX_NINJA_LINK
                    else _("The game is too long for a link: open the file in ptn.ninja.")
                )
                embed = discord.Embed(title=_("Game #{game}", game=target.id), description=link)
            await answer(
                interaction,
                public,
                embed=embed,
                files=[discord.File(io.BytesIO(text.encode()), filename=f"bredon-{target.id}.ptn")],
            )

    async def replay(
        self, interaction: discord.Interaction, game: Game | None = None, public: bool = False
    ) -> None:
        """A game replayed as an animated image"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            record = await self.services.lookup.record(target.id)
            async with wording_for(interaction, public):
                file, note = await self.table.replay_file(target.id, record, interaction.user.id)
                plies = len(record.plies)
                text = ngettext(
                    "Game #{game}, {count} ply. {note}",
                    "Game #{game}, {count} plies. {note}",
                    plies,
                    game=target.id,
                    note=note,
                ).rstrip()
            await answer(interaction, public, text, files=[file])

    @app_commands.describe(
        text="Your note (leave out to see it; a single - deletes it); only you ever see it",
    )
    async def note(
        self,
        interaction: discord.Interaction,
        game: Game | None = None,
        text: app_commands.Range[str, 1, MAX_NOTE] | None = None,
    ) -> None:
        """Your private note on one of your games (in your own /game ptn too)"""
        async with acting(interaction):
            target = await find_game(interaction, game, as_player=True)
            if text is None:
                kept = await self.services.notes.read(target.id, interaction.user.id)
            else:
                kept = await self.services.notes.write(
                    target.id, interaction.user.id, "" if text.strip() == "-" else text
                )
            await interaction.followup.send(
                game_messages.note_text(target.id, kept, written=text is not None),
                ephemeral=True,
            )

    @app_commands.describe(
        moves="Moves to try from the game's position, e.g. c3 d4 c4 (never played)",
    )
    async def scratch(
        self,
        interaction: discord.Interaction,
        moves: app_commands.Range[str, 1, 300],
        game: Game | None = None,
    ) -> None:
        """Try moves on a private scratch board from a game's position"""
        async with acting(interaction):
            target = await find_game(interaction, game)
            start = await self.services.games.position(target.id)
            line = await asyncio.to_thread(try_line, start, moves)
            players = (target.white.name, target.black.name)
            file = await self.table.position_file(
                line.position,
                players,
                viewer_id=interaction.user.id,
                name=f"bredon-scratch-{target.id}.png",
            )
            await interaction.followup.send(
                game_messages.scratch_text(target.id, target.ply, line.text),
                files=[file],
                ephemeral=True,
            )

    @app_commands.describe(
        moves="Moves in PTN from the start, or from the game's position, e.g. a1 f6 c3",
    )
    async def explore(
        self,
        interaction: discord.Interaction,
        moves: app_commands.Range[str, 1, 600] | None = None,
        game: Game | None = None,
        size: BoardSize | None = None,
        public: bool = False,
    ) -> None:
        """How this server's finished games and published real games went from a position"""
        async with acting(interaction):
            guild_id = server_only(interaction)
            if game is None:
                size = size or (await self.services.guilds.get(guild_id)).size
                start, source = standard_position(size), None
            else:
                target = await find_game(interaction, game)
                if not is_standard(target.setup) or size not in (None, target.setup.size):
                    raise Refusal(game_messages.not_explorable(target, size))
                start = await self.services.games.position(target.id)
                source = target
            position = await asyncio.to_thread(explored_position, start, moves or "")
            me = interaction.client.user
            explorer = self.services.explorer
            exploration = await explorer.explore(
                guild_id, position, bot_id=0 if me is None else me.id
            )
            published = await explorer.explore_published(position)
            link = PTNGame(tags={"Size": str(position.size), "TPS": position.tps()}).ninja_url()
            async with wording_for(interaction, public):
                embed = game_messages.exploration_embed(
                    exploration,
                    published,
                    game_messages.explored_from(source, start.ply, moves or ""),
                    link,
                )
            await answer(interaction, public, embed=embed)

    @app_commands.describe(
        lines="Their reply, your answer, and so on, e.g. c3 d4 c4 d5; more lines after ; "
        "(none: pick)",
    )
    async def conditions_add(
        self,
        interaction: discord.Interaction,
        lines: app_commands.Range[str, 1, MAX_TEXT] | None = None,
        game: Game | None = None,
    ) -> None:
        """Enter answers Bredon plays for you at once when your opponent makes the reply"""
        async with acting(interaction):
            # Lines go in while the opponent is to move: of several games, the one awaiting them.
            target = await self._with_conditions(interaction, game, turn="theirs")
            if lines is None:
                ready = await self.services.conditions.ready(target.id, interaction.user.id)
                position = await self.services.games.position(target.id)
                text, view = condition_picker(ready, position)
                await interaction.followup.send(text, view=view, ephemeral=True)
                return
            kept = await self.services.conditions.add(target.id, interaction.user.id, lines)
            text = game_messages.conditions_text(kept, added=True)
            await interaction.followup.send(
                text, files=_attached(game_messages.conditions_file(kept, text)), ephemeral=True
            )

    async def conditions_show(
        self, interaction: discord.Interaction, game: Game | None = None
    ) -> None:
        """Your conditional moves in a game (only you see them)"""
        async with acting(interaction):
            target = await self._with_conditions(interaction, game)
            shown = await self.services.conditions.show(target.id, interaction.user.id)
            text = game_messages.conditions_text(shown)
            await interaction.followup.send(
                text, files=_attached(game_messages.conditions_file(shown, text)), ephemeral=True
            )

    async def conditions_clear(
        self, interaction: discord.Interaction, game: Game | None = None
    ) -> None:
        """Clear your conditional moves in a game"""
        async with acting(interaction):
            target = await self._with_conditions(interaction, game)
            cleared = await self.services.conditions.clear(target.id, interaction.user.id)
            await interaction.followup.send(
                game_messages.conditions_cleared_text(target.id, cleared), ephemeral=True
            )

    async def _with_conditions(
        self, interaction: discord.Interaction, game: int | None, turn: Turn | None = None
    ) -> GameView:
        """The caller's game meant, if it is one between players: Bredon answers its own
        moves within moments, so conditional moves are for games between players."""
        target = await find_game(interaction, game, as_player=True, turn=turn)
        refuse_asking_me(interaction, target, "conditions")
        return target

    @app_commands.describe(
        file="A game record in PTN (.ptn, from ptn.ninja, PlayTak or /game ptn)",
        replay="Add the game replayed as an animated image (default no)",
    )
    async def view(
        self, interaction: discord.Interaction, file: discord.Attachment, replay: bool = False
    ) -> None:
        """Show an attached PTN file: its final board and replay"""
        async with acting(interaction):
            record, final = await read_attached_game(file, self.table.files, interaction.user.id)
            text = game_messages.viewed_game_text(record, file.filename)
            players = (
                record.tag("Player1") or _("Player {number}", number=1),
                record.tag("Player2") or _("Player {number}", number=2),
            )
            files = [
                await self.table.position_file(
                    final,
                    players,
                    viewer_id=interaction.user.id,
                    name="bredon-view.png",
                    result=record.result,
                )
            ]
            if replay and not record.plies:
                text += "\n" + _("The file has no moves to replay.")
            elif replay:
                gif, note = await self.table.replay_file("view", record, interaction.user.id)
                files.append(gif)
                text += f"\n{note}".rstrip()
            await interaction.followup.send(text, files=files, ephemeral=True)


async def read_attached_game(
    file: discord.Attachment, reader: FileReader, player_id: int
) -> tuple[PTNGame, Position]:
    """The game in an attached PTN file and its final position, or a :class:`Refusal` saying
    why it cannot be read. The size is checked before the file is fetched; the file is read in
    `reader`'s worker process (in turn with `player_id`'s other files), never on the event
    loop."""
    if file.size > MAX_PTN_FILE_BYTES:
        raise Refusal(
            _(
                "That file is {size} bytes; a PTN file is at most {most} KiB here (a whole game "
                "takes a few kilobytes).",
                size=numeral(file.size),
                most=MAX_PTN_FILE_BYTES // 1024,
            )
        )
    try:
        data = await file.read()
    except discord.HTTPException as error:
        raise Refusal(
            _(
                "I couldn't fetch the file (Discord said: {error}). Please try again.",
                error=error.text or error.status,
            )
        ) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal(
            _("That file is not text in UTF-8, so it is not a PTN file: attach a .ptn game record.")
        ) from None
    try:
        return await reader.run(read_game, text, player_id=player_id)
    except TakError as error:
        raise Refusal(
            _("That file is not a game I can read: {error}", error=engine_sentence(str(error)))
        ) from None


def _attached(file: discord.File | None) -> list[discord.File]:
    return [] if file is None else [file]
