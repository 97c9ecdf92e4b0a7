"""What the pictures show, read from the store and turned into the renderer's data: a tournament's
standings and bracket, a round's pairings, a player's rating history. Rendering them (Pillow, tens
of ms) is `rendering`'s job, left to the caller, which can do it off the event loop. Their words
are those of the language being spoken when the data is read (the renderers take them as given).

- Standings: names carry "(withdrew)" or "(DQ)"; a round robin gets a cross table whose cells are
  what each meeting added to the row player's ranking score (so a row's cells and byes add up to
  its points).
- Bracket: the entrants in bracket order by seed (as :func:`bot.tournaments.elimination_round`
  pairs them; byes go to the top seeds), each meeting's game points and winner from the recorded
  pairings. A groups -> knockout event's bracket holds the players through from the groups, by
  knockout seed, cross-seeded as its pairings are.
- Groups -> knockout: one standings table per group (with its cross table), then the bracket;
  a group-stage round's pairings under a heading per group.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from babel.numbers import get_decimal_symbol

from bot.games.model import check_size
from bot.languages import _, ngettext, spoken, thousands_separator
from bot.store import Database, from_db
from bot.tournaments import ScoringSystem, TieBreak, bracket_slots, group_name
from bot.tournaments.rounds import pairings_by_place
from bot.tournaments.service import TournamentService
from bot.tournaments.storage import (
    fetch_entrants,
    fetch_pairings,
    fetch_place_holders,
    fetch_tournament,
)
from bot.tournaments.tournament import (
    Entrant,
    EntrantStatus,
    PairingView,
    StandingRow,
    TournamentFormat,
    TournamentStatus,
    TournamentView,
)
from rendering.bracket import Bracket, BracketMatch, BracketWords
from rendering.bracket import Entrant as BracketEntrant
from rendering.chart import ChartWords, RatingHistory, RatingPoint
from rendering.diagram import NumberSymbols
from rendering.pairings import PairingRow, PairingsWords, RoundPairings
from rendering.standings import (
    CrossCell,
    Outcome,
    StandingsRow,
    StandingsTable,
    StandingsWords,
    TieBreakColumn,
)

ROUND_ROBINS = (
    TournamentFormat.ROUND_ROBIN,
    TournamentFormat.DOUBLE_ROUND_ROBIN,
    TournamentFormat.GROUPS,  # each group's table
)


def tie_break_short(kind: TieBreak) -> str:
    """A tie-break's column heading ("SB")."""
    return {
        TieBreak.HEAD_TO_HEAD: _("H2H"),
        TieBreak.SONNEBORN_BERGER: _("SB"),
        TieBreak.BUCHHOLZ: _("BH"),
    }[kind]


def tie_break_name(kind: TieBreak) -> str:
    """A tie-break's name in words (the export's CSV keeps :attr:`TieBreak.label`)."""
    return {
        TieBreak.HEAD_TO_HEAD: _("head-to-head"),
        TieBreak.SONNEBORN_BERGER: _("Sonneborn-Berger"),
        TieBreak.BUCHHOLZ: _("Buchholz"),
    }[kind]


def status_mark(status: EntrantStatus) -> str:
    """What follows a name that no longer plays: " (withdrew)", " (DQ)"; else nothing."""
    if status is EntrantStatus.WITHDRAWN:
        return _(" (withdrew)")
    if status is EntrantStatus.DISQUALIFIED:
        return _(" (DQ)")
    return ""


def stage(tournament: TournamentView) -> str:
    """ "after round 3", "final" ...: how far the tournament has got."""
    if tournament.status is TournamentStatus.FINISHED:
        return _("final")
    if tournament.status is TournamentStatus.CANCELLED:
        return _("cancelled")
    if tournament.current_round == 0:
        return _("before the start")
    return _("round {round}", round=tournament.current_round)


def number_symbols() -> NumberSymbols:
    """How the language spoken writes numbers, for the pictures ("13,30" in German)."""
    return NumberSymbols(get_decimal_symbol(spoken()), thousands_separator())


