"""Groups -> knockout: round-robin groups played side by side, then a cross-seeded bracket.

- Groups are filled by seed in a snake: with two groups A gets seeds 1, 4, 5, 8 and B seeds
  2, 3, 6, 7; with three, A gets 1, 6, 7, 12 ... so the groups come out about equally strong and
  differ in size by one at most.
- Every group is a round robin (:func:`bot.tournaments.round_robin`); its round k is played in the
  tournament's round k, so the group stage lasts as many rounds as the largest group needs.
- Each group is ranked on its own matches with the tournament's scoring and tie-breaks; players
  still tied after every tie-break are listed by seed, so the better seed goes through.
- The top ``advance`` players of each group still in the tournament (withdrawn and disqualified
  players are passed over) enter the knockout, seeded by rank, then group: all group winners
  (A1, B1, C1 ...), then all runners-up (A2, B2 ...), and so on.
- The bracket is the standard one for those seeds (1 v N, 2 v N-1, byes to the top seeds), with
  round 1 cross-seeded (:func:`bot.tournaments.pairing.bracket_slots`): no two players of one group
  meet in round 1 when any pairing avoids it. Two groups with two through give A1 v B2, B1 v A2;
  four groups with two through give A1 v D2, D1 v A2, B1 v C2, C1 v B2.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from bot.tournaments.pairing import round_robin
from bot.tournaments.pairing_values import MatchResult, Round, TournamentError, check_players
from bot.tournaments.standings import DEFAULT_SCORING, Scoring, Standing, compute_standings

GROUP_LETTERS = "ABCDEFGH"
MAX_GROUPS = len(GROUP_LETTERS)  # each group's table is a picture: 8 and the bracket fit a message


def group_name(index: int) -> str:
    """ "A" for the first group (index 0), "B" for the second ..."""
    return GROUP_LETTERS[index]


def snake_groups(players: Sequence[int], group_count: int) -> tuple[tuple[int, ...], ...]:
    """The players (seed order) spread over ``group_count`` groups in a snake; each group in
    seed order. Every group gets at least two players."""
    field = check_players(players)
    most = min(MAX_GROUPS, len(field) // 2)
    if not 2 <= group_count <= most:
        raise TournamentError(
            f"{len(field)} players make 2 to {most} groups of two or more, not {group_count}."
        )
    groups: list[list[int]] = [[] for _ in range(group_count)]
    for index, player in enumerate(field):
        row, column = divmod(index, group_count)
        groups[column if row % 2 == 0 else group_count - 1 - column].append(player)
    return tuple(tuple(group) for group in groups)


def group_rounds(groups: Sequence[Sequence[int]]) -> list[Round]:
    """The group stage: round k holds round k of every group's round robin (a group with fewer
    rounds sits out the last ones). A round may hold one bye per group of odd size."""
    schedules = [round_robin(group) for group in groups]
    return [
        Round(
            tuple(p for schedule in schedules if k < len(schedule) for p in schedule[k].pairings),
            tuple(b for schedule in schedules if k < len(schedule) for b in schedule[k].byes),
        )
        for k in range(max(len(schedule) for schedule in schedules))
    ]


def group_tables(
    groups: Sequence[Sequence[int]],
    results: Iterable[MatchResult],
    byes: Iterable[int] = (),
    scoring: Scoring = DEFAULT_SCORING,
) -> list[list[Standing]]:
    """Each group's standings from its own matches (knockout matches are left out)."""
    results, byes = tuple(results), tuple(byes)
    tables = []
    for group in groups:
        members = frozenset(group)
        tables.append(
            compute_standings(
                group,
                [r for r in results if r.players <= members],
                [b for b in byes if b in members],
                scoring,
            )
        )
    return tables


def qualifiers(
    tables: Sequence[Sequence[Standing]], advance: int, active: Collection[int]
) -> list[int]:
    """Who goes through, in knockout seed order: every group's winner (in group order), then
    every runner-up, and so on; only players in ``active`` count."""
    if advance < 1:
        raise TournamentError("At least one player goes through from each group.")
    tops = [[row.player for row in table if row.player in active][:advance] for table in tables]
    return [top[rank] for rank in range(advance) for top in tops if rank < len(top)]
