"""A single-elimination bracket as a picture: rounds left to right, the winner at the right end
(up to 8 players). In bigger brackets every column counts: from the third round on, each round
stands only half a column right of the one before, its boxes in the gaps between their feeders'
boxes (joined by straight lines), and the winner's box goes above the last two rounds; headings
too long for their room are shortened ("QF", "R3").

The caller gives the first round (its size a power of two, a missing entrant being a bye) and the
results known so far. Winners move on by themselves: a later match's entrant left unset is the
winner of the match that feeds it, and a bye's one entrant goes through. Rounds not given yet are
drawn as empty slots, so a bracket in progress shows what is still to be played.

A first round that is mostly byes is a play-in: only its played matches are drawn, above the
bracket, tagged P1, P2...; the bracket starts at round 2, where a slot waiting for a play-in's
winner says so (33 players: one play-in feeding a bracket of 32, not 64 slots and 31 byes). Seeds
and game points are always shown; a name too long for its line takes two, broken between words
(a word too long for a line is cut with an ellipsis).

A phone shows a picture 400 px wide, so one of 64 players (5,000 px tall) shrinks to a strip no
one can follow. :func:`bracket_pictures` splits a bracket of more than :data:`SECTION` players in
its main first round into sections of 16, each a picture of its own as tall as a 16-player
bracket (its four rounds, up to the player who comes through it, whose box is just below the
section's last match), and one picture more for the last rounds, between the sections' winners.
Sections rather than two halves side by side: side by side, each round's column would get half
the room and names would be cut to a few letters.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rendering.diagram import (
    BODY,
    MARGIN,
    MAX_WIDTH,
    SMALL,
    Box,
    NumberSymbols,
    Picture,
    Polyline,
    Rect,
    encode,
    name_text,
    number_text,
    text_width,
    wrap,
)
from rendering.render import resolve_theme
from rendering.themes import Theme

_SLOT = 38  # height of one entrant's line
_MATCH_GAP = 14  # between two first-round matches
_STAGGERED_GAP = 28  # the same in a big bracket, where later rounds' boxes fit between them
_CONNECTORS = (26, 16)  # between two rounds' columns: small brackets, big ones
_LINE = 26  # between the lines of a name too long for one (or of a small heading)
_WINNER_SHARE = 0.9  # of a column, for the winner's column beside the final
_CHAMPION_LINE = 34  # the same in the winner's box, in bigger text
_MAX_COLUMN = 320
_MIN_WIDTH = 520
SECTION = 16  # the most players of a bracket's main first round one picture shows


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
class BracketWords:
    """The words of the picture, in English unless the caller gives its language's; a round's
    heading has a full and a short form (for a narrow column)."""

    title: str = "Bracket"  # without a title of the bracket's own
    final: tuple[str, str] = ("Final", "Final")
    semis: tuple[str, str] = ("Semis", "SF")
    quarters: tuple[str, str] = ("Quarters", "QF")
    round: tuple[str, str] = ("Round {number}", "R{number}")
    winner: str = "Winner"
    winner_of: str = "winner of {tag}"  # a slot waiting for a play-in's winner
    bye: str = "bye"
    play_in: str = "Play-in (round 1): the winners join the bracket"
    section: str = "Section {number} of {count}"  # one picture of a big bracket
    section_tag: str = "section {number}"  # in "winner of section 2"
    last_rounds: str = "The last rounds: the winners of the sections"
    next_round: str = "Next round: {round}"  # above a section's winner, below its last match
    numbers: NumberSymbols = field(default_factory=NumberSymbols)  # how numbers are written


@dataclass(frozen=True, slots=True)
class Bracket:
    """A bracket, or one picture of a big one (:func:`bracket_pictures`): a section has
    `rounds_after` rounds still to come, the last rounds `rounds_before` already drawn, and
    `feeders`, what fills each empty first-round slot ("section 1"), instead of a bye."""

    title: str
    rounds: tuple[tuple[BracketMatch, ...], ...]
    subtitle: str = ""
    words: BracketWords = BracketWords()
    rounds_before: int = 0
    rounds_after: int = 0
    feeders: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.rounds or not self.rounds[0]:
            raise ValueError("A bracket needs its first round.")
        first = len(self.rounds[0])
        if first & (first - 1):
            raise ValueError(f"A first round has a power of two matches, not {first}.")
        if self.feeders and len(self.feeders) != 2 * first:
            raise ValueError(f"Name what fills each of the {2 * first} first-round slots.")
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
            bye = (
                number == 0
                and not bracket.feeders
                and (entrants[0] is None) != (entrants[1] is None)
            )
            winner = match.winner
            if bye:
                winner = 0 if entrants[0] is not None else 1
            elif winner is not None and entrants[winner] is None:
                raise ValueError(f"Round {number + 1}, match {index + 1}: the winner is unknown.")
            top, bottom = entrants
            matches.append(_Played((top, bottom), match.scores, winner, bye))
        rounds.append(matches)
    return rounds


def _round_name(number: int, count: int, words: BracketWords) -> tuple[str, str]:
    """Round `number` (from 0) of `count`: "Final", "Semis", "Quarters" for the last three
    rounds, else "Round n"; each with its short form ("SF", "QF", "R3")."""
    from_end = count - 1 - number
    forms = {0: words.final, 1: words.semis, 2: words.quarters}.get(from_end, words.round)
    full, short = (form.format(number=number + 1) for form in forms)
    return full, short


def _heading(number: int, count: int, room: float, words: BracketWords) -> str:
    """Round `number`'s name, short where the full one is wider than `room`."""
    full, short = _round_name(number, count, words)
    return full if text_width(full, SMALL) <= room else short