def standings_words() -> StandingsWords:
    return StandingsWords(
        title=_("Standings"),
        player=_("Player"),
        unnamed=_("Player {number}", number="{number}"),
        won=_("W"),
        drawn=_("D"),
        lost=_("L"),
        cross_legend=_("Points scored against each opponent (columns: row numbers)"),
        counts_legend=_("Matches won, drawn, lost"),
        numbers=number_symbols(),
    )


def bracket_words() -> BracketWords:
    return BracketWords(
        title=_("Bracket"),
        final=(_("Final"), _("Final")),
        semis=(_("Semis"), _("SF")),
        quarters=(_("Quarters"), _("QF")),
        round=(_("Round {number}", number="{number}"), _("R{number}", number="{number}")),
        winner=_("Winner"),
        winner_of=_("winner of {tag}", tag="{tag}"),
        bye=_("bye"),
        play_in=_("Play-in (round 1): the winners join the bracket"),
        section=_("Section {number} of {count}", number="{number}", count="{count}"),
        section_tag=_("section {number}", number="{number}"),
        last_rounds=_("The last rounds: the winners of the sections"),
        next_round=_("Next round: {round}", round="{round}"),
        numbers=number_symbols(),
    )


def pairings_words() -> PairingsWords:
    return PairingsWords(
        title=_("Pairings"),
        white=_("White"),
        black=_("Black"),
        result=_("Result"),
        bye=_("bye"),
        requested=_("bye (requested)"),
    )


def chart_words(count: int) -> ChartWords:
    """The chart's words for a history of `count` rated games (its summary counted already,
    the peak left for the renderer to fill in)."""
    summary = ngettext(
        "peak {peak} · {count} rated game",
        "peak {peak} · {count} rated games",
        count,
        peak="{peak}",
    )
    return ChartWords(
        player=_("Player"),
        summary=(summary, summary),
        empty=_("No rated games yet"),
        games=_("Rated games"),
        rating=_("Rating"),
    )


def group_tables(
    tournament: TournamentView, rows: Sequence[StandingRow], pairings: Iterable[PairingView]
) -> tuple[StandingsTable, ...]:
    """A groups -> knockout event's tables, one a group, from its group matches."""
    stage = [p for p in pairings if p.round <= tournament.group_stage_rounds]
    numbers = sorted({row.group for row in rows if row.group is not None})
    return tuple(
        standings_table(
            tournament,
            [row for row in rows if row.group == number],
            stage,
            title=_("{name}: group {group}", name=tournament.name, group=group_name(number)),
        )
        for number in numbers
    )


def standings_table(
    tournament: TournamentView,
    rows: Sequence[StandingRow],
    pairings: Iterable[PairingView],
    *,
    title: str | None = None,
) -> StandingsTable:
    """The table as a picture's data: places, names, W/D/L, the ranking score, tie-breaks, and
    for a round robin (or a group) the cross table."""
    scoring = tournament.scoring
    order = {row.player.id: index for index, row in enumerate(rows)}
    cross: list[list[CrossCell | None]] | None = None
    if tournament.format in ROUND_ROBINS:
        scored: dict[tuple[int, int], float] = {}
        fractions: dict[tuple[int, int], float] = {}
        for pairing in pairings:
            if pairing.player2 is None or not pairing.is_decided:
                continue
            result = pairing.result()
            for player in (result.player1, result.player2):
                key = (player, result.opponent(player))
                scored[key] = scored.get(key, 0) + scoring.ranking_points(result, player)
                fractions[key] = fractions.get(key, 0) + result.fraction_of(player) - 0.5
        cross = [[None] * len(rows) for _ in rows]
        for (player, opponent), points in scored.items():
            if player in order and opponent in order:
                balance = fractions[(player, opponent)]
                outcome = (
                    Outcome.WIN if balance > 0 else Outcome.LOSS if balance < 0 else Outcome.DRAW
                )
                cross[order[player]][order[opponent]] = CrossCell(points, outcome)
    table_rows = tuple(
        StandingsRow(
            place=row.standing.place,
            name=row.player.name + status_mark(row.status),
            points=row.standing.score,
            won=row.standing.won,
            drawn=row.standing.drawn,
            lost=row.standing.lost,
            tie_breaks=row.standing.tie_breaks,
            cross=None if cross is None else tuple(cross[index]),
        )
        for index, row in enumerate(rows)
    )
    match_points = scoring.system is ScoringSystem.MATCH_POINTS
    size = f"{tournament.setup.size}x{tournament.setup.size}"
    return StandingsTable(
        title=tournament.name if title is None else title,
        rows=table_rows,
        tie_breaks=tuple(
            TieBreakColumn(tie_break_short(t), tie_break_name(t)) for t in scoring.tie_breaks
        ),
        subtitle=(
            _(
                "Standings, {stage} · {size} · ranked by match points",
                stage=stage(tournament),
                size=size,
            )
            if match_points
            else _(
                "Standings, {stage} · {size} · ranked by game points",
                stage=stage(tournament),
                size=size,
            )
        ),
        points_heading=_("Pts") if match_points else _("GP"),
        words=standings_words(),
    )


