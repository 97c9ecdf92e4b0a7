"""A whole game as an animated GIF that fits an upload limit however long the game is.

A short game gets a frame for every ply. A long one would not fit Discord's 10 MiB (a 1,200-ply
8x8 game is 8 MiB even as deltas), so the replay keeps the start, every `stride`-th ply, each of
the last few plies and the end, and on a smaller image if that is not enough. Which one is chosen
by measuring: a few frame pairs spread over the game give the bytes of a frame at that stride and
width; the chosen plan is then encoded frame by frame and given up the moment it passes the
budget, for the next plan. So the budget is a guarantee, and memory holds two frames, not all.

Each frame's heading is the move that led to it, numbered as in the PTN ("5. a5", "5... c5"), as
on a posted board; under the board, a sampled replay says which ply it is and how many were
skipped; the last frame of a finished game shows the result there instead.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from rendering.board import ENGLISH, MIN_SIZE, BoardWords, draw_scene
from rendering.gif import GifStream
from rendering.palette import to_palette
from rendering.render import resolve_theme, scene
from rendering.themes import Theme
from tak import Position
from tak.ptn import Game

# Replays are watched inline: smaller frames keep a long game's GIF small and quick to make.
REPLAY_SIZE = 600
# Under Discord's default 10 MiB a file, with room to spare for the rest of the message.
MAX_REPLAY_BYTES = 8 * 2**20
# When plies are skipped, the last ones are still shown one by one: how the game was won.
CLOSING_PLIES = 8
# Past every 4th ply a smaller image keeps more of the game (until the smallest width).
_MAX_STRIDE = 4
# The estimate may be off by a tenth or so (frames late in a game are bigger): aim below the limit.
_AIM = 0.85
# Frame pairs measured to estimate a plan; a game with fewer frames than they take is just tried.
_PROBES = 8
# A sampled replay opens on a note saying so, held long enough to read.
_NOTE_MS = 2500


@dataclass(frozen=True, slots=True)
class ReplayWords:
    """The words of a replay, as ``str.format`` templates: the boards' words, and the notes of
    a sampled replay (English unless the caller gives its own): `stride` is a number, not an
    ordinal, which languages write each their own way. `thousands` separates a count's
    thousands, as the language writes them ("1,200"; German "1.200")."""

    board: BoardWords = ENGLISH
    start_and_end: str = "Only the start and the end of {plies} plies shown."
    start_and_last: str = "Only the start and the last {closing} of {plies} plies shown."
    every: str = "One ply in {stride} of {plies} shown."
    every_then_last: str = "One ply in {stride} of {plies} shown, then the last {closing}."
    ply: str = "ply {ply} of {plies}"
    skipped: str = "{count} skipped"
    thousands: str = ","


ENGLISH_REPLAY = ReplayWords()


@dataclass(frozen=True, slots=True)
class ReplayImage:
    """A replay GIF and what it shows, so the caller can say whether plies were skipped."""

    data: bytes
    width: int  # px
    plies: int  # in the game
    stride: int  # 1: every ply has a frame; n: every nth ply, then the last `closing` plies
    closing: int
    frames: int
    words: ReplayWords = ENGLISH_REPLAY

    @property
    def plies_shown(self) -> int:
        """Plies whose position has a frame (the start has the other one)."""
        return self.frames - 1

    @property
    def note(self) -> str:
        """What was left out, for a reader ("Every 2nd of 1,204 plies shown, then the last 8.");
        empty when every ply is shown."""
        if self.frames > self.plies:
            return ""
        return _note(self.plies, self.stride, self.closing, self.words)


@dataclass(frozen=True, slots=True)
class _Plan:
    """Which positions get a frame, at what width."""

    width: int
    stride: int
    closing: int

    def shown(self, plies: int) -> list[int]:
        return _shown(plies, self.stride, self.closing)


def render_replay(game: Game, **options: Any) -> bytes:
    """Just the GIF of :func:`render_replay_within`, which takes the same keyword options."""
    return render_replay_within(game, **options).data


def render_replay_within(
    game: Game,
    *,
    players: tuple[str, str] | None = None,
    theme: str | Theme = "default",
    size: int = REPLAY_SIZE,
    frame_ms: int = 900,
    final_ms: int = 4000,
    max_bytes: int = MAX_REPLAY_BYTES,
    words: ReplayWords = ENGLISH_REPLAY,
) -> ReplayImage:
    """The game as an animated GIF of at most `max_bytes`: the start, then one frame a ply with
    that move tinted, each shown for `frame_ms`; the last frame holds for `final_ms` and shows
    the result. Players default to the game's Player1 and Player2 tags.

    If every ply does not fit, the frames show every 2nd, 4th... ply and then each of the last
    :data:`CLOSING_PLIES`, on a narrower image for very long games; such frames say under the
    board which ply they show and how many were skipped, and the first one says how the game
    was sampled. `words`: the words drawn and noted (:class:`ReplayWords`), English by default.
    Raises ValueError if not even the start and the end fit in `max_bytes`.
    """
    if players is None:
        unnamed = words.board.player
        players = (
            game.tag("Player1") or unnamed.format(number=1),
            game.tag("Player2") or unnamed.format(number=2),
        )
    film = _Film(game, players, resolve_theme(theme), frame_ms, final_ms, words)
    plies = len(game.plies)
    widths = _widths(size)
    fit = math.inf  # how many frames the budget holds, by the latest estimate
    for width, smaller in zip(widths, [*widths[1:], 0], strict=True):
        stride, frames = _stride_for(plies, fit, after=0), 0
        while stride <= _MAX_STRIDE or not smaller:
            plan = _Plan(width, stride, CLOSING_PLIES)
            count = len(plan.shown(plies))
            if count == frames:  # past the closing plies, a larger stride shows no fewer
                break
            frames = count
            estimate = film.estimate(plan)
            if estimate <= _AIM * max_bytes:
                image = film.encode(plan, max_bytes)
                if image is not None:
                    return image
                estimate = max_bytes
            fit = frames * _AIM * max_bytes / estimate
            stride = _stride_for(plies, fit, after=stride)
        fit *= (width / smaller) ** 2 if smaller else 1  # a frame's bytes go with its area
    image = film.encode(_Plan(widths[-1], max(1, plies), 0), max_bytes)
    if image is None:
        raise ValueError(f"Not even the start and the end of the game fit in {max_bytes} bytes.")
    return image


def _widths(size: int) -> list[int]:
    """The image widths to try, largest first: `size`, three quarters, half, the smallest."""
    smaller = (max(MIN_SIZE, round(size * share)) for share in (0.75, 0.5))
    return list(dict.fromkeys([size, *(w for w in smaller if w < size), min(size, MIN_SIZE)]))


def _strides() -> Iterator[int]:
    """1, 2, 4, 6, 8, 12, 16, 24...: after 1 only even strides, which keep one player to move
    from frame to frame and so change less of the image (a frame of a 2-ply step is smaller
    than one of a 1-ply step)."""
    yield from (1, 2)
    step = 4
    while True:
        yield from (step, step * 3 // 2)
        step *= 2


def _stride_for(plies: int, fit: float, *, after: int) -> int:
    """The first stride past `after` that shows at most `fit` frames, else the one that leaves
    only the start and the closing plies."""
    cut = max(1, plies - CLOSING_PLIES)
    for stride in _strides():
        if stride >= cut:
            return cut
        if stride > after and len(_shown(plies, stride, CLOSING_PLIES)) <= fit:
            return stride
    raise AssertionError("_strides() never ends")


def _shown(plies: int, stride: int, closing: int) -> list[int]:
    """The plies after which a frame is shown (0 is the start): every `stride`-th, then each of
    the last `closing`, and the last."""
    cut = max(0, plies - closing)
    return [*range(0, cut, stride), *range(cut, plies + 1)]


def _note(plies: int, stride: int, closing: int, words: ReplayWords) -> str:
    fields = {
        "plies": _count(plies, words),
        "closing": closing,
        "stride": _count(stride, words),
    }
    if stride >= plies - closing:  # no ply between the start and the closing ones
        template = words.start_and_last if closing else words.start_and_end
    else:
        template = words.every_then_last if closing else words.every
    return template.format(**fields)


class _Film:
    """Draws and encodes the frames of one game under different plans."""

    def __init__(
        self,
        game: Game,
        players: tuple[str, str],
        theme: Theme,
        frame_ms: int,
        final_ms: int,
        words: ReplayWords,
    ) -> None:
        self.game = game
        self.plies = len(game.plies)
        self.players = players
        self.theme = theme
        self.frame_ms = frame_ms
        self.final_ms = final_ms
        self.words = words

    def encode(self, plan: _Plan, max_bytes: int) -> ReplayImage | None:
        """The plan's GIF, or None as soon as it passes `max_bytes`."""
        shown = plan.shown(self.plies)
        stream = GifStream()
        sampled = len(shown) <= self.plies
        previous = 0
        for index, (ply, position) in enumerate(zip(shown, self._positions(shown), strict=True)):
            if index == len(shown) - 1:
                duration = self.final_ms
            elif index == 0 and sampled:
                duration = max(self.frame_ms, _NOTE_MS)
            else:
                duration = self.frame_ms
            stream.add(self.frame(plan, position, ply, previous, sampled), duration)
            if stream.size > max_bytes:
                return None
            previous = ply
        return ReplayImage(
            stream.getvalue(),
            plan.width,
            self.plies,
            plan.stride,
            plan.closing,
            len(shown),
            self.words,
        )

    def estimate(self, plan: _Plan) -> float:
        """The bytes the plan's GIF will take, about: its first frame, and its other frames at
        the mean size of a step of `stride` plies measured at places spread over the game."""
        shown = plan.shown(self.plies)
        if len(shown) <= 2 * _PROBES:
            return 0.0  # cheaper to encode than to estimate
        sampled = len(shown) <= self.plies
        stride = plan.stride
        last = self.plies // stride - 1  # the last step from a multiple of stride
        starts = sorted({stride * round(k * last / (_PROBES - 1)) for k in range(_PROBES)})
        wanted = sorted({*starts, *(ply + stride for ply in starts)})
        positions = {ply: p.copy() for ply, p in zip(wanted, self._positions(wanted), strict=True)}
        first, deltas = 0, []
        for ply in starts:
            stream = GifStream()
            before = self.frame(plan, positions[ply], ply, ply - stride, sampled)
            stream.add(before, self.frame_ms)
            first = first or stream.size
            size = stream.size
            after = self.frame(plan, positions[ply + stride], ply + stride, ply, sampled)
            stream.add(after, self.frame_ms)
            deltas.append(stream.size - size)
        return first + statistics.fmean(deltas) * (len(shown) - 1)

    def frame(
        self, plan: _Plan, position: Position, ply: int, previous: int, sampled: bool
    ) -> Image.Image:
        """The frame of the position after `ply` plies, the last shown after `previous`."""
        final = ply == self.plies
        view = scene(
            position,
            last_move=self.game.plies[ply - 1].move if ply else None,
            players=self.players,
            theme=self.theme,
            size=plan.width,
            show_tak=None,
            result=self.game.result if final else None,
            words=self.words.board,
        )
        # The heading names the move; under the board, only what sampling left out. Every frame
        # keeps room for that strip, so every frame has one size.
        caption = _caption(ply, previous, self.plies, plan, self.words) if sampled else ""
        view = replace(view, banner_room=True, caption=caption)
        return to_palette(draw_scene(view), self.theme)

    def _positions(self, plies: list[int]) -> Iterator[Position]:
        """The positions after each of `plies` (ascending), playing the game once through: one
        position, moved on between yields."""
        position = self.game.start()
        done = 0
        for ply in plies:
            for move in self.game.plies[done:ply]:
                position.push(move.move)
            done = ply
            yield position


def _caption(ply: int, previous: int, plies: int, plan: _Plan, words: ReplayWords) -> str:
    """Under a sampled frame: how the game is sampled (the first frame), or which ply it shows
    and how many plies it skips."""
    if ply == 0:
        return _note(plies, plan.stride, plan.closing, words).rstrip(".")
    skipped = ply - previous - 1
    text = words.ply.format(ply=_count(ply, words), plies=_count(plies, words))
    if skipped:
        text += " · " + words.skipped.format(count=_count(skipped, words))
    return text


def _count(count: int, words: ReplayWords) -> str:
    """`count` with its thousands separated as the words' language does."""
    return f"{count:,}".replace(",", words.thousands)
