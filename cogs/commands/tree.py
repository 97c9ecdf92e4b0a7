"""Every slash command, declared here in one place, and the Discord layer's set-up.

Commands are grouped by what players do, the most frequent kept shortest:

- ``/tak``: playing a game (challenge, play, move, board, resign, draw, undo, abort, games, help);
- ``/game``: a game's record (tps, ptn, replay, view, analysis, note, scratch, explore,
  conditions add|show|clear);
- ``/clock``: time (moretime, pause, resume, reminders, vacation start|end|status);
- ``/profile``: you and the server's tables (settings, scores, stats, leaderboard);
- ``/coins``: wallets (wallet, leaderboard);
- ``/puzzle``: puzzles (solve, daily, answer, stats);
- ``/tournament``: playing in tournaments; ``/organize``: running them (organizers);
- ``/league``: team leagues' rosters, lineups, matches and standings (``/organize league``
  creates and starts them: :mod:`cogs.commands.league`);
- ``/season``: the server's league of seasons (:mod:`cogs.commands.season`; its organizers'
  side is ``/organize season``);
- ``/bredon``: the server's settings (server managers).

``/tak``, ``/game``, ``/clock`` and ``/profile`` work wherever a player installed Bredon (a
server, or their own account) and wherever they use it (a server, Bredon's DMs, DMs and group
DMs between players: ``group(..., anywhere=True)``); every other group, and any group added
without saying so, only in the servers that installed Bredon.

The commands' bodies live in one module per group, named by it: :mod:`cogs.commands.tak`,
:mod:`cogs.commands.game`, :mod:`cogs.commands.clock`, :mod:`cogs.commands.profile`,
:mod:`cogs.commands.coins`, :mod:`cogs.commands.tournament`, :mod:`cogs.commands.organize` and
:mod:`cogs.commands.bredon`; ``/tak play`` is in :mod:`cogs.commands.tak_play` and ``/game
analysis`` in :mod:`cogs.commands.game_analysis`, with the bot player's engine (:class:`Cogs`).
This module puts each in its group, under its function's name (options every command shares are
described once, :data:`cogs.arguments.SHARED_OPTIONS`). A command that moved answers, under its
old name, with its new one (:data:`MOVED`, for one release): Discord shows the old names until an
admin syncs again (``python -m bot sync``).

:func:`install` (called by the bot as it starts, :func:`cogs.running.create_bot` wires it) makes
the cogs, each given the others it needs, in the order they depend on each other (the courier
first), registers the presenters and the buttons, and builds the tree.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, fields
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.model import GamePlace
from bot.languages import catalogue
from cogs.actions.move_picker import PICKER_ITEMS
from cogs.actions.puzzle_picker import PUZZLE_ITEMS
from cogs.arguments import SHARED_OPTIONS
from cogs.client import BredonBot
from cogs.commands import bredon, coins
from cogs.commands.clock import ClockCog
from cogs.commands.game import GameCog
from cogs.commands.game_analysis import AnalysisCog
from cogs.commands.league import LeagueCog
from cogs.commands.organize import OrganizeCog
from cogs.commands.profile import ProfileCog
from cogs.commands.puzzle import PuzzleCog
from cogs.commands.season import SeasonCog
from cogs.commands.tak import TakCog
from cogs.commands.tak_play import OpponentCog
from cogs.commands.tournament import TournamentCog
from cogs.components.bids import BidButton
from cogs.components.buttons import (
    GIVE_DAY,
    HANDLERS,
    KINDS,
    MOVE_FORMS,
    ActionButton,
    GiveDayButton,
    MoveButton,
)
from cogs.components.game_list import PageButton
from cogs.delivery.conversations import place_of
from cogs.delivery.courier import CourierCog
from cogs.delivery.notices import UnreachableNotice
from cogs.interactions import OnlyInServers
from cogs.presenters import register_all
from cogs.translation import CommandTranslator

# Old qualified name -> new one: answered for one release (docs/operations.md, "The commands
# regrouped").
MOVED = {
    **{f"tak {name}": f"game {name}" for name in ("tps", "ptn", "replay", "view", "analysis")},
    **{
        f"tak {name}": f"clock {name}"
        for name in (
            "moretime",
            "pause",
            "resume",
            "reminders",
            "vacation start",
            "vacation end",
            "vacation status",
        )
    },
    **{f"tak {name}": f"profile {name}" for name in ("settings", "scores", "leaderboard")},
    "tak wallet": "coins wallet",
    "tak coins": "coins leaderboard",
}

MANAGERS = discord.Permissions(manage_guild=True)

# Where a command may be used (docs/discord-setup.md, "Where Bredon works"): the commands a player
# plays with wherever Bredon is installed, to a server or to their own account, and used in a
# server, in Bredon's DMs or in DMs and group DMs between players; everything else only in the
# servers that installed Bredon.
EVERYWHERE_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True)
SERVER = app_commands.AppCommandContext(guild=True)

Callback = Callable[..., Coroutine[Any, Any, None]]


def command(callback: Callback, name: str) -> app_commands.Command[Any, ..., None]:
    """A slash command described by its function's docstring; its options shared with other
    commands get their common description unless the function gives its own."""
    description = " ".join((inspect.getdoc(callback) or "").split("\n\n")[0].split())
    made: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description, callback=callback
    )
    undescribed = {
        option: text
        for option, text in SHARED_OPTIONS.items()
        if (parameter := made.get_parameter(option)) is not None
        and not parameter.description.strip(".…")  # discord.py's placeholder: none given
    }
    if not undescribed:
        return made
    app_commands.describe(**undescribed)(getattr(callback, "__func__", callback))
    return app_commands.Command(name=name, description=description, callback=callback)


Member = Callback | app_commands.Group


def group(
    name: str,
    description: str,
    *members: Member,
    managers_only: bool = False,
    subgroup: bool = False,
    anywhere: bool = False,
) -> app_commands.Group:
    """A group of commands, each named after its function (less the name of its subgroup:
    `vacation_start` is `/clock vacation start`). A top-level group is for the servers that
    installed Bredon only, unless it plays `anywhere` (installed to a player's account too, and
    used in DMs and group DMs); `managers_only`: Discord shows it to members with Manage Server,
    unless a manager grants it to others."""
    options: dict[str, Any] = {}
    if not subgroup:
        options["allowed_installs"] = EVERYWHERE_INSTALLS if anywhere else SERVER_INSTALLS
        options["allowed_contexts"] = EVERYWHERE if anywhere else SERVER
    if managers_only:
        options["default_permissions"] = MANAGERS
    made = app_commands.Group(name=name, description=description, **options)
    for member in members:
        if isinstance(member, app_commands.Group):
            made.add_command(member)
        else:
            made.add_command(command(member, member.__name__.removeprefix(f"{name}_")))
    if not subgroup and not anywhere:
        for each in made.walk_commands():
            if isinstance(each, app_commands.Command):
                each.add_check(installed_here)
    return made


def installed_here(interaction: discord.Interaction) -> bool:
    """The check of every server-only command: refused outside the servers that installed
    Bredon, before it reads or changes anything."""
    if place_of(interaction) is not GamePlace.SERVER:
        raise OnlyInServers()
    return True


@dataclass(frozen=True, slots=True)
class Cogs:
    """The cogs that hold the commands' bodies, one a group (`/game analysis` is with the bot
    player's engine, `/tak play` with the bot player; the coins and `/bredon` are plain
    functions, in :mod:`cogs.commands.coins` and :mod:`cogs.commands.bredon`)."""

    tak: TakCog
    tak_play: OpponentCog
    game: GameCog
    game_analysis: AnalysisCog
    clock: ClockCog
    profile: ProfileCog
    tournament: TournamentCog
    organize: OrganizeCog
    league: LeagueCog
    season: SeasonCog
    puzzle: PuzzleCog

    def all(self) -> tuple[commands.Cog, ...]:
        return tuple(getattr(self, field.name) for field in fields(self))


def build_tree(cogs: Cogs) -> list[app_commands.Group]:
    """The whole command tree, group by group, the most used first."""
    tak, game, clock, profile = cogs.tak, cogs.game, cogs.clock, cogs.profile
    t, o, analysis, play = cogs.tournament, cogs.organize, cogs.game_analysis, cogs.tak_play
    s, lg = cogs.season, cogs.league
    running_seasons = (
        *(s.season_create, s.season_settings, s.season_start, s.season_round, s.season_end),
    )
    return [
        group(
            "tak",
            "Play Tak: challenge, move, see the board",
            *(tak.challenge, play.play, tak.move, tak.board, tak.resign, tak.draw, tak.undo),
            *(tak.abort, tak.games, tak.help),
            anywhere=True,
        ),
        group(
            "game",
            "A game's record: TPS, PTN, replay, analysis; your notes, a scratch board",
            *(game.tps, game.ptn, game.replay, game.view, analysis.analysis),
            *(game.note, game.scratch, game.explore),
            group(
                "conditions",
                "Answers Bredon plays for you when your opponent makes the reply you foresaw",
                *(game.conditions_add, game.conditions_show, game.conditions_clear),
                subgroup=True,
            ),
            anywhere=True,
        ),
        group(
            "clock",
            "Time: more time, pauses, reminders, vacations",
            *(clock.moretime, clock.pause, clock.resume, clock.reminders),
            group(
                "vacation",
                "Stop the clocks of all your games here",
                *(clock.vacation_start, clock.vacation_end, clock.vacation_status),
                subgroup=True,
            ),
            anywhere=True,
        ),
        group(
            "profile",
            "Your settings, scores and statistics, and the server's leaderboard",
            *(profile.settings, profile.scores, profile.stats, profile.leaderboard),
            anywhere=True,
        ),
        group("coins", "Coins: wallets and the server's richest", coins.wallet, coins.leaderboard),
        group(
            "puzzle",
            "Puzzles: one move wins; find it (privately), daily, with a rating and a streak",
            *(cogs.puzzle.solve, cogs.puzzle.daily, cogs.puzzle.answer, cogs.puzzle.stats),
        ),
        group(
            "tournament",
            "Tournaments: sign up, pairings, standings",
            *(t.join, t.leave, t.withdraw, t.checkin, t.pairings, t.standings, t.info),
            *(t.export, t.report, t.log, t.bye),
        ),
        group(
            "season",
            "The server's league that recurs: sign up, tables, hall of fame",
            *(s.join, s.leave, s.standings, s.halloffame),
        ),
        # Shown to server managers only, unless a manager grants it to the organizer role
        # (Server Settings -> Integrations); the service still checks who may run a tournament.
        group(
            "organize",
            "Run tournaments: create, start, forfeits, disqualifications (organizers)",
            *(o.create, o.settings, o.clocks, o.start, o.forfeit, o.disqualify, o.cancel),
            *(o.seed, o.late, o.replace),
            *(o.correct, o.bye, o.forbid, o.allow),
            group("checkin", "Check-in before the start", o.checkin_open, subgroup=True),
            group(
                "league",
                "Team leagues: create one, add teams with their captains, start it",
                *(lg.league_create, lg.league_addteam, lg.league_removeteam, lg.league_start),
                *(lg.league_captain, lg.league_cancel),
                subgroup=True,
            ),
            group("season", "Run the server's league of seasons", *running_seasons, subgroup=True),
            managers_only=True,
        ),
        group(
            "league",
            "Team leagues: rosters and lineups (captains), matches and standings",
            *(lg.lineup, lg.match, lg.standings, lg.teams),
            group(
                "roster",
                "Your team's players (captains)",
                *(lg.roster_add, lg.roster_remove),
                subgroup=True,
            ),
        ),
        # Server settings: shown to server managers only (Discord hides it from everyone else).
        group(
            "bredon",
            "Bredon's settings for this server (server managers)",
            *(bredon.config, bredon.gambling, bredon.grant, bredon.puzzles),
            managers_only=True,
        ),
    ]


async def install(bot: BredonBot) -> None:
    """Put the Discord layer on `bot` (when it starts, :meth:`BredonBot.setup_hook`): the
    buttons, the cogs in the order they depend on each other, and the command tree."""
    missing = sorted(set(KINDS) - set(HANDLERS))
    missing += [
        name for name, handler in (("move", MOVE_FORMS), ("give-day", GIVE_DAY)) if not handler
    ]
    if missing:
        raise RuntimeError(f"Buttons without a handler: {missing}")
    bot.add_dynamic_items(
        ActionButton, MoveButton, GiveDayButton, PageButton, BidButton, *PICKER_ITEMS, *PUZZLE_ITEMS
    )
    courier_cog = CourierCog(bot)
    courier = courier_cog.courier
    register_all(courier.table)
    opponent = OpponentCog(bot, courier)
    tournament = TournamentCog(bot, courier)
    cogs = Cogs(
        tak=TakCog(bot, courier),
        tak_play=opponent,
        game=GameCog(bot, courier),
        game_analysis=AnalysisCog(bot, courier, opponent.thinker),  # the bot player's processes
        clock=ClockCog(bot, courier),
        profile=ProfileCog(bot, courier),
        tournament=tournament,
        organize=OrganizeCog(bot, courier, tournament),
        league=LeagueCog(bot, courier),
        season=SeasonCog(bot, courier),
        puzzle=PuzzleCog(bot, courier),
    )
    for cog in (courier_cog, *cogs.all(), UnreachableNotice(bot)):
        await bot.add_cog(cog)
    unshown = courier.table.unshown_kinds()
    if unshown:  # the courier would stop at the first such announcement
        raise RuntimeError(f"Announcements without a presenter: {unshown}")
    for made in build_tree(cogs):
        bot.tree.add_command(made)
    bot.tree.moved = MOVED
    await bot.tree.set_translator(CommandTranslator(catalogue()))


async def uninstall(bot: BredonBot) -> None:
    """Stop the cogs in the reverse order of :func:`install`: the courier last, as the others use
    it."""
    for name in reversed(list(bot.cogs)):
        await bot.remove_cog(name)
