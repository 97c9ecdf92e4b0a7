"""A single-elimination bracket as a picture: rounds left to right, the winner at the right end
(up to 8 players; in bigger brackets every column counts, and the winner goes under the final).

The caller gives the first round (its size a power of two, a missing entrant being a bye) and the
results known so far. Winners move on by themselves: a later match's entrant left unset is the
winner of the match that feeds it, and a bye's one entrant goes through. Rounds not given yet are
drawn as empty slots, so a bracket in progress shows what is still to be played. Names get the
room first: a big bracket leaves out the seeds, then the game points (the winner's name is the
bright one), before it cuts names shorter.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering.diagram import (
    MARGIN,
    MAX_WIDTH,
    SMALL,
    Box,
    Picture,
    Polyline,
    Rect,
    encode,
    name_text,
    number_text,
    text_width,
)
from rendering.render import resolve_theme
from rendering.themes import Theme

_SLOT = 38  # height of one entrant's line
_MATCH_GAP = 14  # between two first-round matches
_CONNECTORS = (26, 16)  # between two rounds' columns: small brackets, big ones
_MIN_NAME_ROOM = 110  # seeds are left out rather than leave names less room,
_MIN_SCORED_NAME_ROOM = 90  # and scores (the winner's name stands out anyway) rather than this
_MAX_COLUMN = 320
_MIN_WIDTH = 520


@dataclass(frozen=True, slots=True)
class Entrant:
    name: str
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match: its two entrants (top, bottom), the game points each scored, and the winner
    (0 for the top entrant, 1 for the bottom one; None while undecided)."""

    entrants: tuple[Entrant | None, Entrant | None] = (None, None)
    scores: tuple[float, float] | None = None
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.winner not in (None, 0, 1):
            raise ValueError(f"A match's winner is 0 (top) or 1 (bottom), not {self.winner}.")


@dataclass(frozen=True, slots=True)
class Bracket:
    title: str
    rounds: tuple[tuple[BracketMatch, ...], ...]
    subtitle: str = ""

    def __post_init__(self) -> None:
        if not self.rounds or not self.rounds[0]:
            raise ValueError("A bracket needs its first round.")
        first = len(self.rounds[0])
        if first & (first - 1):
            raise ValueError(f"A first round has a power of two matches, not {first}.")
        for number, matches in enumerate(self.rounds[1:], 2):
            expected = first >> (number - 1)
            if len(matches) != expected:
                raise ValueError(f"Round {number} has {expected} matches, not {len(matches)}.")

    @property
    def round_count(self) -> int:
        return len(self.rounds[0]).bit_length()


@dataclass(frozen=True, slots=True)
class _Played:
    """A match as drawn: entrants filled in from earlier rounds; `bye` when it is one."""

    entrants: tuple[Entrant | None, Entrant | None]
    scores: tuple[float, float] | None
    winner: int | None
    bye: bool

    def advancing(self) -> Entrant | None:
        if self.winner is not None:
            return self.entrants[self.winner]
        return None


def _played(bracket: Bracket) -> list[list[_Played]]:
    """Every match of every round, with winners and byes carried forward."""
    rounds: list[list[_Played]] = []
    for number in range(bracket.round_count):
        given = bracket.rounds[number] if number < len(bracket.rounds) else ()
        count = len(bracket.rounds[0]) >> number
        matches: list[_Played] = []
        for index in range(count):
            match = given[index] if given else BracketMatch()
            entrants = list(match.entrants)
            if number:
                feeders = rounds[-1][2 * index : 2 * index + 2]
                for side in (0, 1):
                    if entrants[side] is None:
                        entrants[side] = feeders[side].advancing()
            bye = number == 0 and (entrants[0] is None) != (entrants[1] is None)
            winner = match.winner
            if bye:
                winner = 0 if entrants[0] is not None else 1
            elif winner is not None and entrants[winner] is None:
                raise ValueError(f"Round {number + 1}, match {index + 1}: the winner is unknown.")
            top, bottom = entrants
            matches.append(_Played((top, bottom), match.scores, winner, bye))
        rounds.append(matches)
    return rounds


def _heading(number: int, count: int) -> str:
    """ "Final", "Semis", "Quarters" for the last three rounds, else "Round n"."""
    from_end = count - 1 - number
    return {0: "Final", 1: "Semis", 2: "Quarters"}.get(from_end, f"Round {number + 1}")


@dataclass(frozen=True, slots=True)
class BracketLayout:
    picture: Picture
    matches: tuple[tuple[Box, ...], ...]  # each round's match boxes
    champion: Box  # the winner's box, right of the final