def bracket_pictures(bracket: Bracket) -> tuple[Bracket, ...]:
    """The bracket as a phone can follow it: itself, up to :data:`SECTION` players in its main
    first round (after a play-in); else one picture per section of that many players, from
    round 1 to the player it sends on, then one of the last rounds between the sections'
    winners."""
    rounds = _played(bracket)
    main = 1 if _is_play_in(rounds[0]) else 0
    per_section = SECTION // 2  # matches of a section in the main first round
    sections = len(rounds[main]) // per_section
    if sections <= 1:
        return (bracket,)
    words = bracket.words
    last = main + (SECTION.bit_length() - 1)  # the first of the last rounds

    def subtitle(what: str) -> str:
        return f"{what} · {bracket.subtitle}" if bracket.subtitle else what

    pictures = []
    for section in range(sections):
        cut = []
        for number, matches in enumerate(bracket.rounds[:last]):
            size = (
                per_section << (main - number) if number < main else per_section >> (number - main)
            )
            cut.append(matches[section * size : (section + 1) * size])
        pictures.append(
            replace(
                bracket,
                rounds=tuple(cut),
                subtitle=subtitle(words.section.format(number=section + 1, count=sections)),
                rounds_after=len(rounds) - last,
            )
        )
    first = tuple(BracketMatch(m.entrants, m.scores, m.winner) for m in rounds[last])
    pictures.append(
        replace(
            bracket,
            rounds=(first, *bracket.rounds[last + 1 :]),
            subtitle=subtitle(words.last_rounds),
            rounds_before=last,
            feeders=tuple(words.section_tag.format(number=n + 1) for n in range(sections)),
        )
    )
    return tuple(pictures)


def _is_play_in(first: list[_Played]) -> bool:
    """Whether the first round is drawn as a play-in: it has byes, and at most half of its
    matches are played (33 players: one match, whose winner joins a bracket of 32)."""
    played = sum(1 for match in first if not match.bye)
    return played < len(first) and 2 * played <= len(first)


def _tag(number: int) -> str:
    """A play-in's name: "P1", "P2"..."""
    return f"P{number}"


def _waiting_for(tag: str, words: BracketWords) -> str:
    """What a slot says while the winner of the play-in `tag` is not known."""
    return words.winner_of.format(tag=tag)


@dataclass(frozen=True, slots=True)
class BracketLayout:
    picture: Picture
    matches: tuple[tuple[Box | None, ...], ...]  # each round's match boxes (None: a bye not drawn)
    champion: Box  # the winner's box
    play_in: bool = False  # round 1 drawn apart, above the bracket, without its byes