def bracket(
    tournament: TournamentView, entrants: Sequence[Entrant], pairings: Iterable[PairingView]
) -> Bracket:
    """The knockout bracket, every round's meetings with their results so far (needs seeds: the
    tournament has started)."""
    group_of: dict[int, int] | None = None
    if tournament.format is TournamentFormat.GROUPS:
        seeded = sorted(
            (e for e in entrants if e.knockout_seed is not None), key=lambda e: e.knockout_seed or 0
        )
        group_of = {e.player.id: e.group for e in seeded if e.group is not None}
    else:
        seeded = sorted((e for e in entrants if e.seed is not None), key=lambda e: e.seed or 0)
    if len(seeded) < 2:
        raise ValueError("A bracket is drawn once the knockout has two players.")
    by_id = {e.player.id: e for e in seeded}
    slots = [
        None if p is None else by_id[p]
        for p in bracket_slots([e.player.id for e in seeded], group_of)
    ]
    met = {frozenset((p.player1.id, p.player2.id)): p for p in pairings if p.player2 is not None}
    rounds: list[tuple[BracketMatch, ...]] = []
    current = list(zip(slots[0::2], slots[1::2], strict=True))
    while True:
        matches: list[BracketMatch] = []
        winners: list[Entrant | None] = []
        for top, bottom in current:
            shown = (_entrant(top), _entrant(bottom))
            if top is None or bottom is None:
                matches.append(BracketMatch(shown))
                winners.append((top or bottom) if not rounds else None)
                continue
            pairing = met.get(frozenset((top.player.id, bottom.player.id)))
            if pairing is None or not pairing.is_decided:
                matches.append(BracketMatch(shown))
                winners.append(None)
                continue
            first = pairing.player1.id == top.player.id
            scores = (
                (pairing.points1, pairing.points2) if first else (pairing.points2, pairing.points1)
            )
            winner = None
            if pairing.winner is not None:
                winner = 0 if pairing.winner.id == top.player.id else 1
            matches.append(BracketMatch(shown, scores, winner))
            winners.append(None if winner is None else (top, bottom)[winner])
        rounds.append(tuple(matches))
        if len(winners) == 1:
            break
        current = list(zip(winners[0::2], winners[1::2], strict=True))
    return Bracket(
        title=tournament.name,
        rounds=tuple(rounds),
        subtitle=_(
            "Knockout, {stage} · {size}",
            stage=stage(tournament),
            size=f"{tournament.setup.size}x{tournament.setup.size}",
        ),
        words=bracket_words(),
    )


def _entrant(entrant: Entrant | None) -> BracketEntrant | None:
    if entrant is None:
        return None
    return BracketEntrant(
        entrant.player.name + status_mark(entrant.status),
        entrant.knockout_seed or entrant.seed,
    )