def bracket_layout(bracket: Bracket, theme: str | Theme = "default") -> BracketLayout:
    """Where everything in the bracket goes (see :func:`render_bracket`)."""
    chosen = resolve_theme(theme)
    rounds = _played(bracket)
    count = len(rounds)
    # Up to 8 players the winner has a column of their own; beyond, every column counts and
    # the winner goes under the final.
    beside = count <= 3
    columns = count + 1 if beside else count
    entrants = [e for m in rounds[0] for e in m.entrants if e is not None]
    connector = _CONNECTORS[0] if count <= 3 else _CONNECTORS[1]
    seeds = [str(e.seed) for e in entrants if e.seed is not None]
    seed_room = max((text_width(seed, SMALL) for seed in seeds), default=-8.0) + 8
    scores = [number_text(s) for r in bracket.rounds for m in r for s in (m.scores or ())]
    score_room = max((text_width(s, SMALL) for s in scores), default=-12.0) + 12
    widest = max((text_width(name_text(e.name, "?"), SMALL) for e in entrants), default=100.0)
    natural = min(_MAX_COLUMN, 24 + seed_room + widest + score_room)  # 4 px for rounding
    column = min(natural, (MAX_WIDTH - 2 * MARGIN - count * connector) / columns)
    width = round(max(_MIN_WIDTH, 2 * MARGIN + columns * column + count * connector))
    column = (width - 2 * MARGIN - count * connector) / columns
    if column - 20 - seed_room - score_room < _MIN_NAME_ROOM:
        seed_room = 0
    if column - 20 - score_room < _MIN_SCORED_NAME_ROOM:
        score_room = 0

    picture = Picture(width, 0, chosen)
    y = picture.headline(bracket.title or "Bracket", bracket.subtitle)
    heading_y = y + round(SMALL * 1.9)
    top = heading_y + round(SMALL * 0.9)

    def column_left(number: int) -> float:
        return MARGIN + number * (column + connector)

    for number in range(columns):
        text = "Winner" if number == count else _heading(number, count)
        picture.text(
            text,
            (column_left(number), heading_y),
            size=SMALL,
            colour=chosen.muted,
            max_width=column,
            role=f"heading:{number}",
        )

    pitch = 2 * _SLOT + _MATCH_GAP
    centres: list[float] = [top + pitch * index + _SLOT for index in range(len(rounds[0]))]
    boxes: list[tuple[Box, ...]] = []
    for number, matches in enumerate(rounds):
        left = round(column_left(number))
        right = round(column_left(number) + column)
        round_boxes: list[Box] = []
        for index, match in enumerate(matches):
            centre = centres[index]
            box = (left, round(centre - _SLOT), right, round(centre + _SLOT))
            round_boxes.append(box)
            _draw_match(picture, match, box, seed_room, score_room, f"{number}:{index}")
            if number:
                for feeder in boxes[-1][2 * index : 2 * index + 2]:
                    middle = (feeder[1] + feeder[3]) / 2
                    elbow = feeder[2] + connector / 2
                    points = ((feeder[2], middle), (elbow, middle), (elbow, centre), (left, centre))
                    picture.shapes.append(Polyline(points, chosen.muted, 3))
        boxes.append(tuple(round_boxes))
        centres = [(centres[i] + centres[i + 1]) / 2 for i in range(0, len(centres) - 1, 2)]

    final = boxes[-1][0]
    middle = (final[1] + final[3]) / 2
    if beside:
        left = round(column_left(count))
        champion_box = (
            left,
            round(middle - _SLOT / 2 - 4),
            width - MARGIN,
            round(middle + _SLOT / 2 + 4),
        )
        picture.shapes.append(Polyline(((final[2], middle), (left, middle)), chosen.muted, 3))
    else:
        left = final[0]
        below = final[3] + round(SMALL * 1.8)
        picture.text(
            "Winner",
            (left, below - round(SMALL * 0.5)),
            size=SMALL,
            colour=chosen.muted,
            role="winner-heading",
        )
        champion_box = (left, below, final[2], below + _SLOT + 8)
    winner = rounds[-1][0].advancing()
    if winner is None:
        picture.shapes.append(Rect(champion_box, None, chosen.muted, 8, 2))
    else:
        picture.shapes.append(Rect(champion_box, chosen.panel, chosen.alert, 8, 3))
        picture.text(
            name_text(winner.name, "?"),
            (left + 12, (champion_box[1] + champion_box[3]) / 2),
            colour=chosen.text,
            on=chosen.panel,
            anchor="lm",
            max_width=column - 24,
            role="champion",
        )
    picture.height = round(top + pitch * len(rounds[0]) - _MATCH_GAP + MARGIN)
    return BracketLayout(picture, tuple(boxes), champion_box)


def _draw_match(
    picture: Picture,
    match: _Played,
    box: Box,
    seed_room: float,
    score_room: float,
    where: str,
) -> None:
    theme = picture.theme
    left, top, right, bottom = box
    picture.shapes.append(Rect(box, theme.panel, radius=8))
    picture.shapes.append(
        Polyline(((left, (top + bottom) / 2), (right - 1, (top + bottom) / 2)), theme.background, 2)
    )
    for side, entrant in enumerate(match.entrants):
        centre = top + _SLOT * (side + 0.5)
        role = f"slot:{where}:{side}"
        if entrant is None:
            if match.bye:
                picture.text(
                    "bye",
                    (left + 10 + seed_room, centre),
                    size=SMALL,
                    colour=theme.muted,
                    on=theme.panel,
                    anchor="lm",
                    role=role,
                )
            continue
        won = match.winner == side
        ink = theme.muted if match.winner is not None and not won else theme.text
        if entrant.seed is not None and seed_room:
            picture.text(
                str(entrant.seed),
                (left + 10, centre),
                size=SMALL,
                colour=theme.muted,
                on=theme.panel,
                anchor="lm",
                role=f"seed:{where}:{side}",
            )
        scores = match.scores if score_room > 0 else None
        room = right - left - 20 - seed_room - (score_room if scores else 0)
        picture.text(
            name_text(entrant.name, "?"),
            (left + 10 + seed_room, centre),
            size=SMALL,
            colour=ink,
            on=theme.panel,
            anchor="lm",
            max_width=room,
            role=role,
        )
        if scores is not None:
            picture.text(
                number_text(scores[side]),
                (right - 10, centre),
                size=SMALL,
                colour=ink,
                on=theme.panel,
                anchor="rm",
                role=f"score:{where}:{side}",
            )


def render_bracket(bracket: Bracket, theme: str | Theme = "default") -> bytes:
    """The bracket as PNG bytes, at most :data:`rendering.diagram.MAX_WIDTH` px wide.

    Raises ValueError for an unknown theme, a first round that is not a power of two matches, a
    later round of the wrong size, or a winner who is not in their match.
    """
    return encode(bracket_layout(bracket, theme).picture)
