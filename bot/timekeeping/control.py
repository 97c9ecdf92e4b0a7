"""Time controls of correspondence games: days per move, with a bank or an increment.

Every turn has a deadline; the time control decides how long a player's turn may be and what a
move leaves on their clock:

- **days per move** (the plain kind): each move may take ``days_per_move``.
- **bank**: each move may take ``days_per_move`` plus what is left of the player's reserve; a move
  that takes longer than ``days_per_move`` uses the reserve for the rest. The reserve is never
  refilled.
- **increment** (Fischer): the player's clock starts at ``days_per_move``; their move may take
  what is on it, and each move adds the increment, the clock never holding more than the cap.

What a move used is read off the deadline: the time still left when the move is made is the
deadline minus the moment of the move (the moment the clock stopped, while it stands still).
Everything that gives time (a pause, a vacation, more time from the opponent, a late notice)
moves the deadline, so it is counted without any bookkeeping of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import TypedDict

from bot.errors import InvalidSetting
from bot.languages import _, ngettext
from bot.text_safety import one_line

ZERO = timedelta(0)
MAX_BANK = timedelta(days=60)
MAX_INCREMENT = timedelta(days=7)
MAX_CAP = timedelta(days=60)
MIN_STEP = timedelta(hours=1)  # increments and banks come in whole hours

_DURATION = re.compile(
    r"(?:(?P<days>\d{1,3})\s*d(?:ays?)?)?\s*(?:(?P<hours>\d{1,4})\s*h(?:ours?)?)?"
)


class ClockKind(StrEnum):
    MOVE = "move"
    BANK = "bank"
    INCREMENT = "increment"


def parse_duration(text: str, what: str) -> timedelta:
    """ "7d", "12h", "1d12h" or a bare number of days; raises :class:`InvalidSetting`."""
    cleaned = text.strip().lower()
    if cleaned.isdigit() and len(cleaned) <= 3:
        return timedelta(days=int(cleaned))
    found = _DURATION.fullmatch(cleaned)
    if not cleaned or found is None or not (found["days"] or found["hours"]):
        raise InvalidSetting(
            _(
                "The {what} must be a duration like `7d`, `12h` or `1d12h` (got `{text}`).",
                what=duration_name(what),
                text=one_line(text),
            )
        )
    return timedelta(days=int(found["days"] or 0), hours=int(found["hours"] or 0))


def duration_name(what: str) -> str:
    """The name of a duration option in the language spoken (as its refusals say it)."""
    names = {
        "time": _("time"),
        "reminder time": _("reminder time"),
        "bank": _("bank"),
        "increment": _("increment"),
        "maximum": _("maximum"),
        "check-in window": _("check-in window"),
    }
    return names.get(what, what)


class ClockSpans(TypedDict):
    """A time control's durations as keywords: for :meth:`TimeControl.create`, and for
    :meth:`bot.guild_settings.GuildSettings.game_setup`, which checks them with the setup."""

    bank: timedelta | None
    increment: timedelta | None
    cap: timedelta | None


def clock_options(bank: str | None, increment: str | None, maximum: str | None) -> ClockSpans:
    """The durations of a time control from the texts players typed (None where left out)."""
    return ClockSpans(
        bank=None if bank is None else parse_duration(bank, "bank"),
        increment=None if increment is None else parse_duration(increment, "increment"),
        cap=None if maximum is None else parse_duration(maximum, "maximum"),
    )


def describe_duration(span: timedelta) -> str:
    """A duration to the minute, largest units first: ``2d 5h``, ``3h 20m``, ``45s``."""
    seconds = max(int(span.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [(days, "d"), (hours, "h"), (minutes, "m")]
    text = " ".join(f"{amount}{unit}" for amount, unit in parts if amount)
    return text or f"{secs}s"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """What a game adds to ``days_per_move``: a bank, or an increment with its cap (zero: none)."""

    bank: timedelta = ZERO
    increment: timedelta = ZERO
    cap: timedelta = ZERO

    @property
    def kind(self) -> ClockKind:
        if self.increment > ZERO:
            return ClockKind.INCREMENT
        return ClockKind.BANK if self.bank > ZERO else ClockKind.MOVE

    @classmethod
    def create(
        cls,
        days_per_move: int,
        *,
        bank: timedelta | None = None,
        increment: timedelta | None = None,
        cap: timedelta | None = None,
    ) -> TimeControl:
        """Checked settings; raises :class:`InvalidSetting` with the reason."""
        if bank and increment:
            raise InvalidSetting(_("Choose a bank or an increment, not both."))
        if cap and not increment:
            raise InvalidSetting(_("A maximum only goes with an increment."))
        for span, what, most in ((bank, "bank", MAX_BANK), (increment, "increment", MAX_INCREMENT)):
            if span is not None and span and not MIN_STEP <= span <= most:
                raise InvalidSetting(
                    _(
                        "The {what} must be from 1 hour to {most} days (got {span}).",
                        what=duration_name(what),
                        most=most.days,
                        span=describe_duration(span),
                    )
                )
        if not increment:
            return cls(bank=bank or ZERO)
        start = timedelta(days=days_per_move)
        cap = cap or max(start, 2 * increment)
        if not start <= cap <= MAX_CAP:
            raise InvalidSetting(
                _(
                    "The maximum must be from the starting time ({days}d) to {most} days (got "
                    "{span}).",
                    days=days_per_move,
                    most=MAX_CAP.days,
                    span=describe_duration(cap),
                )
            )
        return cls(increment=increment, cap=cap)

    def starting_left(self, days_per_move: int) -> timedelta | None:
        """What each player's clock holds at the start: the bank, the starting time, or None
        (days per move keeps no clock)."""
        kind = self.kind
        if kind is ClockKind.BANK:
            return self.bank
        if kind is ClockKind.INCREMENT:
            return timedelta(days=days_per_move)
        return None

    def allowance(self, days_per_move: int, left: timedelta | None) -> timedelta:
        """How long a turn may take for a player with `left` on their clock."""
        per_move = timedelta(days=days_per_move)
        kind = self.kind
        if kind is ClockKind.BANK:
            return per_move + (left or ZERO)
        if kind is ClockKind.INCREMENT:
            return left if left is not None else per_move
        return per_move

    def left_after_move(self, left: timedelta | None, remaining: timedelta) -> timedelta | None:
        """The mover's clock after a move made with `remaining` to go before the deadline: the
        bank keeps what the move did not use (never more than it had), an increment clock gets
        the increment on top (never more than the cap)."""
        remaining = max(remaining, ZERO)
        kind = self.kind
        if kind is ClockKind.BANK:
            return min(left or ZERO, remaining)
        if kind is ClockKind.INCREMENT:
            return min(self.cap, remaining + self.increment)
        return None

    def taken_back(self, left: timedelta | None) -> timedelta | None:
        """The mover's clock when their move is taken back: the increment it earned goes (the
        time it took stays spent, as a bank's does)."""
        if self.kind is ClockKind.INCREMENT and left is not None:
            return max(left - self.increment, ZERO)
        return left

    def describe(self, days_per_move: int) -> str:
        """For players: ``3d per move``, ``2d per move + 7d bank``, ``5d +1d a move (max 10d)``."""
        kind = self.kind
        if kind is ClockKind.BANK:
            return f"{days_per_move}d per move + {describe_duration(self.bank)} bank"
        if kind is ClockKind.INCREMENT:
            return (
                f"{days_per_move}d +{describe_duration(self.increment)} a move "
                f"(max {describe_duration(self.cap)})"
            )
        return f"{days_per_move}d per move"

    def words(self, days_per_move: int) -> str:
        """:meth:`describe` in the words being spoken: "2 days a move", or the bank or
        increment besides the days."""
        kind = self.kind
        if kind is ClockKind.MOVE:
            return ngettext("{count} day a move", "{count} days a move", days_per_move)
        if kind is ClockKind.BANK:
            return _(
                "{days}d per move + {bank} bank",
                days=days_per_move,
                bank=describe_duration(self.bank),
            )
        return _(
            "{days}d +{increment} a move (max {maximum})",
            days=days_per_move,
            increment=describe_duration(self.increment),
            maximum=describe_duration(self.cap),
        )

    def ptn_clock(self, days_per_move: int) -> str:
        """The PTN ``Clock`` tag's value (PTN Ninja accepts any text there): the same words as
        :meth:`describe`, which a reader understands without a key."""
        return self.describe(days_per_move)

    def to_db(self) -> tuple[int, int, int]:
        """Seconds of bank, increment and cap, as the clock columns keep them."""
        return (
            int(self.bank.total_seconds()),
            int(self.increment.total_seconds()),
            int(self.cap.total_seconds()),
        )

    @classmethod
    def from_db(cls, bank: int | None, increment: int | None, cap: int | None) -> TimeControl:
        return cls(
            timedelta(seconds=bank or 0),
            timedelta(seconds=increment or 0),
            timedelta(seconds=cap or 0),
        )


PER_MOVE = TimeControl()
