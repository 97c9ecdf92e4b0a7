"""Who plays whom: round robin (Berger tables), Swiss and single elimination.

Players are Discord user ids given in seed order (the first is the top seed). A pairing's
``player1`` has white in the match's first game; the service alternates colours after that.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.pairing_values import (
    MatchResult,
    Pairing,
    Round,
    TournamentError,
    check_players,
)
from bot.tournaments.standings import DEFAULT_SCORING, Scoring, ranking_scores

# ----------------------------------------------------------------------------- round robin


def round_robin(players: Sequence[int], *, double: bool = False) -> list[Round]:
    """Every round of a round robin, by the circle (Berger) method.

    The last seat stays put while the others turn around it; with an odd field it is an empty
    seat, and whoever faces it has the bye, so byes go once to each player. The fixed seat
    alternates colours and the others follow FIDE's Berger tables. A double round robin repeats
    the cycle with every colour swapped.
    """
    field = check_players(players)
    seats: list[int | None] = list(field)
    if len(seats) % 2:
        seats.append(None)
    moving, fixed, half = len(seats) - 1, seats[-1], len(seats) // 2
    rounds: list[Round] = []
    for number in range(moving):
        pivot = number * half % moving
        tables = [(seats[pivot], fixed) if number % 2 == 0 else (fixed, seats[pivot])]
        tables += [
            (seats[(pivot + k) % moving], seats[(pivot - k) % moving]) for k in range(1, half)
        ]
        pairings = tuple(Pairing(a, b) for a, b in tables if a is not None and b is not None)
        byes = tuple(
            p for a, b in tables if a is None or b is None for p in (a, b) if p is not None
        )
        rounds.append(Round(pairings, byes))
    if double:
        rounds += [Round(tuple(p.swapped() for p in r.pairings), r.byes) for r in rounds]
    return rounds


# ----------------------------------------------------------------------------- Swiss


@dataclass(frozen=True, slots=True)
class _SwissHistory:
    """What the next Swiss round depends on, gathered from the results so far."""

    scores: dict[int, float]
    opponents: dict[int, Counter[int]]
    balance: dict[int, int]  # times player 1 minus times player 2
    last_role: dict[int, int]  # 1 or 2 in the player's latest match; absent before any
    byes: Counter[int]  # the odd player's byes each had


def _swiss_history(
    field: tuple[int, ...],
    results: Sequence[MatchResult],
    byes: Sequence[int],
    scoring: Scoring,
    requested_byes: Sequence[int],
) -> _SwissHistory:
    # Withdrawn players keep their results: they still count for their opponents' history.
    everyone = list(field)
    for player in [*byes, *requested_byes, *(p for r in results for p in (r.player1, r.player2))]:
        if player not in everyone:
            everyone.append(player)
    opponents: dict[int, Counter[int]] = {p: Counter() for p in everyone}
    balance = dict.fromkeys(everyone, 0)
    last_role: dict[int, int] = {}
    for result in sorted(results, key=lambda r: r.round):
        opponents[result.player1][result.player2] += 1
        opponents[result.player2][result.player1] += 1
        balance[result.player1] += 1
        balance[result.player2] -= 1
        last_role[result.player1], last_role[result.player2] = 1, 2
    return _SwissHistory(
        scores=ranking_scores(everyone, results, byes, scoring, requested_byes),
        opponents=opponents,
        balance=balance,
        last_role=last_role,
        byes=Counter(byes),
    )


def _colours_clash(history: _SwissHistory, a: int, b: int) -> bool:
    """Both already had the same colour once more than the other: one would go two over."""
    return history.balance[a] * history.balance[b] > 0


def _matching_size(vertices: list[int], edges: list[int]) -> int:
    """The size of a largest matching among ``vertices`` (indices; ``edges[v]`` is the bitmask of
    v's neighbours), by Edmonds' blossom algorithm. It tells the Swiss search exactly whether the
    players left can all be paired without a repeat or a clash, so it never explores a branch
    that cannot be completed (plain backtracking took minutes on late rounds of large fields)."""
    count = len(vertices)
    local = {v: i for i, v in enumerate(vertices)}
    neighbours = [[local[u] for u in vertices if edges[v] >> u & 1] for v in vertices]
    match = [-1] * count

    def augment_from(root: int) -> bool:
        parent = [-1] * count
        base = list(range(count))
        used = [False] * count
        used[root] = True
        queue = deque([root])

        def common_base(a: int, b: int) -> int:
            seen = [False] * count
            while True:
                a = base[a]
                seen[a] = True
                if match[a] == -1:
                    break
                a = parent[match[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[match[b]]

        def mark(v: int, stop: int, child: int, blossom: list[bool]) -> None:
            while base[v] != stop:
                blossom[base[v]] = blossom[base[match[v]]] = True
                parent[v] = child
                child = match[v]
                v = parent[match[v]]

        while queue:
            v = queue.popleft()
            for to in neighbours[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    stop = common_base(v, to)
                    blossom = [False] * count
                    mark(v, stop, to, blossom)
                    mark(to, stop, v, blossom)
                    for i in range(count):
                        if blossom[base[i]]:
                            base[i] = stop
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:  # an augmenting path: flip it back to the root
                        while to != -1:
                            previous = match[parent[to]]
                            match[to], match[parent[to]] = parent[to], to
                            to = previous
                        return True
                    used[match[to]] = True
                    queue.append(match[to])
        return False

    for v in range(count):
        if match[v] == -1:
            for to in neighbours[v]:
                if match[to] == -1:
                    match[v], match[to] = to, v
                    break
    for v in range(count):
        if match[v] == -1:
            augment_from(v)
    return sum(1 for v in range(count) if match[v] > v)


class _SwissSearch:
    """Backtracking over the score-ordered list for a pairing within a budget of forbidden pairs
    (``crossings``), repeats and colour clashes. The top remaining player tries opponents in
    Dutch order: the middle of their score group first (1 v 3 and 2 v 4 in a group of four),
    then upwards, then lower groups.

    Sets of players are bitmasks over the ranking. A branch is cut as soon as the players left
    cannot be paired within the budget (quick counts first, then largest matchings), and a set
    that failed is remembered with its budget, so every smaller budget fails at once. Without
    ``crossing`` (no forbidden pair may be paired) the quick counts leave forbidden partners out,
    which cuts more."""

    def __init__(
        self,
        ranked: list[int],
        history: _SwissHistory,
        forbidden: frozenset[frozenset[int]],
        *,
        crossing: bool = False,
    ) -> None:
        self.ranked = ranked
        self.history = history
        self.index = {p: i for i, p in enumerate(ranked)}
        self.forbidden = forbidden
        self.allowed = [self._partners(a, lambda a, b: True, forbidden) for a in ranked]
        barred = frozenset() if crossing else forbidden
        self.fresh = [
            self._partners(a, lambda a, b: not history.opponents[a][b], barred) for a in ranked
        ]
        self.calm = [
            self._partners(a, lambda a, b: not _colours_clash(history, a, b), barred)
            for a in ranked
        ]
        self.free = [f & c for f, c in zip(self.fresh, self.calm, strict=True)]
        self.failed: dict[int, list[tuple[int, int, int]]] = {}

    def _partners(
        self, player: int, allowed: Callable[[int, int], bool], barred: frozenset[frozenset[int]]
    ) -> int:
        """The bitmask of the players ``player`` may meet (never a ``barred`` pair) for whom
        ``allowed`` holds."""
        return sum(
            1 << i
            for i, p in enumerate(self.ranked)
            if p != player and frozenset((player, p)) not in barred and allowed(player, p)
        )

    def fewest_crossings(self, mask: int) -> int:
        """The fewest forbidden pairs a pairing of the players in ``mask`` has: those left out of
        a largest matching without one can be paired among themselves in any way."""
        indices = [i for i in range(len(self.ranked)) if mask >> i & 1]
        return len(indices) // 2 - _matching_size(indices, self.allowed)

    def _within_budget(
        self, mask: int, remaining: list[int], crossings: int, repeats: int, clashes: int
    ) -> bool:
        """Whether the players in ``mask`` could still be paired within the budget, by counting
        those whom every possible partner costs a repeat, a clash or either; and players one
        colour over who outnumber everyone they could meet without a clash."""
        lonely = [0, 0, 0]
        for p in remaining:
            i = self.index[p]
            lonely[0] += not self.fresh[i] & mask
            lonely[1] += not self.calm[i] & mask
            lonely[2] += not self.fresh[i] & self.calm[i] & mask
        over = sum(1 for p in remaining if self.history.balance[p] > 0)
        under = sum(1 for p in remaining if self.history.balance[p] < 0)
        even = len(remaining) - over - under
        clash_floor = max(0, over - under - even, under - over - even) // 2
        if not (
            (lonely[0] + 1) // 2 <= repeats
            and max((lonely[1] + 1) // 2, clash_floor) <= clashes
            and (lonely[2] + 1) // 2 <= repeats + clashes
        ):
            return False
        # Exact where a budget is spent: without repeats (or clashes) allowed, the players need a
        # perfect matching among the pairs that cost none.
        indices = [self.index[p] for p in remaining]
        pairs = len(remaining) // 2
        if self.forbidden and pairs - _matching_size(indices, self.allowed) > crossings:
            return False
        if pairs - _matching_size(indices, self.free) > repeats + clashes:
            return False
        if repeats == 0 and clashes and _matching_size(indices, self.fresh) < pairs:
            return False
        return not (clashes == 0 and repeats and _matching_size(indices, self.calm) < pairs)

    def pair(
        self, mask: int, crossings: int, repeats: int, clashes: int
    ) -> list[tuple[int, int]] | None:
        if mask == 0:
            return []
        budget = (crossings, repeats, clashes)
        failures = self.failed.setdefault(mask, [])
        if any(all(f >= b for f, b in zip(failed, budget, strict=True)) for failed in failures):
            return None
        remaining = [p for i, p in enumerate(self.ranked) if mask >> i & 1]
        if self._within_budget(mask, remaining, crossings, repeats, clashes):
            top, scores = remaining[0], self.history.scores
            group = [p for p in remaining if scores[p] == scores[top]]
            middle = max(1, len(group) // 2)
            order = group[middle:] + group[middle - 1 : 0 : -1] + remaining[len(group) :]
            for opponent in order:
                crossing = int(not self.allowed[self.index[top]] >> self.index[opponent] & 1)
                repeat = int(self.history.opponents[top][opponent] > 0)
                clash = int(_colours_clash(self.history, top, opponent))
                if crossing > crossings or repeat > repeats or clash > clashes:
                    continue
                rest = mask & ~(1 << self.index[top]) & ~(1 << self.index[opponent])
                found = self.pair(rest, crossings - crossing, repeats - repeat, clashes - clash)
                if found is not None:
                    return [(top, opponent), *found]
        failures.append(budget)
        return None


def _colours(history: _SwissHistory, seed: dict[int, int], a: int, b: int) -> Pairing:
    """Player 1 to whoever has been player 1 less often (relative to player 2), then to whoever
    was player 2 in their latest match, then to the better seed."""

    def claim(p: int) -> tuple[int, int, int]:
        return (history.balance[p], -int(history.last_role.get(p) == 2), seed[p])

    first, second = sorted((a, b), key=claim)
    return Pairing(first, second)


def swiss_round(
    players: Sequence[int],
    results: Iterable[MatchResult] = (),
    byes: Iterable[int] = (),
    scoring: Scoring = DEFAULT_SCORING,
    *,
    requested_byes: Iterable[int] = (),
    sitting_out: Iterable[int] = (),
    forbidden: Iterable[frozenset[int]] = (),
) -> Round:
    """The next Swiss round for ``players`` (the active field in seed order) after ``results``,
    ``byes`` (the odd player's) and ``requested_byes`` of the earlier rounds (withdrawn players'
    results included).

    The players of ``sitting_out`` asked for a bye this round: they are left out and get a
    requested bye (``Round.requested``), which neither is nor uses up the odd player's bye. The
    others are paired. Players rank by score, then seed. Among all pairings, in order of priority,
    it chooses one without a ``forbidden`` pair, then with the fewest repeat meetings, then the
    fewest colour clashes (a player ending two colours over), then the bye to the lowest-ranked
    player who has not had one, then the Dutch order of :class:`_SwissSearch`. When every pairing
    has a forbidden pair, it chooses among those with the fewest forbidden pairs (whatever the
    repeats) by the same order; :func:`forbidden_pairs_met` names them. A player gets a second odd
    player's bye only when the players asking for a bye leave an odd field of players who have
    all had one; without such requests that field cannot be paired (TournamentError).
    """
    field = check_players(players)
    resting = tuple(dict.fromkeys(sitting_out))
    strangers = sorted(set(resting) - set(field))
    if strangers:
        raise TournamentError(f"Players {strangers} asked for a bye but are not in the field.")
    history = _swiss_history(field, tuple(results), tuple(byes), scoring, tuple(requested_byes))
    seed = {p: i for i, p in enumerate(field)}
    ranked = sorted(
        (p for p in field if p not in resting), key=lambda p: (-history.scores[p], seed[p])
    )
    candidates = _bye_candidates(ranked, history, bool(resting))
    kept_apart = frozenset(pair for pair in map(frozenset, forbidden) if pair <= set(ranked))
    search = _SwissSearch(ranked, history, kept_apart)
    found = _swiss_search(search, candidates, 0)
    if found is None:  # every pairing has a forbidden pair: as few as possible, then as usual
        search = _SwissSearch(ranked, history, kept_apart, crossing=True)
        full = (1 << len(ranked)) - 1
        fewest = min(
            search.fewest_crossings(full if bye is None else full & ~(1 << search.index[bye]))
            for bye in candidates
        )
        found = _swiss_search(search, candidates, fewest)
        assert found is not None, "a pairing with that many forbidden pairs exists"
    pairs, bye = found
    pairings = tuple(_colours(history, seed, a, b) for a, b in pairs)
    return Round(pairings, () if bye is None else (bye,), resting)


def _bye_candidates(
    ranked: list[int], history: _SwissHistory, anyone_resting: bool
) -> list[int | None]:
    """Who may get the odd player's bye, lowest-ranked first ([None]: an even field pairs
    everyone). Those without one; when all have had one and some players sit out by request
    (which made the field odd), those with the fewest, rather than end the tournament early.
    Otherwise an odd field of players who have all had their bye cannot be paired."""
    if len(ranked) % 2 == 0:
        return [None]
    fewest = min(history.byes[p] for p in ranked)
    if fewest and not anyone_resting:
        raise TournamentError("Every player has had a bye, so an odd field cannot be paired again.")
    return [p for p in reversed(ranked) if history.byes[p] == fewest]


def _swiss_search(
    search: _SwissSearch, candidates: list[int | None], crossings: int
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The best pairing of the ranked players with at most ``crossings`` forbidden pairs and its
    bye (one of ``candidates``), by the priorities of :func:`swiss_round`; None when there is
    none."""
    full = (1 << len(search.ranked)) - 1
    most = len(search.ranked) // 2
    for repeats in range(most + 1):
        for clashes in range(most + 1):
            for bye in candidates:
                mask = full if bye is None else full & ~(1 << search.index[bye])
                found = search.pair(mask, crossings, repeats, clashes)
                if found is not None:
                    return found, bye
    return None


