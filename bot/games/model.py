"""What the services hand back: small frozen dataclasses, built from database rows.

They carry ids and plain values only (no discord.py), so the Discord layer can render them and
tests can compare them.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from bot.engine_sentences import engine_sentence
from bot.errors import InvalidSetting, NotInGame
from bot.languages import _, numeral
from bot.players.glicko2 import Rating
from bot.players.model import PlayerRef
from bot.store import Row, from_db
from bot.text_safety import one_line
from bot.timekeeping.control import PER_MOVE, TimeControl
from tak import (
    MAX_KOMI,  # PTN Ninja and PlayTak stop at 4.5
    STANDARD_RESERVES,
    Color,
    Opening,
    Position,
    Result,
    ResultKind,
    TakError,
    TPSError,
    equivalent_komi,
    parse_result,
    parse_tps,
    playable_reserve_problem,
    start_position,
)

MAX_DAYS_PER_MOVE = 30
MAX_MATCH_GAMES = 25
MAX_RESERVE = 200  # the most stones, or capstones, a player may have (the engine's limit)
# The reminder goes out when this share of the time for a move has passed.
REMINDER_FRACTION = 0.8


class ColourChoice(StrEnum):
    """The colour a challenger asks for: white is player 1, who moves first."""

    WHITE = "white"
    BLACK = "black"
    RANDOM = "random"


class GamePlace(StrEnum):
    """Where a game or a challenge lives: a channel of a server that installed Bredon, or,
    Bredon installed to a player's account, a DM between players, a group DM, or a server
    without Bredon. The last three are kept under :data:`NO_SERVER`: no server's lists,
    settings or ratings hold them."""

    SERVER = "server"
    DM = "dm"
    GROUP_DM = "group_dm"
    ELSEWHERE = "elsewhere"


# The guild id of every game and challenge outside Bredon's servers: their settings are the
# defaults (no server set them), their ratings one "anywhere" pool per size.
NO_SERVER = 0


class GameStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class MatchStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class GameRequest:
    """The options a player (or an organizer) gives for a game, as given: built once from a
    command's options, None where left to the server's defaults (or to the size's standard
    pieces), and checked whole by :meth:`GameSetup.create`, where every limit is.

    `stones` and `caps` are both players' (white's when black's are given apart: a handicap).
    `start` is where every game starts: a TPS, or opening moves in PTN from the empty board.
    `bank`, or `increment` up to `cap`, is the time control besides the days per move.
    """

    size: int | None = None
    komi: float | None = None
    days_per_move: int | None = None
    rated: bool | None = None  # None: rated unless the game starts from a position
    opening: Opening | str = Opening.SWAP
    antiquity: bool | None = None
    stones: int | None = None
    caps: int | None = None
    black_stones: int | None = None
    black_caps: int | None = None
    start: str | None = None
    bank: timedelta | None = None
    increment: timedelta | None = None
    cap: timedelta | None = None

    @property
    def start_tps(self) -> str | None:
        """The start position when `start` is a TPS: its ranks are apart by "/", which moves in
        PTN never have."""
        return self.start if self.start is not None and "/" in self.start else None

    @property
    def start_moves(self) -> str | None:
        """The opening's moves when `start` is PTN (not a TPS)."""
        return self.start if self.start is not None and "/" not in self.start else None

    @classmethod
    def of(cls, setup: GameSetup) -> GameRequest:
        """The request that gives `setup` again (the reserves left standard, a rating left to
        the start position when it is what the start gives anyway), to change some of it."""
        standard_stones, standard_caps = STANDARD_RESERVES[setup.size]
        (stones, black_stones), (caps, black_caps) = setup.stones, setup.caps
        clock = setup.clock
        return cls(
            size=setup.size,
            komi=setup.base_komi,
            days_per_move=setup.days_per_move,
            rated=None if setup.rated == (setup.start_tps is None) else setup.rated,
            opening=setup.opening,
            antiquity=setup.antiquity,
            stones=None if stones == standard_stones else stones,
            caps=None if caps == standard_caps else caps,
            black_stones=None if black_stones == stones else black_stones,
            black_caps=None if black_caps == caps else black_caps,
            start=setup.start_tps,
            bank=clock.bank or None,
            increment=clock.increment or None,
            cap=clock.cap or None,
        )


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything that fixes how a game is played; reserves are per colour (white, black).

    `base_komi` is the komi the players chose (stored, and the PTN Komi tag). `antiquity` is the
    beta rules' tie rule: a tied flat count goes to the player who went second, whatever the komi
    (:attr:`tak.Position.ties_to_black`).
    """

    size: int
    base_komi: float
    opening: Opening
    stones: tuple[int, int]
    caps: tuple[int, int]
    days_per_move: int
    rated: bool
    antiquity: bool = False
    clock: TimeControl = PER_MOVE  # a bank or an increment besides days_per_move
    start_tps: str | None = None  # a game set up from a TPS (never rated); None: the empty board

    @property
    def komi(self) -> float:
        """The komi that decides every game alike without a tie rule, for messages: with the
        antiquity rule a whole komi gains half a flat (komi 2 plays as 2.5), a half-flat komi
        stays (no count can tie). The game itself is played with `base_komi` and the rule."""
        return equivalent_komi(self.base_komi, self.antiquity)

    @classmethod
    def create(
        cls,
        request: GameRequest,
        *,
        size: int,
        komi: float,
        days_per_move: int,
        antiquity: bool = False,
    ) -> GameSetup:
        """The checked setup `request` asks for, `size`, `komi`, `days_per_move` and `antiquity`
        standing in for what it leaves as None (a start position gives its own size); raises
        :class:`InvalidSetting` with the reason. Every limit of a game's setup is checked here:
        the size, komi and days, the reserves (up to :data:`MAX_RESERVE` each), the opening, a
        start position that must fit the rest (:func:`tak.start_position`) and is never rated
        (`rated` left as None is rated only from the empty board), opening moves given as the
        position they lead to, and the time control for the days per move settled on."""
        start_tps, start_moves = request.start_tps, request.start_moves
        if request.size is None and start_tps is not None:
            # A TPS that is not one is refused with the setup.
            with contextlib.suppress(TPSError):
                size = parse_tps(start_tps).size
        size = size if request.size is None else request.size
        komi = komi if request.komi is None else request.komi
        days_per_move = days_per_move if request.days_per_move is None else request.days_per_move
        antiquity = antiquity if request.antiquity is None else request.antiquity
        check_size(size)
        check_komi(komi)
        check_days(days_per_move)
        try:
            opening = Opening(request.opening)
        except ValueError:
            raise InvalidSetting(_("The opening must be 'swap' or 'no-swap'.")) from None
        default_stones, default_caps = STANDARD_RESERVES[size]
        stones, caps = request.stones, request.caps
        black_stones, black_caps = request.black_stones, request.black_caps
        for value, refusal in (
            (stones, _("The number of stones must be from 0 to {most}.", most=MAX_RESERVE)),
            (caps, _("The number of capstones must be from 0 to {most}.", most=MAX_RESERVE)),
            (
                black_stones,
                _("The number of black's stones must be from 0 to {most}.", most=MAX_RESERVE),
            ),
            (
                black_caps,
                _("The number of black's capstones must be from 0 to {most}.", most=MAX_RESERVE),
            ),
        ):
            if value is not None and not 0 <= value <= MAX_RESERVE:
                raise InvalidSetting(refusal)
        white_stones = default_stones if stones is None else stones
        white_caps = default_caps if caps is None else caps
        stone_pair = (white_stones, white_stones if black_stones is None else black_stones)
        cap_pair = (white_caps, white_caps if black_caps is None else black_caps)
        problem = playable_reserve_problem(size, stone_pair, cap_pair, opening)
        if problem is not None:
            raise InvalidSetting(engine_sentence(problem))
        setup = cls(
            size, float(komi), opening, stone_pair, cap_pair, days_per_move, False, antiquity
        )
        if start_moves is not None:
            start_tps = setup.opening_tps(start_moves)
        rated = start_tps is None if request.rated is None else request.rated
        if start_tps is not None:
            start_tps = checked_start(start_tps, setup, rated)
        clock = TimeControl.create(
            days_per_move, bank=request.bank, increment=request.increment, cap=request.cap
        )
        return replace(setup, rated=rated, clock=clock, start_tps=start_tps)

    @property
    def standard_reserves(self) -> bool:
        stones, caps = STANDARD_RESERVES[self.size]
        return self.stones == (stones, stones) and self.caps == (caps, caps)

    def start_position(self) -> Position:
        if self.start_tps is not None:
            return self.position_at(self.start_tps)
        return Position(
            self.size,
            komi=self.base_komi,
            stones=self.stones,
            caps=self.caps,
            opening=self.opening,
            ties_to_black=self.antiquity,
        )

    def position_at(self, tps: str) -> Position:
        """The position `tps` in a game with these settings (no move history)."""
        return Position.from_tps(
            tps,
            komi=self.base_komi,
            stones=self.stones,
            caps=self.caps,
            opening=self.opening,
            ties_to_black=self.antiquity,
        )

    def opening_tps(self, moves: str) -> str:
        """The position after `moves` (PTN, from this setup's start) as TPS: a thematic
        opening. Refuses an illegal move with its reason, and a line that ends the game."""
        position = self.start_position()
        words = moves.replace(",", " ").split()
        if not words:
            raise InvalidSetting(_("Give the opening's moves in PTN, e.g. `a1 e5 c3`."))
        for word in words:
            try:
                position.play(word)
            except TakError as error:
                raise InvalidSetting(
                    _(
                        "The opening's move {move}: {reason}",
                        move=one_line(word),
                        reason=engine_sentence(str(error)),
                    )
                ) from None
            if position.result is not None:
                raise InvalidSetting(
                    _(
                        "The opening ends the game at {move}: a game cannot start there.",
                        move=one_line(word),
                    )
                )
        return position.tps()

    @property
    def start_ply(self) -> int:
        """The ply the game starts at: 0, or the TPS's (move 11 with black to move is ply 21)."""
        return 0 if self.start_tps is None else parse_tps(self.start_tps).ply


def checked_start(tps: str, setup: GameSetup, rated: bool) -> str:
    """The start position's TPS as the engine writes it, or :class:`InvalidSetting` saying why
    a game with `setup` cannot start there."""
    if rated:
        raise InvalidSetting(
            _("A game from a TPS position is never rated: leave `rated` out or set it to False.")
        )
    try:
        position = start_position(
            tps,
            size=setup.size,
            komi=setup.base_komi,
            stones=setup.stones,
            caps=setup.caps,
            opening=setup.opening,
            ties_to_black=setup.antiquity,
        )
    except TakError as error:
        raise InvalidSetting(
            _("That TPS cannot start a game: {reason}", reason=engine_sentence(str(error)))
        ) from None
    return position.tps()


def check_size(size: int) -> None:
    if size not in STANDARD_RESERVES:
        raise InvalidSetting(_("The board size must be from 3 to 8."))


def check_komi(komi: float) -> None:
    if komi * 2 != int(komi * 2) or abs(komi) > MAX_KOMI:
        raise InvalidSetting(
            _(
                "Komi must be a multiple of 0.5 from -{most} to {most} (e.g. 2 or 2.5).",
                most=numeral(MAX_KOMI),
            )
        )


def check_days(days: int) -> None:
    if not 1 <= days <= MAX_DAYS_PER_MOVE:
        raise InvalidSetting(_("Days per move must be from 1 to {most}.", most=MAX_DAYS_PER_MOVE))


@dataclass(frozen=True, slots=True)
class GameView:
    """A game as stored: who plays which colour, its settings, where it is, and how it ended.

    ``result`` holds the winner and the kind; a road's squares are on the final position
    (:meth:`bot.play.service.GameService.position`).
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    white: PlayerRef
    black: PlayerRef
    setup: GameSetup
    status: GameStatus
    result: Result | None
    points: int | None
    ply: int
    tps: str
    last_move: str | None  # PTN of the move that made `ply`
    draw_offer_by: int | None
    undo_request_by: int | None
    deadline_at: datetime | None
    reminder_at: datetime | None
    match_id: int | None
    match_game: int | None
    created_at: datetime
    last_move_at: datetime | None
    finished_at: datetime | None
    # What each player (white, black) has left on their clock: bank or time (None: days per move).
    clock_left: tuple[timedelta | None, timedelta | None] = (None, None)
    frozen_at: datetime | None = None  # the clock stands still since (a pause, a vacation)
    paused_at: datetime | None = None  # paused by agreement since
    pause_offer_by: int | None = None  # a pause proposed by
    tiebreak: int | None = None  # its number among its match's tiebreak games (1 for the first)
    place: GamePlace = GamePlace.SERVER

    @property
    def is_active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    @property
    def in_server(self) -> bool:
        """Played in a server that installed Bredon, where Bredon posts itself."""
        return self.place is GamePlace.SERVER

    @property
    def to_move(self) -> Color:
        return Color.WHITE if self.ply % 2 == 0 else Color.BLACK

    @property
    def player_to_move(self) -> PlayerRef:
        return self.player(self.to_move)

    @property
    def winner(self) -> PlayerRef | None:
        if self.result is None or self.result.winner is None:
            return None
        return self.player(self.result.winner)

    def player(self, color: Color) -> PlayerRef:
        return self.white if color is Color.WHITE else self.black

    def left_of(self, color: Color) -> timedelta | None:
        """The bank or time left on `color`'s clock (None: days per move)."""
        return self.clock_left[0 if color is Color.WHITE else 1]

    def color_of(self, player_id: int) -> Color:
        """The colour `player_id` plays; raises :class:`NotInGame` for anyone else."""
        if player_id == self.white.id:
            return Color.WHITE
        if player_id == self.black.id:
            return Color.BLACK
        raise NotInGame(self.id)

    def opponent_of(self, player_id: int) -> PlayerRef:
        return self.player(self.color_of(player_id).other)

    @property
    def plies_played(self) -> int:
        """Plies played in this game (a game set up from a TPS starts past ply 0)."""
        return self.ply - self.setup.start_ply

    def position_from_tps(self) -> Position:
        """The current position from the stored TPS (no move history: use it to read, not undo)."""
        return self.setup.position_at(self.tps)


@dataclass(frozen=True, slots=True)
class ChallengeView:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger: PlayerRef
    opponent: PlayerRef | None  # None: open to anyone
    colour: ColourChoice  # the challenger's
    setup: GameSetup
    games: int  # games in the match; 1 for a single game
    status: ChallengeStatus
    accepted_by: int | None
    game_id: int | None
    rematch_of: int | None
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None
    ante: int | None = None  # played for coins: each player's ante (bot.coins.service)
    place: GamePlace = GamePlace.SERVER

    @property
    def in_server(self) -> bool:
        """Made in a server that installed Bredon, where Bredon posts itself."""
        return self.place is GamePlace.SERVER

    @property
    def is_open(self) -> bool:
        return self.status is ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class TiebreakRule:
    """How a match that may not end drawn (``until_decided``) goes on when its games leave the
    players level: tiebreak games one at a time, with their own days per move and time control
    (``days_per_move`` None: the match's own), at most ``games`` of them (None: until one player
    leads). A match still level after the last one ends drawn; a tournament then sends the better
    seed through."""

    days_per_move: int | None = None
    clock: TimeControl = PER_MOVE
    games: int | None = None

    def setup(self, base: GameSetup) -> GameSetup:
        """A tiebreak game's setup: the match's own with this time control."""
        if self.days_per_move is None:
            return base
        return replace(base, days_per_move=self.days_per_move, clock=self.clock)

    def exhausted(self, played: int) -> bool:
        """Whether ``played`` tiebreak games are all there may be."""
        return self.games is not None and played >= self.games

    def to_db(self) -> tuple[int | None, int, int, int, int | None]:
        """The values of the ``tiebreak_*`` columns of matches and tournaments, in the order
        days per move, bank, increment, cap, games."""
        return (self.days_per_move, *self.clock.to_db(), self.games)


PLAIN_TIEBREAKS = TiebreakRule()  # the match's own time control, until one player leads


def tiebreak_from_row(row: Row) -> TiebreakRule:
    """The ``tiebreak_*`` columns of a matches or tournaments row."""
    return TiebreakRule(
        days_per_move=row["tiebreak_days_per_move"],
        clock=TimeControl.from_db(
            row["tiebreak_clock_bank"], row["tiebreak_clock_increment"], row["tiebreak_clock_cap"]
        ),
        games=row["tiebreak_games"],
    )


@dataclass(frozen=True, slots=True)
class MatchView:
    """An N-game series. Player 1 has white in odd-numbered games. An ``until_decided`` match
    goes past N games while the players are level (see :mod:`bot.games.matches`)."""

    id: int
    guild_id: int
    player1: PlayerRef
    player2: PlayerRef
    games_total: int
    games_played: int
    points1: int
    points2: int
    status: MatchStatus
    created_at: datetime
    finished_at: datetime | None
    until_decided: bool = False
    tiebreaks: TiebreakRule = PLAIN_TIEBREAKS  # how an until_decided match left level goes on

    def points_of(self, player_id: int) -> int:
        return self.points1 if player_id == self.player1.id else self.points2

    @property
    def leader(self) -> PlayerRef | None:
        """Who has more points so far (the winner once finished); None when level."""
        if self.points1 == self.points2:
            return None
        return self.player1 if self.points1 > self.points2 else self.player2


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    player: PlayerRef
    before: Rating
    after: Rating

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


# ----------------------------------------------------------------- rows to views


def game_from_row(row: Row, names: tuple[str, str] | None = None) -> GameView:
    """A row of :data:`GAME_SELECT`, or of the games table with the players' `names`."""
    white_name, black_name = names or (row["white_name"], row["black_name"])
    result = None
    if row["result"] is not None:
        result = Result(parse_result(row["result"]).winner, ResultKind(row["result_kind"]))
    setup = GameSetup(
        size=row["size"],
        base_komi=row["komi"],
        opening=Opening(row["opening"]),
        stones=(row["stones1"], row["stones2"]),
        caps=(row["caps1"], row["caps2"]),
        days_per_move=row["days_per_move"],
        rated=bool(row["rated"]),
        antiquity=bool(row["antiquity"]),
        clock=clock_from_row(row),
        start_tps=row["start_tps"],
    )
    return GameView(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        white=PlayerRef(row["white_id"], white_name),
        black=PlayerRef(row["black_id"], black_name),
        setup=setup,
        status=GameStatus(row["status"]),
        result=result,
        points=row["points"],
        ply=row["ply"],
        tps=row["tps"],
        last_move=row["last_ptn"],
        draw_offer_by=row["draw_offer_by"],
        undo_request_by=row["undo_request_by"],
        deadline_at=from_db(row["deadline_at"]),
        reminder_at=from_db(row["reminder_at"]),
        match_id=row["match_id"],
        match_game=row["match_game"],
        created_at=_required(row["created_at"]),
        last_move_at=from_db(row["last_move_at"]),
        finished_at=from_db(row["finished_at"]),
        clock_left=(_seconds(row["clock_left1"]), _seconds(row["clock_left2"])),
        frozen_at=from_db(row["frozen_at"]),
        paused_at=from_db(row["paused_at"]),
        pause_offer_by=row["pause_offer_by"],
        tiebreak=row["tiebreak"],
        place=GamePlace(row["place"]),
    )


def clock_from_row(row: Row) -> TimeControl:
    """The time control of a games, challenges or tournaments row."""
    return TimeControl.from_db(row["clock_bank"], row["clock_increment"], row["clock_cap"])


def _seconds(value: int | None) -> timedelta | None:
    return None if value is None else timedelta(seconds=value)


GAME_SELECT = """
SELECT g.*, w.name AS white_name, b.name AS black_name
FROM games g JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
"""


def challenge_from_row(row: Row) -> ChallengeView:
    """A row of :data:`CHALLENGE_SELECT`."""
    size = row["size"]
    default_stones, default_caps = STANDARD_RESERVES[size]
    stones = default_stones if row["stones"] is None else row["stones"]
    caps = default_caps if row["caps"] is None else row["caps"]
    black_stones = stones if row["stones2"] is None else row["stones2"]
    black_caps = caps if row["caps2"] is None else row["caps2"]
    opponent = None
    if row["opponent_id"] is not None:
        opponent = PlayerRef(row["opponent_id"], row["opponent_name"])
    return ChallengeView(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        message_id=row["message_id"],
        challenger=PlayerRef(row["challenger_id"], row["challenger_name"]),
        opponent=opponent,
        colour=ColourChoice(row["colour"]),
        setup=GameSetup(
            size=size,
            base_komi=row["komi"],
            opening=Opening(row["opening"]),
            stones=(stones, black_stones),
            caps=(caps, black_caps),
            days_per_move=row["days_per_move"],
            rated=bool(row["rated"]),
            antiquity=bool(row["antiquity"]),
            clock=clock_from_row(row),
            start_tps=row["start_tps"],
        ),
        games=row["games"],
        status=ChallengeStatus(row["status"]),
        accepted_by=row["accepted_by"],
        game_id=row["game_id"],
        rematch_of=row["rematch_of"],
        created_at=_required(row["created_at"]),
        expires_at=_required(row["expires_at"]),
        closed_at=from_db(row["closed_at"]),
        ante=row["ante"],
        place=GamePlace(row["place"]),
    )


CHALLENGE_SELECT = """
SELECT c.*, p.name AS challenger_name, o.name AS opponent_name
FROM challenges c JOIN players p ON p.id = c.challenger_id
LEFT JOIN players o ON o.id = c.opponent_id
"""


def match_from_row(row: Row) -> MatchView:
    """A row of :data:`MATCH_SELECT`."""
    return MatchView(
        id=row["id"],
        guild_id=row["guild_id"],
        player1=PlayerRef(row["player1_id"], row["player1_name"]),
        player2=PlayerRef(row["player2_id"], row["player2_name"]),
        games_total=row["games_total"],
        games_played=row["games_played"],
        points1=row["points1"],
        points2=row["points2"],
        status=MatchStatus(row["status"]),
        created_at=_required(row["created_at"]),
        finished_at=from_db(row["finished_at"]),
        until_decided=bool(row["until_decided"]),
        tiebreaks=tiebreak_from_row(row),
    )


MATCH_SELECT = """
SELECT m.*, p1.name AS player1_name, p2.name AS player2_name
FROM matches m JOIN players p1 ON p1.id = m.player1_id JOIN players p2 ON p2.id = m.player2_id
"""


def _required(text: str) -> datetime:
    moment = from_db(text)
    assert moment is not None
    return moment