def round_pairings(
    tournament: TournamentView,
    number: int,
    pairings: Iterable[PairingView],
    entrants: Sequence[Entrant] = (),
    holders: Mapping[int, int] | None = None,
) -> RoundPairings:
    """A round's meetings, table by table, results where decided, and its byes. A group-stage
    round (given the `entrants`, and `holders` from
    :func:`bot.tournaments.storage.fetch_place_holders` for players replaced since) shows
    each group under its heading, the groups in order."""
    group_of: dict[int, int] = {}
    if tournament.format is TournamentFormat.GROUPS and number <= tournament.group_stage_rounds:
        group_of = {e.player.id: e.group for e in entrants if e.group is not None}
        group_of |= {old: group_of[new] for old, new in (holders or {}).items() if new in group_of}

    def group(pairing: PairingView) -> str:
        index = group_of.get(pairing.player1.id)
        return "" if index is None else _("Group {group}", group=group_name(index))

    ordered = sorted(pairings, key=lambda p: group_of.get(p.player1.id, -1))
    rows: list[PairingRow] = []
    byes: list[PairingView] = []
    for pairing in ordered:
        if pairing.player2 is None:
            byes.append(pairing)
            continue
        score = (pairing.points1, pairing.points2) if pairing.is_decided else None
        rows.append(
            PairingRow(
                len(rows) + 1, pairing.player1.name, pairing.player2.name, score, group(pairing)
            )
        )
    return RoundPairings(
        _("{name}: round {number}", name=tournament.name, number=number),
        tuple(rows),
        tuple(b.player1.name for b in byes),
        bye_groups=tuple(group(b) for b in byes) if group_of else (),
        requested=tuple(b.requested for b in byes) if any(b.requested for b in byes) else (),
        words=pairings_words(),
    )


@dataclass(frozen=True, slots=True)
class TournamentPictures:
    """The standings table (None before two players have joined) and, for a knockout that has
    started, its bracket. A groups -> knockout event that has started has one table a group in
    `groups` instead of `standings`, and its bracket once the groups are over."""

    standings: StandingsTable | None
    bracket: Bracket | None
    groups: tuple[StandingsTable, ...] = ()


class PictureService:
    def __init__(self, db: Database, tournaments: TournamentService) -> None:
        self._db = db
        self._tournaments = tournaments

    async def tournament(self, tournament_id: int) -> TournamentPictures:
        rows = await self._tournaments.standings(tournament_id)
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            every = await fetch_pairings(tx, tournament_id)
            every = pairings_by_place(every, await fetch_place_holders(tx, tournament_id))
        if any(row.group is not None for row in rows):
            groups = group_tables(tournament, rows, every)
            entrants = await self._tournaments.entrants(tournament_id)
            drawn = None
            if sum(1 for e in entrants if e.knockout_seed is not None) >= 2:
                drawn = bracket(tournament, entrants, every)
            return TournamentPictures(None, drawn, groups)
        table = standings_table(tournament, rows, every) if rows else None
        drawn = None
        if tournament.format is TournamentFormat.ELIMINATION and tournament.current_round:
            entrants = await self._tournaments.entrants(tournament_id)
            drawn = bracket(tournament, entrants, every)
        return TournamentPictures(table, drawn)

    async def round(self, tournament_id: int, number: int | None = None) -> RoundPairings:
        """A round's pairings (the current round by default); refused as
        :meth:`TournamentService.pairings` refuses."""
        shown = await self._tournaments.pairings(tournament_id, number)
        async with self._db.snapshot() as tx:
            tournament = await fetch_tournament(tx, tournament_id)
            entrants = await fetch_entrants(tx, tournament_id)
            holders = await fetch_place_holders(tx, tournament_id)
        return round_pairings(tournament, shown.number, shown.pairings, entrants, holders)

    async def rating_history(
        self, guild_id: int, player_id: int, name: str, size: int
    ) -> RatingHistory:
        """The player's rating after each rated game on `size` in the guild, oldest first."""
        check_size(size)
        rows = await self._db.fetchall(
            "SELECT rc.rating_after, g.finished_at FROM rating_changes rc "
            "JOIN games g ON g.id = rc.game_id "
            "WHERE g.guild_id = ? AND g.size = ? AND rc.player_id = ? "
            "ORDER BY g.finished_at, g.id",
            (guild_id, size, player_id),
        )
        points = tuple(
            RatingPoint(row["rating_after"], from_db(row["finished_at"])) for row in rows
        )
        return RatingHistory(name, points, f"{size}x{size}", chart_words(len(points)))