def forbidden_pairs_met(round_: Round, forbidden: Iterable[frozenset[int]]) -> list[Pairing]:
    """The pairings of ``round_`` between players who should not meet (only when no pairing
    avoided them all)."""
    apart = {frozenset(pair) for pair in forbidden}
    return [pairing for pairing in round_.pairings if pairing.players in apart]


# ----------------------------------------------------------------------------- elimination


def elimination_round_count(player_count: int) -> int:
    """Rounds until a single winner: ceil(log2 N)."""
    return math.ceil(math.log2(player_count)) if player_count > 1 else 0


def bracket_seeds(size: int) -> list[int]:
    """Seed indices in bracket order, so 1 v N, 2 v N-1 ... and the top seeds meet late:
    [0, 7, 3, 4, 1, 6, 2, 5] for eight."""
    order = [0]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) - 1 - seed)]
    return order


def _cross_seeded(
    slots: list[int | None], seed: Mapping[int, int], group_of: Mapping[int, int]
) -> list[int | None]:
    """``slots`` with the round-1 opponents of the better seeds reassigned so that no two players
    of the same group meet in round 1, whenever some assignment allows it.

    Each round-1 meeting keeps its better seed in place; the better seeds, best first, take the
    worst remaining other seed (the standard 1 v N, 2 v N-1 order) unless that opponent is from
    their own group or would leave the rest impossible to pair across groups. Without a clash the
    bracket stays the standard one; when a clash cannot be avoided (one group has more than half
    of the round-1 players) the standard bracket is kept as it is."""
    tables = [(slots[2 * i], slots[2 * i + 1]) for i in range(len(slots) // 2)]
    highs = sorted((a for a, b in tables if a is not None and b is not None), key=seed.__getitem__)
    lows = sorted((b for a, b in tables if a is not None and b is not None), key=seed.__getitem__)

    def group(player: int) -> object:
        return group_of.get(player, ("alone", player))

    def pairable(highs_left: Sequence[int], lows_left: Sequence[int]) -> bool:
        """Hall's condition: a cross-group pairing exists iff no group has more than half."""
        counts = Counter(group(p) for p in [*highs_left, *lows_left])
        return all(n <= len(highs_left) for n in counts.values())

    if not pairable(highs, lows):
        return slots
    opponent: dict[int, int] = {}
    for index, high in enumerate(highs):
        low = next(
            low
            for low in reversed(lows)
            if group(low) != group(high)
            and pairable(highs[index + 1 :], [p for p in lows if p != low])
        )
        opponent[high] = low
        lows.remove(low)
    result = list(slots)
    for i, (a, b) in enumerate(tables):
        if a is not None and b is not None:
            result[2 * i + 1] = opponent[a]
    return result


def bracket_slots(
    players: Sequence[int], group_of: Mapping[int, int] | None = None
) -> list[int | None]:
    """The bracket's seats in order (``None`` for a bye's empty seat): seats 0 and 1 meet in
    round 1, their winner meets the winner of seats 2 and 3, and so on. ``players`` are in seed
    order; with ``group_of`` (each player's group in a groups -> knockout event) round 1 is
    cross-seeded by :func:`_cross_seeded`."""
    field = check_players(players)
    size = 1 << (len(field) - 1).bit_length()
    slots: list[int | None] = [field[i] if i < len(field) else None for i in bracket_seeds(size)]
    if not group_of:
        return slots
    return _cross_seeded(slots, {p: i for i, p in enumerate(field)}, group_of)


@dataclass(frozen=True, slots=True)
class _Bracket:
    """How far a bracket has got: the round to play next (none once it is decided) and who is
    still in."""

    current: Round | None
    remaining: tuple[int, ...]


def _walk_bracket(
    players: Sequence[int], results: Iterable[MatchResult], group_of: Mapping[int, int] | None
) -> _Bracket:
    entrants = bracket_slots(players, group_of)
    seed = {p: i for i, p in enumerate(players)}
    by_players: dict[frozenset[int], MatchResult] = {}
    for result in results:
        if result.players in by_players:
            raise TournamentError(f"Players {sorted(result.players)} can meet only once.")
        by_players[result.players] = result
    used = 0
    number = 1
    while len(entrants) > 1:
        pairings: list[Pairing] = []
        byes: list[int] = []
        for a, b in zip(entrants[0::2], entrants[1::2], strict=True):
            if a is None or b is None:
                byes.extend(p for p in (a, b) if p is not None)
            else:
                pairings.append(Pairing(*sorted((a, b), key=seed.__getitem__)))
        played = [by_players.get(p.players) for p in pairings]
        current = Round(tuple(pairings), tuple(byes))
        if not any(played):
            break
        missing = [p for p, r in zip(pairings, played, strict=True) if r is None]
        if missing:
            raise TournamentError(
                f"Round {number} is not finished: {missing[0].player1} v "
                f"{missing[0].player2} has no result."
            )
        winners: set[int] = set()
        for meeting in played:
            assert meeting is not None
            if meeting.winner is None:
                raise TournamentError(
                    f"{meeting.player1} v {meeting.player2} is drawn: an elimination match needs "
                    "extra games until one of them wins."
                )
            winners.add(meeting.winner)
        used += len(played)
        number += 1
        entrants = [p for p in entrants if p in winners or p in byes]
    else:
        current = None
    if used != len(by_players):
        raise TournamentError("Some results are for matches that are not in the bracket.")
    return _Bracket(current, tuple(p for p in entrants if p is not None))


def elimination_round(
    players: Sequence[int],
    results: Iterable[MatchResult] = (),
    *,
    group_of: Mapping[int, int] | None = None,
) -> Round | None:
    """The next round of a single-elimination bracket for ``players`` (seed order) after
    ``results`` (each with its match winner: drawn matches are settled by the caller's extra
    games first), or ``None`` once the bracket has its winner.

    The bracket is the next power of two; the missing seats are byes, which go to the top seeds
    in the first round. The better seed is player 1. ``group_of`` cross-seeds round 1 (see
    :func:`bracket_slots`).
    """
    return _walk_bracket(players, results, group_of).current


def elimination_winner(
    players: Sequence[int],
    results: Iterable[MatchResult],
    *,
    group_of: Mapping[int, int] | None = None,
) -> int | None:
    """The bracket's winner, or ``None`` while matches remain."""
    bracket = _walk_bracket(players, results, group_of)
    return bracket.remaining[0] if bracket.current is None else None