@dataclass(frozen=True, slots=True)
class _Room:
    """How a match box is laid out: the seed's and the score's room, each name's room and how
    many lines a name may take."""

    seed: float
    score: float
    name: float
    lines: int

    @property
    def slot(self) -> int:
        return _SLOT + _LINE * (self.lines - 1)


def bracket_layout(bracket: Bracket, theme: str | Theme = "default") -> BracketLayout:
    """Where everything in the bracket goes (see :func:`render_bracket`)."""
    chosen = resolve_theme(theme)
    rounds = _played(bracket)
    play_in = _is_play_in(rounds[0])
    first_main = 1 if play_in else 0
    count = len(rounds) - first_main  # the bracket's columns of rounds
    # Up to 8 players the winner has a column of their own. Beyond, every column counts: from
    # the third round on, each round is half a column right of the one before, its boxes in the
    # gaps between their feeders' boxes, and the winner goes above the last two rounds; a
    # section's, who goes on to the next round, below its last match (right of the line that
    # comes up to it from below).
    beside = count <= 3
    section = bool(bracket.rounds_after) and not beside
    columns = count + 1 if beside else count
    entrants = [e for m in rounds[0] for e in m.entrants if e is not None]
    connector = _CONNECTORS[0] if count <= 3 else _CONNECTORS[1]
    seeds = [str(e.seed) for e in entrants if e.seed is not None]
    seed_room = max((text_width(seed, SMALL) for seed in seeds), default=-6.0) + 6
    scores = [
        number_text(s, bracket.words.numbers)
        for r in bracket.rounds
        for m in r
        for s in (m.scores or ())
    ]
    score_room = max((text_width(s, SMALL) for s in scores), default=-8.0) + 8
    names = [name_text(e.name, "?") for e in entrants]
    if play_in:  # a slot waiting for a play-in's winner says so, as wide as a name
        names.append(_waiting_for(_tag(sum(not m.bye for m in rounds[0])), bracket.words))
    names += [_waiting_for(feeder, bracket.words) for feeder in bracket.feeders]
    widest = max((text_width(name, SMALL) for name in names), default=100.0)
    natural = min(_MAX_COLUMN, 24 + seed_room + widest + score_room)  # 4 px for rounding
    # The winner's own column is narrower: one name, which may take two lines.
    shares = count + _WINNER_SHARE if beside else 2 + (count - 2) / 2
    gaps = count if beside else 1  # connectors between columns side by side
    column = min(natural, (MAX_WIDTH - 2 * MARGIN - gaps * connector) / shares)
    width = round(max(_MIN_WIDTH, 2 * MARGIN + shares * column + gaps * connector))
    column = (width - 2 * MARGIN - gaps * connector) / shares
    name_room = column - 20 - seed_room - score_room
    room = _Room(seed_room, score_room, name_room, 1 if widest <= name_room else 2)

    picture = Picture(width, 0, chosen)
    words = bracket.words
    y = picture.headline(bracket.title or words.title, bracket.subtitle)
    total = bracket.rounds_before + len(rounds) + bracket.rounds_after
    winner_heading = words.winner
    if bracket.rounds_after:  # a section: its winner goes on to the next round
        next_name = _round_name(total - bracket.rounds_after, total, words)[0]
        winner_heading = words.next_round.format(round=next_name)

    def column_left(number: int) -> float:
        if beside or number <= 1:
            return MARGIN + number * (column + connector)
        return MARGIN + column + connector + (number - 1) * column / 2

    per_row = max(1, int((width - 2 * MARGIN + connector) // (column + connector)))

    boxes: list[tuple[Box | None, ...]] = []
    tags: dict[tuple[int, int], str] = {}  # a play-in's winner's slot in round 2: "P1"...
    if play_in:
        y += round(SMALL * 1.9)
        picture.text(
            words.play_in,
            (MARGIN, y),
            size=SMALL,
            colour=chosen.muted,
            max_width=width - 2 * MARGIN,
            role="heading:play-in",
        )
        y += round(SMALL * 0.6)
        played = [index for index, match in enumerate(rounds[0]) if not match.bye]
        pitch = 2 * room.slot + _MATCH_GAP + round(SMALL * 1.3)
        first: list[Box | None] = [None] * len(rounds[0])
        for number, index in enumerate(played):
            row, place = divmod(number, per_row)
            left = round(MARGIN + place * (column + connector))
            tag_y = y + row * pitch + round(SMALL * 1.1)
            tag = _tag(number + 1)
            tags[(index // 2, index % 2)] = tag
            picture.text(tag, (left, tag_y), size=SMALL, colour=chosen.muted, role=f"tag:{tag}")
            box = (left, tag_y + 6, round(left + column), tag_y + 6 + 2 * room.slot)
            first[index] = box
            _draw_match(picture, rounds[0][index], box, room, words, f"0:{index}")
        boxes.append(tuple(first))
        y += pitch * -(-len(played) // per_row)

    winner = rounds[-1][0].advancing()
    if section:  # right of the line from the lower feeder (drawn 3/4 into its column)
        champion_left = round(column_left(count - 2) + 3 * column / 4 + 6)
    else:
        champion_left = round(column_left(count if beside else max(0, count - 2)))
    # A section's box is narrower: its name in the small text of the match it comes from.
    name_size, name_line = (SMALL, _LINE) if section else (BODY, _CHAMPION_LINE)
    champion_lines = (
        []
        if winner is None
        else wrap(name_text(winner.name, "?"), name_size, width - MARGIN - 24 - champion_left)
    )
    champion_height = max(_SLOT + 8, 16 + name_line * len(champion_lines))
    if not beside and not section:  # the winner's box, above the last two rounds
        left = champion_left
        picture.text(
            winner_heading,
            (left, y + round(SMALL * 1.9)),
            size=SMALL,
            colour=chosen.muted,
            role="winner-heading",
        )
        top_of_box = y + round(SMALL * 1.9) + 8
        champion_box = (left, top_of_box, width - MARGIN, top_of_box + champion_height)
        y = champion_box[3]

    heading_y = y + round(SMALL * 1.9)
    top = heading_y + round(SMALL * 0.9)
    for number in range(columns):
        room_for = (
            column_left(number + 1) - column_left(number) - 4 if number < columns - 1 else column
        )
        text = (
            winner_heading
            if number == count
            else _heading(number + first_main + bracket.rounds_before, total, room_for, words)
        )
        picture.text(
            text,
            (column_left(number), heading_y),
            size=SMALL,
            colour=chosen.muted,
            max_width=room_for,
            role=f"heading:{number + first_main}",
        )

    pitch = 2 * room.slot + (_MATCH_GAP if beside else _STAGGERED_GAP)
    main = rounds[first_main:]
    centres: list[float] = [top + pitch * index + room.slot for index in range(len(main[0]))]
    drawn: tuple[Box | None, ...] = ()  # the boxes of the round before
    for offset, matches in enumerate(main):
        number = offset + first_main
        left = round(column_left(offset))
        right = round(column_left(offset) + column)
        round_boxes: list[Box | None] = []
        for index, match in enumerate(matches):
            centre = centres[index]
            box = (left, round(centre - room.slot), right, round(centre + room.slot))
            round_boxes.append(box)
            waiting = (
                (tags.get((index, 0), ""), tags.get((index, 1), "")) if number == 1 else ("", "")
            )
            if number == 0 and bracket.feeders:
                waiting = bracket.feeders[2 * index], bracket.feeders[2 * index + 1]
            _draw_match(picture, match, box, room, words, f"{number}:{index}", waiting)
            for side, feeder in enumerate(drawn[2 * index : 2 * index + 2]):
                assert feeder is not None
                middle = (feeder[1] + feeder[3]) / 2
                points: tuple[tuple[float, float], ...]
                if beside or offset == 1:  # from the feeder's right, round the corner
                    elbow = feeder[2] + connector / 2
                    points = ((feeder[2], middle), (elbow, middle), (elbow, centre), (left, centre))
                else:  # straight down from the feeder above, up from the one below
                    x = feeder[0] + 3 * column / 4
                    points = (
                        ((x, feeder[3]), (x, box[1]))
                        if side == 0
                        else ((x, feeder[1]), (x, box[3]))
                    )
                picture.shapes.append(Polyline(points, chosen.muted, 3))
        drawn = tuple(round_boxes)
        boxes.append(drawn)
        centres = [(centres[i] + centres[i + 1]) / 2 for i in range(0, len(centres) - 1, 2)]

    final = boxes[-1][0]
    assert final is not None
    middle = (final[1] + final[3]) / 2
    if beside:
        left = champion_left
        half = champion_height / 2
        champion_box = (left, round(middle - half), width - MARGIN, round(middle + half))
        picture.shapes.append(Polyline(((final[2], middle), (left, middle)), chosen.muted, 3))
    elif section:  # below the last match, its heading between the two
        heading = wrap(winner_heading, SMALL, width - MARGIN - champion_left)
        heading_y = final[3] + round(SMALL * 1.9)
        for index, line in enumerate(heading):
            picture.text(
                line.text(),
                (champion_left, heading_y + index * _LINE),
                size=SMALL,
                colour=chosen.muted,
                role="winner-heading" + "+" * index,
            )
        top_of_box = heading_y + (len(heading) - 1) * _LINE + 8
        champion_box = (champion_left, top_of_box, width - MARGIN, top_of_box + champion_height)
    if winner is None:
        picture.shapes.append(Rect(champion_box, None, chosen.muted, 8, 2))
    else:
        picture.shapes.append(Rect(champion_box, chosen.panel, chosen.alert, 8, 3))
        lines = champion_lines
        centre = (champion_box[1] + champion_box[3]) / 2 - (len(lines) - 1) * name_line / 2
        for index, line in enumerate(lines):
            picture.text(
                line.text(),
                (champion_box[0] + 12, centre + index * name_line),
                size=name_size,
                colour=chosen.text,
                on=chosen.panel,
                anchor="lm",
                role="champion" + "+" * index,
            )
    picture.height = round(max(top + pitch * len(main[0]) - _MATCH_GAP, champion_box[3]) + MARGIN)
    return BracketLayout(picture, tuple(boxes), champion_box, play_in)


def _draw_match(
    picture: Picture,
    match: _Played,
    box: Box,
    room: _Room,
    words: BracketWords,
    where: str,
    waiting: tuple[str, str] = ("", ""),
) -> None:
    """One match's box; `waiting` names the play-in whose winner is still to fill a slot."""
    theme = picture.theme
    left, top, right, bottom = box
    slot = room.slot
    picture.shapes.append(Rect(box, theme.panel, radius=8))
    picture.shapes.append(
        Polyline(((left, (top + bottom) / 2), (right - 1, (top + bottom) / 2)), theme.background, 2)
    )
    for side, entrant in enumerate(match.entrants):
        centre = top + slot * (side + 0.5)
        role = f"slot:{where}:{side}"
        if entrant is None:
            empty = (
                words.bye
                if match.bye
                else _waiting_for(waiting[side], words)
                if waiting[side]
                else ""
            )
            lines = wrap(empty, SMALL, right - left - 20 - room.seed, room.lines) if empty else []
            for index, line in enumerate(lines):
                picture.text(
                    line.text(),
                    (left + 10 + room.seed, centre - (len(lines) - 1 - 2 * index) * _LINE / 2),
                    size=SMALL,
                    colour=theme.muted,
                    on=theme.panel,
                    anchor="lm",
                    role=role + "+" * index,
                )
            continue
        won = match.winner == side
        ink = theme.muted if match.winner is not None and not won else theme.text
        if entrant.seed is not None:
            picture.text(
                str(entrant.seed),
                (left + 10, centre),
                size=SMALL,
                colour=theme.muted,
                on=theme.panel,
                anchor="lm",
                role=f"seed:{where}:{side}",
            )
        lines = wrap(name_text(entrant.name, "?"), SMALL, room.name, room.lines)
        first = centre - (len(lines) - 1) * _LINE / 2
        for index, line in enumerate(lines):
            picture.text(
                line.text(),
                (left + 10 + room.seed, first + index * _LINE),
                size=SMALL,
                colour=ink,
                on=theme.panel,
                anchor="lm",
                role=role + "+" * index,
            )
        if match.scores is not None:
            picture.text(
                number_text(match.scores[side], words.numbers),
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
