"""The application's services: everything the Discord layer can ask for, with no discord.py.

Open them all on one database with :meth:`Services.open`; each takes the clock it reads the time
from, so tests can move time. Where a lower package acts through a higher one, the wiring is made
here, so that no package imports one above it (`tests/test_bot_packages.py`): the outbox gives a
late-told player their time back by :func:`bot.play.service.give_time_back`, and the tournament
services end the games they stop by :func:`bot.play.service.finish_game`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from bot.coins.service import WalletService
from bot.computer.analysis_queue import AnalysisService
from bot.computer.opponent import OpponentService
from bot.deadlines.holds import HoldService
from bot.deadlines.service import DeadlineService
from bot.games.conditions import ConditionService
from bot.games.explorer import ExplorerService
from bot.games.lookup import LookupService
from bot.games.matches import MatchService
from bot.games.notes import NoteService
from bot.games.ratings import RatingService
from bot.guild_settings import GuildService
from bot.leagues.service import LeagueService
from bot.notifications.outbox import OutboxService
from bot.notifications.service import NotificationService
from bot.play.challenges import ChallengeService
from bot.play.service import GameService, finish_game, give_time_back
from bot.players.service import PlayerService
from bot.puzzles.service import PuzzleService
from bot.seasons.service import SeasonService
from bot.store import DEFAULT_PATH, Database
from bot.timekeeping.clock import Clock, SystemClock
from bot.tournaments.corrections import CorrectionService
from bot.tournaments.entry import EntryService
from bot.tournaments.pictures import PictureService
from bot.tournaments.service import TournamentService
from bot.work.attached_files import FileReader

# A batch of background work (a server's games replayed or mined) that takes longer is given up.
BACKGROUND_SECONDS = 120.0


@dataclass(frozen=True)
class Services:
    db: Database
    clock: Clock
    players: PlayerService
    guilds: GuildService
    challenges: ChallengeService
    games: GameService
    matches: MatchService
    deadlines: DeadlineService
    lookup: LookupService
    ratings: RatingService
    tournaments: TournamentService
    outbox: OutboxService
    pictures: PictureService
    wallets: WalletService
    notifications: NotificationService
    notes: NoteService
    conditions: ConditionService
    holds: HoldService
    opponent: OpponentService
    entry: EntryService
    corrections: CorrectionService
    analysis: AnalysisService
    explorer: ExplorerService
    # The worker process for background work on the bot's own games (the explorer's replays,
    # the puzzles' mining): it holds the CPU, so never the event loop's process; one process, at
    # a lower priority, started when first needed, one batch at a time.
    background: FileReader
    leagues: LeagueService
    seasons: SeasonService
    puzzles: PuzzleService

    @classmethod
    async def open(
        cls,
        path: str | Path = DEFAULT_PATH,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        upgrade: bool = True,
    ) -> Services:
        """Open the database (creating or migrating it unless not to `upgrade`: see
        :meth:`Database.open`) and the services on it."""
        db = await Database.open(path, upgrade=upgrade)
        clock = clock or SystemClock()
        tournaments = TournamentService(db, clock, finish_game)
        challenges = ChallengeService(db, clock, rng)
        games = GameService(db, clock)
        lookup = LookupService(db)
        await games.follow_other_processes()
        background = FileReader(
            timeout=BACKGROUND_SECONDS, preload=("bot.games.explorer", "bot.puzzles.service")
        )
        return cls(
            db=db,
            clock=clock,
            players=PlayerService(db, clock),
            guilds=GuildService(db),
            challenges=challenges,
            games=games,
            matches=MatchService(db),
            deadlines=DeadlineService(db, clock),
            lookup=lookup,
            ratings=RatingService(db),
            tournaments=tournaments,
            outbox=OutboxService(db, clock, told_late=give_time_back),
            pictures=PictureService(db, tournaments),
            wallets=WalletService(db, clock),
            notifications=NotificationService(db, clock),
            notes=NoteService(db, clock),
            conditions=ConditionService(db, clock),
            holds=HoldService(db, clock),
            opponent=OpponentService(db, clock, challenges, games),
            entry=EntryService(db, clock),
            corrections=CorrectionService(db, clock, finish_game),
            analysis=AnalysisService(db, clock, lookup),
            explorer=ExplorerService(db, background),
            background=background,
            leagues=LeagueService(db, clock, finish_game),
            seasons=SeasonService(db, clock, tournaments),
            puzzles=PuzzleService(db, clock, background),
        )

    async def close(self) -> None:
        await self.background.close()
        await self.db.close()
