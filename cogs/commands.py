"""Every slash command, declared here in one place, and the Discord layer's set-up.

Commands are grouped by what players do, the most frequent kept shortest:

- ``/tak``: playing a game (challenge, play, move, board, resign, draw, undo, abort, games, help);
- ``/game``: a game's record (tps, ptn, replay, view, analysis);
- ``/clock``: time (moretime, pause, resume, reminders, vacation start|end|status);
- ``/profile``: you and the server's tables (settings, scores, leaderboard);
- ``/coins``: wallets (wallet, leaderboard);
- ``/tournament``: playing in tournaments; ``/organize``: running them (organizers);
- ``/bredon``: the server's settings (server managers).

The commands' bodies live in the cogs, by domain; this module gives each its name, its
description and its group (options every command shares are described once,
:data:`cogs.arguments.SHARED_OPTIONS`). A command that moved answers, under its old name, with its
new one (:data:`MOVED`, for one release): Discord shows the old names until an admin syncs again
(``python -m bot sync``).

:func:`setup` (the one extension the bot loads) makes the cogs, each given the others it needs,
in the order they depend on each other (the courier first), and builds the tree.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.app import BredonBot
from cogs import wallets
from cogs.analysis import AnalysisCog
from cogs.arguments import SHARED_OPTIONS
from cogs.buttons import (
    GIVE_DAY,
    HANDLERS,
    KINDS,
    MOVE_FORMS,
    ActionButton,
    GiveDayButton,
    MoveButton,
)
from cogs.courier import CourierCog
from cogs.game_list import PageButton
from cogs.notifications import NotificationsCog
from cogs.opponent import OpponentCog
from cogs.tak import TakCog
from cogs.tournaments import TournamentCog

# Old qualified name -> new one: answered for one release (see docs/upgrading.md).
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

Callback = Callable[..., Awaitable[None]]


def command(
    name: str, description: str, callback: Callback
) -> app_commands.Command[Any, ..., None]:
    """A slash command; its options shared with other commands get their common description
    unless the command gives its own."""
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


def group(
    name: str,
    description: str,
    *members: app_commands.Command[Any, ..., None] | app_commands.Group,
    managers_only: bool = False,
    top: bool = True,
) -> app_commands.Group:
    """A group of commands (a top-level one is for servers only; `managers_only`: Discord shows
    it to members with Manage Server, unless a manager grants it to others)."""
    options: dict[str, Any] = {"guild_only": True} if top else {}
    if managers_only:
        options["default_permissions"] = MANAGERS
    made = app_commands.Group(name=name, description=description, **options)
    for member in members:
        made.add_command(member)
    return made


def subgroup(
    name: str, description: str, *members: app_commands.Command[Any, ..., None]
) -> app_commands.Group:
    return group(name, description, *members, top=False)


def build_tree(
    tak: TakCog, tournaments: TournamentCog, opponent: OpponentCog, analysis: AnalysisCog
) -> list[app_commands.Group]:
    """The whole command tree, group by group."""
    return [
        group(
            "tak",
            "Play Tak: challenge, move, see the board",
            command("challenge", "Challenge someone (or anyone) to a game of Tak", tak.challenge),
            command("play", "Play a game against Bredon itself", opponent.play),
            command("move", "Play a move in PTN (start typing for the legal moves)", tak.move),
            command("board", "Show a game's board", tak.board),
            command("resign", "Resign a game (you will be asked to confirm)", tak.resign),
            command("draw", "Offer your opponent a draw", tak.draw),
            command("undo", "Ask your opponent to take back the last move", tak.undo),
            command("abort", "Call off a game before both players have moved", tak.abort),
            command("games", "Your games (or someone's) with links, a page at a time", tak.games),
            command("help", "How to play, read the board and write moves", tak.help),
        ),
        group(
            "game",
            "A game's record: TPS, PTN, replay, analysis",
            command("tps", "A game's position as TPS text", tak.tps),
            command("ptn", "A game's record as a PTN file, with a ptn.ninja link", tak.ptn),
            command("replay", "A game replayed as an animated image", tak.replay),
            command("view", "Show an attached PTN file: its final board and replay", tak.view),
            command(
                "analysis",
                "A finished game analysed: evaluation graph and annotated PTN",
                analysis.analysis,
            ),
        ),
        group(
            "clock",
            "Time: more time, pauses, reminders, vacations",
            command("moretime", "Give your opponent more time for their move", tak.moretime),
            command("pause", "Propose to pause a game; your opponent must agree", tak.pause),
            command("resume", "End a game's pause: its clock runs again", tak.resume),
            command("reminders", "When to remind you before a deadline", tak.reminders),
            subgroup(
                "vacation",
                "Stop the clocks of all your games here",
                command(
                    "start", "Go on vacation: your games' clocks stand still", tak.vacation_start
                ),
                command("end", "Come back early: your games' clocks run again", tak.vacation_end),
                command("status", "Your vacation days left this year", tak.vacation_status),
            ),
        ),
        group(
            "profile",
            "Your settings and scores, and the server's leaderboard",
            command("settings", "Your board theme and how you are notified", tak.settings),
            command("scores", "All-time points in this server, and the match score", tak.scores),
            command(
                "leaderboard", "The server's best rated players on a board size", tak.leaderboard
            ),
        ),
        group(
            "coins",
            "Coins: wallets and the server's richest",
            command(
                "wallet", "Your coins (or someone's) and their latest movements", wallets.wallet
            ),
            command("leaderboard", "The server's coin leaderboard", wallets.coins),
        ),
        group(
            "tournament",
            "Tournaments: sign up, pairings, standings",
            command("join", "Sign up for a tournament", tournaments.join),
            command("leave", "Take back your sign-up before the start", tournaments.leave),
            command(
                "withdraw", "Leave a running tournament (matches forfeited)", tournaments.withdraw
            ),
            command("checkin", "Check in for a tournament about to start", tournaments.checkin),
            command("pairings", "A round's pairings and results", tournaments.pairings),
            command("standings", "The tournament's table", tournaments.standings),
            command("info", "A tournament's settings and players", tournaments.info),
            command(
                "export", "Standings as CSV and every game as one PTN file", tournaments.export
            ),
            command(
                "report",
                "Count a game played elsewhere (e.g. PlayTak) by its PTN file",
                tournaments.report,
            ),
            command("log", "Results corrected or reported by hand", tournaments.log),
        ),
        # Shown to server managers only, unless a manager grants it to the organizer role
        # (Server Settings -> Integrations); the service still checks who may run a tournament.
        group(
            "organize",
            "Run tournaments: create, start, forfeits, disqualifications (organizers)",
            command("create", "Open a tournament for sign-up", tournaments.create),
            command("start", "Close sign-up and begin round 1", tournaments.start),
            command("forfeit", "Award a player their current match", tournaments.forfeit),
            command(
                "disqualify", "Remove a player from a running tournament", tournaments.disqualify
            ),
            command("cancel", "Call a tournament off", tournaments.cancel),
            command("seed", "Set a player's seed before the start", tournaments.seed),
            command("late", "Let players join a running Swiss until a round", tournaments.late),
            command("replace", "Give a player's place to someone else", tournaments.replace),
            command("correct", "Correct a game's result (kept in the log)", tournaments.correct),
            subgroup(
                "checkin",
                "Check-in before the start",
                command(
                    "open",
                    "Open check-in now (no-shows left out at start)",
                    tournaments.checkin_open,
                ),
            ),
            managers_only=True,
        ),
        # Server settings: shown to server managers only (Discord hides it from everyone else).
        group(
            "bredon",
            "Bredon's settings for this server (server managers)",
            command("config", "Server defaults: new games, threads, typed moves", tak.config),
            command(
                "gambling", "Playing for coins: on or off, starting coins, ante", wallets.gambling
            ),
            command(
                "grant", "Give a member coins (a negative amount takes some back)", wallets.grant
            ),
            managers_only=True,
        ),
    ]


async def setup(bot: BredonBot) -> None:
    missing = sorted(set(KINDS) - set(HANDLERS))
    missing += [
        name for name, handler in (("move", MOVE_FORMS), ("give-day", GIVE_DAY)) if not handler
    ]
    if missing:
        raise RuntimeError(f"Buttons without a handler: {missing}")
    bot.add_dynamic_items(ActionButton, MoveButton, GiveDayButton, PageButton)
    courier_cog = CourierCog(bot)
    courier = courier_cog.courier
    tak = TakCog(bot, courier)
    tournaments = TournamentCog(bot, courier)
    opponent = OpponentCog(bot, courier)
    analysis = AnalysisCog(bot, courier, opponent.thinker)  # in the bot player's processes
    notifications = NotificationsCog(bot, courier.table)
    for cog in (courier_cog, tak, tournaments, notifications, opponent, analysis):
        await bot.add_cog(cog)
    wallets.install(bot, courier.table)
    for made in build_tree(tak, tournaments, opponent, analysis):
        bot.tree.add_command(made)
    bot.tree.moved = MOVED


async def teardown(bot: BredonBot) -> None:
    """Stop the cogs in the reverse order of :func:`setup`: the courier last, as the others use
    it."""
    for name in reversed(list(bot.cogs)):
        await bot.remove_cog(name)
