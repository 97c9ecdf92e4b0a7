"""The board image: header, squares, pieces with stack profiles, last move, road, result banner.

Everything is measured from the image width, so every board size and width share one design.
What never changes for a (theme, width, board size) is drawn once and cached (the empty board
with its coordinates, the anti-aliased piece sprites); a render copies the cached board and
draws the position on it. Cached images are never drawn on, so renders may run in threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import ceil, floor

from PIL import Image, ImageDraw

from rendering.colour import RGB
from rendering.text import Line, displayable, draw_line, fit, line_width
from rendering.themes import Theme
from tak import Color, Move, Piece, Position, Result, ResultKind, Spread, Stack
from tak.ptn import move_number

DEFAULT_SIZE = 900
MIN_SIZE, MAX_SIZE = 240, 3000
FILES = "abcdefgh"
_SUPERSAMPLE = 4
# Discord shows an image about this wide on a phone; a stack's every layer stays at least
# MIN_PHONE_LAYER px thick there.
PHONE_WIDTH = 400
MIN_PHONE_LAYER = 2
# A stack's height tag is at least this tall there, and keeps this far from every piece.
MIN_PHONE_TAG = 12
TAG_CLEARANCE = 2
# A tall stack's top piece shrinks to make room for the layers that can move, never below this
# share of its size.
MIN_TOP_SHARE = 0.55


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes on an image `width` px wide showing an `n`x`n` board."""

    width: int
    n: int
    banner: bool
    unit: float  # 1/1000 of the width: the design's measuring stick
    pad: int
    header_height: int
    square: int  # side of one square, px
    board_x: int  # left edge of file a
    board_y: int  # top edge of rank n
    gutter: int  # room for the coordinates left of and below the board
    strips: int  # rows below the board showing the full order of stacks too tall for a square
    strip_y: int
    strip_height: int  # of one row
    banner_y: int
    banner_height: int
    height: int

    @property
    def board_side(self) -> int:
        return self.square * self.n

    def square_box(self, file: int, rank: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of a square, right and bottom exclusive; a1 is (0, 0)."""
        left = self.board_x + file * self.square
        top = self.board_y + (self.n - 1 - rank) * self.square
        return left, top, left + self.square, top + self.square

    def strip_box(self, row: int) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of one strip row, right and bottom exclusive."""
        top = self.strip_y + row * self.strip_height
        return self.pad, top, self.width - self.pad, top + self.strip_height

    def square_centre(self, file: int, rank: int) -> tuple[float, float]:
        left, top, right, bottom = self.square_box(file, rank)
        return (left + right) / 2, (top + bottom) / 2


@lru_cache(maxsize=128)
def layout(width: int, n: int, banner: bool = False, strips: int = 0) -> Layout:
    """The layout of an image `width` px wide for an `n`x`n` board, with or without a banner,
    with `strips` rows of tall stacks between the board and the banner."""
    if not MIN_SIZE <= width <= MAX_SIZE:
        raise ValueError(f"The image width must be {MIN_SIZE} to {MAX_SIZE} px, not {width}.")
    unit = width / 1000
    pad = round(18 * unit)
    header_height = round(162 * unit)
    gutter = round(40 * unit)
    room = width - 2 * pad - gutter
    square = room // n
    board_x = pad + gutter + (room - square * n) // 2
    board_y = pad + header_height
    strip_y = board_y + square * n + gutter + pad // 2
    strip_height = max(round(56 * unit), 18)
    banner_y = strip_y + strips * strip_height + (pad if strips else 0)
    banner_height = round(72 * unit) if banner else 0
    height = banner_y + banner_height + (pad if banner else 0)
    return Layout(
        width, n, banner, unit, pad, header_height, square, board_x, board_y, gutter, strips,
        strip_y, strip_height, banner_y, banner_height, height,
    )  # fmt: skip


# ----------------------------------------------------------------------------- piece sprites


@dataclass(frozen=True, slots=True)
class _PieceSizes:
    """Piece proportions within a square of side `square`."""

    square: int

    @property
    def flat(self) -> int:
        return round(0.56 * self.square)

    @property
    def wall(self) -> int:
        return round(0.62 * self.square)

    @property
    def cap(self) -> int:
        return round(0.54 * self.square)

    @property
    def margin(self) -> int:
        return max(2, round(0.07 * self.square))

    def top(self, piece: Piece) -> int:
        return {Piece.FLAT: self.flat, Piece.WALL: self.wall, Piece.CAP: self.cap}[piece]


@lru_cache(maxsize=256)
def _sprite(piece: Piece, fill: RGB, edge: RGB, side: int) -> Image.Image:
    """An anti-aliased RGBA piece seen from above, `side` px square: a rounded square (flat),
    a bar standing on the diagonal (wall) or a disc (capstone), outlined in `edge`."""
    big = side * _SUPERSAMPLE
    # Transparent pixels carry the edge colour, so the down-scaled rim fades into the outline.
    image = Image.new("RGBA", (big, big), (*edge, 0))
    draw = ImageDraw.Draw(image)
    outline = max(_SUPERSAMPLE * 1.5, big * 0.06)
    if piece is Piece.CAP:
        draw.ellipse((0, 0, big - 1, big - 1), fill=(*edge, 255))
        draw.ellipse((outline, outline, big - 1 - outline, big - 1 - outline), fill=(*fill, 255))
    elif piece is Piece.FLAT:
        radius = big * 0.16
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius, fill=(*edge, 255))
        inner = (outline, outline, big - 1 - outline, big - 1 - outline)
        draw.rounded_rectangle(inner, radius - outline / 2, fill=(*fill, 255))
    else:
        # A bar 0.36 as thick as it is long, turned 45 degrees, filling the sprite's diagonal.
        length = big * 1.0
        thick = length * 0.36
        bar = Image.new("RGBA", (round(length), round(length)), (*edge, 0))
        bar_draw = ImageDraw.Draw(bar)
        top = (length - thick) / 2
        box = (0, top, length - 1, top + thick)
        bar_draw.rounded_rectangle(box, thick * 0.22, fill=(*edge, 255))
        inner = (outline, top + outline, length - 1 - outline, top + thick - outline)
        bar_draw.rounded_rectangle(inner, thick * 0.22 - outline / 2, fill=(*fill, 255))
        image = bar.rotate(45, resample=Image.Resampling.BICUBIC)
    return image.resize((side, side), Image.Resampling.LANCZOS)


@lru_cache(maxsize=512)
def _sprite_on(piece: Piece, fill: RGB, edge: RGB, side: int, background: RGB) -> Image.Image:
    """The sprite flattened onto a plain background: an opaque RGB tile, quick to paste."""
    tile = Image.new("RGB", (side, side), background)
    sprite = _sprite(piece, fill, edge, side)
    tile.paste(sprite, (0, 0), sprite)
    return tile


# ----------------------------------------------------------------------------- the empty board


@lru_cache(maxsize=64)
def _empty_board(theme: Theme, frame: Layout) -> Image.Image:
    """Background, squares and coordinates: the part of the image that no position changes."""
    image = Image.new("RGB", (frame.width, frame.height), theme.background)
    draw = ImageDraw.Draw(image)
    n = frame.n
    rim = max(2, round(6 * frame.unit))
    left, top = frame.board_x, frame.board_y
    right, bottom = left + frame.board_side, top + frame.board_side
    draw.rounded_rectangle(
        (left - rim, top - rim, right + rim - 1, bottom + rim - 1), rim, theme.board
    )
    for rank in range(n):
        for file in range(n):
            _fill_square(draw, frame, file, rank, theme.squares[(file + rank) % 2])
    size = round(28 * frame.unit)
    for index in range(n):
        _, y = frame.square_centre(0, index)
        draw_line(
            image,
            (left - rim - frame.gutter / 2, y),
            Line.of(str(index + 1), size),
            theme.muted,
            "mm",
        )
        x, _ = frame.square_centre(index, 0)
        draw_line(
            image,
            (x, bottom + rim + frame.gutter / 2),
            Line.of(FILES[index], size),
            theme.muted,
            "mm",
        )
    return image


def _gap(square: int) -> int:
    """Width of the line between squares of side `square`."""
    return max(1, round(square * 0.025))


def _fill_square(
    draw: ImageDraw.ImageDraw, frame: Layout, file: int, rank: int, colour: RGB
) -> None:
    left, top, right, bottom = frame.square_box(file, rank)
    half = _gap(frame.square) / 2
    draw.rectangle((left + half, top + half, right - 1 - half, bottom - 1 - half), colour)


# ----------------------------------------------------------------------------- drawing a position


@dataclass(frozen=True, slots=True)
class BoardWords:
    """The words a board is drawn with, as templates for ``str.format``: English unless the
    caller gives its own (the renderer knows no languages; the bot fills these in the
    language of whoever sees the picture). TAK and TINUË are the game's own words."""

    move: str = "Move {number}"  # the move number on a board no move has been shown on
    player: str = "Player {number}"  # a player without a name that can be drawn
    komi: str = "Komi {komi}"
    flats: str = "Flats {count}"
    road: str = "{name} wins by road"
    on_flats: str = "{name} wins on flats"
    resignation: str = "{name} wins by resignation"
    time: str = "{name} wins on time"
    win: str = "{name} wins"
    agreement: str = "Draw by agreement"
    tied: str = "Draw: the flat count is tied"
    aborted: str = "The game was aborted"


ENGLISH = BoardWords()


@dataclass(frozen=True, slots=True)
class Scene:
    """What one image shows, decided from the position and the caller's options."""

    position: Position
    last_move: Move | None
    names: tuple[str, str]
    theme: Theme
    width: int
    show_tak: bool
    result: Result | None
    tinue: bool = False  # the marker reads TINUË: the Tak cannot be stopped
    # Keep room for a banner even without a result, so every frame of a replay has one size.
    banner_room: bool = False
    # A quiet line in the banner's place when there is no result (a sampled replay's ply count).
    caption: str = ""
    # Rows below the board with the full order of stacks too tall for their square. Off for
    # replays, whose frames all keep one size; there a tall stack shows its topmost layers.
    strips: bool = False
    words: BoardWords = ENGLISH


def move_heading(position: Position, last_move: Move | None, words: BoardWords = ENGLISH) -> str:
    """The move just played as the PTN and the posts number it ("5. a5", "5... b5"), so that
    the picture, the post and the record agree; "Move 1" on a board no move has been shown on."""
    if last_move is None or position.ply == 0:
        return words.move.format(number=position.ply // 2 + 1)
    return f"{move_number(position.ply - 1)} {last_move.ptn()}"


def draw_scene(scene: Scene) -> Image.Image:
    """The RGB image of a scene."""
    position, theme = scene.position, scene.theme
    banner = scene.result is not None or scene.banner_room or bool(scene.caption)
    tall = stack_strips(position, scene.width) if scene.strips else []
    frame = layout(scene.width, position.size, banner, len(tall))
    image = _empty_board(theme, frame).copy()
    draw = ImageDraw.Draw(image)
    for file, rank in _moved_squares(scene.last_move, position.size):
        _fill_square(draw, frame, file, rank, theme.tinted_squares[(file + rank) % 2])
    road = scene.result.road if scene.result is not None else ()
    if road:
        _draw_road(draw, frame, road, theme.road, theme.road_edge)
    tinted = set(_moved_squares(scene.last_move, position.size))
    for rank in range(position.size):
        for file in range(position.size):
            stack = position.stack(file, rank)
            if stack.colors:
                squares = theme.tinted_squares if (file, rank) in tinted else theme.squares
                under = squares[(file + rank) % 2]
                on_road = (file, rank) in road
                _draw_stack(image, draw, frame, theme, file, rank, stack, under, on_road)
    for row, (file, rank) in enumerate(tall):
        _draw_strip(image, draw, frame, theme, row, file, rank, position.stack(file, rank))
    _draw_header(image, draw, frame, scene)
    if scene.result is not None:
        _draw_banner(image, frame, theme, scene.result, scene.names, scene.words)
    elif scene.caption:
        _draw_banner_text(image, frame, scene.caption, theme.muted)
    return image


def _moved_squares(move: Move | None, n: int) -> list[tuple[int, int]]:
    """The squares the last move touched: a placement's square, or a spread's origin and every
    square it dropped on."""
    if move is None:
        return []
    squares = [(move.file, move.rank)]
    if isinstance(move, Spread):
        squares += move.path()
    for file, rank in squares:
        if not (0 <= file < n and 0 <= rank < n):
            raise ValueError(f"The last move {move.ptn()} leaves the {n}x{n} board.")
    return squares


def _draw_road(
    draw: ImageDraw.ImageDraw,
    frame: Layout,
    road: tuple[tuple[int, int], ...],
    colour: RGB,
    edge_colour: RGB,
) -> None:
    """A band through the road's squares, run out to the two edges it joins, edged either side
    in `edge_colour` so that it stands out from the squares in lightness too."""
    points = [frame.square_centre(f, r) for f, r in road]
    n = frame.n
    (f0, r0), (f1, r1) = road[0], road[-1]
    reach = frame.square / 2
    if {f0, f1} == {0, n - 1}:
        points.insert(0, (points[0][0] + (-reach if f0 == 0 else reach), points[0][1]))
        points.append((points[-1][0] + (-reach if f1 == 0 else reach), points[-1][1]))
    else:
        points.insert(0, (points[0][0], points[0][1] + (reach if r0 == 0 else -reach)))
        points.append((points[-1][0], points[-1][1] + (reach if r1 == 0 else -reach)))
    width = max(3, round(frame.square * 0.3))
    edge = max(1, round(frame.square * 0.04))
    draw.line(points, fill=edge_colour, width=width + 2 * edge, joint="curve")
    draw.line(points, fill=colour, width=width, joint="curve")


@dataclass(frozen=True, slots=True)
class Profile:
    """How a stack's buried pieces are drawn on an image `width` px wide with squares of side
    `square`: layers `fill` px thick with `line` px of the theme's layer line between them, so
    that each layer stays at least :data:`MIN_PHONE_LAYER` px thick on a phone."""

    width: int
    square: int

    @property
    def line(self) -> int:
        return max(1, round(self.width / PHONE_WIDTH))

    @property
    def fill(self) -> int:
        """The thinnest a layer is drawn: readable once the image is shrunk to a phone's width."""
        return max(2, ceil(MIN_PHONE_LAYER * self.width / PHONE_WIDTH))

    @property
    def carry_gap(self) -> int:
        """The break between the pieces below the carry limit and those above it."""
        return 2 * self.line

    @property
    def margin(self) -> int:
        return max(1, round(0.03 * self.square))

    def layers_height(self, count: int, fill: int, carry_break: bool) -> int:
        """The height of `count` layers `fill` thick, framed by the layer line."""
        if count == 0:
            return 0
        # A break splits the layers into two framed groups: a gap and one more line.
        extra = self.carry_gap + self.line if carry_break else 0
        return count * (fill + self.line) + self.line + extra


def stack_strips(position: Position, width: int) -> list[tuple[int, int]]:
    """The squares (file, rank) whose stacks are too tall for their square at `width`: each gets
    a strip below the board with its full order. Listed top row first, then by file."""
    n = position.size
    return [
        (file, rank)
        for rank in reversed(range(n))
        for file in range(n)
        if _stack_plan(
            width, n, position.stack(file, rank).top, position.stack(file, rank).height
        ).hidden
    ]


@dataclass(frozen=True, slots=True)
class _StackPlan:
    """Where a stack's parts go in its square, in px from the square's top left corner."""

    top_size: int  # the top piece's side
    top_corner: tuple[int, int]
    layers: tuple[int, int, int, int]  # the box of the layers drawn (and the dots under them)
    shown: int  # buried pieces drawn as layers, the topmost ones
    fill: int  # a layer's thickness
    hidden: bool  # pieces further down are left out: a row of dots, and a strip below the board


@lru_cache(maxsize=64)
def _tag(width: int, square: int, height: int) -> tuple[Line, tuple[int, int, int, int]]:
    """The height tag's digits and its box in the square's top right corner, in px from the
    square's top left corner: at least :data:`MIN_PHONE_TAG` px tall on a phone."""
    size = max(ceil(MIN_PHONE_TAG / 0.96 * width / PHONE_WIDTH), round(square * 0.18))
    line = Line.of(str(height), size)
    inset = max(1, round(square * 0.04)) + _gap(square)
    right = square - inset
    box = (right - ceil(line_width(line) + 0.36 * size), inset, right, inset + round(0.96 * size))
    return line, box


@lru_cache(maxsize=4096)
def _stack_plan(width: int, n: int, top: Piece, height: int) -> _StackPlan:
    """How a stack of `height` pieces is drawn in a square of an `n`x`n` board `width` px wide.

    In order of preference: every buried piece under the top piece at full size, layers as thick
    as the design wants where there is room; every buried piece under a smaller top piece; the
    most buried pieces that fit under the top piece at full size over a row of dots; the carry
    limit's worth (the pieces that can move this turn) under a top piece made as small as it
    must, down to :data:`MIN_TOP_SHARE` of its size. Nothing comes within a few px of the
    height tag."""
    square = layout(width, n).square
    sizes, profile = _PieceSizes(square), Profile(width, square)
    full = sizes.top(top)
    buried = height - 1
    if not buried:
        corner = ((square - full) // 2, (square - full) // 2)
        return _StackPlan(full, corner, (0, 0, 0, 0), 0, profile.fill, False)
    fixed = max(0, height - n)
    smallest = max(1, round(MIN_TOP_SHARE * full))
    wanted = max(profile.fill, round(0.1 * square) - profile.line)

    def plan(size: int, shown: int, fill: int) -> _StackPlan | None:
        hidden = shown < buried
        broken = 0 < fixed - (buried - shown) < shown
        tall = profile.layers_height(shown, fill, broken)
        if hidden:
            tall += profile.carry_gap + fill
        layer_width = round(sizes.flat * size / full)  # as wide as a flat beside the top piece
        return _place(width, square, height, size, layer_width, tall, shown, fill, hidden)

    candidates = [(full, buried, fill) for fill in range(wanted, profile.fill - 1, -1)]
    candidates += [(size, buried, profile.fill) for size in range(full - 1, smallest - 1, -1)]
    candidates += [(full, shown, profile.fill) for shown in range(buried - 1, n - 2, -1)]
    movable = min(buried - 1, n - 1)
    candidates += [(size, movable, profile.fill) for size in range(full - 1, smallest - 1, -1)]
    candidates += [(smallest, shown, profile.fill) for shown in range(movable - 1, -1, -1)]
    for size, shown, fill in candidates:
        found = plan(size, shown, fill)
        if found is not None:
            return found
    raise ValueError(f"A stack cannot be drawn in a square of {square} px.")


def _place(
    width: int,
    square: int,
    height: int,
    size: int,
    layer_width: int,
    tall: int,
    shown: int,
    fill: int,
    hidden: bool,
) -> _StackPlan | None:
    """The top piece (`size` px) over `tall` px of layers `layer_width` wide, put where they
    keep clear of the height tag and inside the square's margin; None if there is no such
    place. Centred a little left of the middle, or as far left as the tag needs; then both
    again below the tag."""
    margin = Profile(width, square).margin
    inside = square - _gap(square)  # the square's own colour, less the line between squares
    column = size + tall
    if column > inside - 2 * margin:
        return None
    _, (tag_left, _, _, tag_bottom) = _tag(width, square, height)
    clearance = max(1, round(TAG_CLEARANCE * width / PHONE_WIDTH))
    limit = tag_left - clearance  # no part above the tag's bottom reaches past this
    for top in ((inside - column) // 2, tag_bottom + clearance):
        if top + column > inside - margin:
            continue
        in_band = [
            w for y, w in ((top, size), (top + size, layer_width)) if y < tag_bottom + clearance
        ]
        centre = min([square / 2 - round(0.1 * square)] + [limit - w / 2 for w in in_band])
        piece_left = floor(centre - size / 2)
        layers_left = floor(centre - layer_width / 2)
        if min(piece_left, layers_left) >= margin:
            layers = (layers_left, top + size, layers_left + layer_width, top + column)
            return _StackPlan(size, (piece_left, top), layers, shown, fill, hidden)
    return None


def _layer_colours(theme: Theme, stack: Stack, n: int, under: RGB) -> list[RGB]:
    """The buried pieces' colours, bottom to top: those below the carry limit `n` (which cannot
    move this turn) faded toward `under`."""
    fixed = max(0, stack.height - n)
    return [
        theme.players[colour].fill
        if index >= fixed
        else theme.buried(theme.players[colour].fill, under)
        for index, colour in enumerate(stack.colors[:-1])
    ]


def _draw_layers(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    colours: list[RGB],
    fixed: int,
    box: tuple[int, int, int, int],
    fill: int,
    line: int,
    gap: int,
    vertical: bool,
) -> None:
    """Layers of `colours` (bottom first), each `fill` px thick between lines `line` px thick in
    the theme's layer line; the first `fixed` (below the carry limit) set `gap` px apart from the
    rest. Vertical profiles grow up from the bottom of `box`; strips grow right from its left."""
    left, top, right, bottom = box
    count = len(colours)
    groups = [(0, fixed), (fixed, count)] if 0 < fixed < count else [(0, count)]
    at = bottom if vertical else left
    for start, stop in groups:
        if start and gap:
            at += -gap if vertical else gap
        length = (stop - start) * (fill + line) + line
        if vertical:
            draw.rectangle((left, at - length, right - 1, at - 1), theme.layer_line)
        else:
            draw.rectangle((at, top, at + length - 1, bottom - 1), theme.layer_line)
        for index in range(start, stop):
            offset = line + (index - start) * (fill + line)
            if vertical:
                y1 = at - offset
                draw.rectangle((left + line, y1 - fill, right - 1 - line, y1 - 1), colours[index])
            else:
                x0 = at + offset
                draw.rectangle((x0, top + line, x0 + fill - 1, bottom - 1 - line), colours[index])
        at += -length if vertical else length


def _draw_stack(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: Layout,
    theme: Theme,
    file: int,
    rank: int,
    stack: Stack,
    under: RGB,
    on_road: bool,
) -> None:
    """The stack's profile (buried pieces as layers, bottom to top) under its top piece, and the
    height on a tag in the corner for stacks of two or more (see :func:`_stack_plan`). A stack
    too tall for its square shows its topmost layers over a row of dots (in the muted text
    colour, never a player's); its strip below the board shows them all (see
    :func:`stack_strips`)."""
    left, top, _, _ = frame.square_box(file, rank)
    plan = _stack_plan(frame.width, frame.n, stack.top, stack.height)
    profile = Profile(frame.width, frame.square)
    colours = _layer_colours(theme, stack, frame.n, under)
    fixed = max(0, stack.height - frame.n) - (len(colours) - plan.shown)
    colours = colours[len(colours) - plan.shown :]
    x0, y0, x1, y1 = plan.layers
    fill, line = plan.fill, profile.line
    if plan.hidden:
        y = top + y1 - fill // 2 - 1
        half_dot = fill // 2
        for step in (-1, 0, 1):
            x = left + round((x0 + x1) / 2) + step * 2 * fill
            draw.rectangle((x - half_dot, y - half_dot, x + half_dot, y + half_dot), theme.muted)
        y1 -= profile.carry_gap + fill
    if colours:
        box = (left + x0, top + y0, left + x1, top + y1)
        _draw_layers(draw, theme, colours, max(0, fixed), box, fill, line, profile.carry_gap, True)
    piece = theme.players[stack.colors[-1]]
    corner = (left + plan.top_corner[0], top + plan.top_corner[1])
    if on_road:
        sprite = _sprite(stack.top, piece.fill, piece.edge, plan.top_size)
        image.paste(sprite, corner, sprite)
    else:
        # Nothing else is drawn under the top piece's box: paste it ready-made on its square.
        image.paste(_sprite_on(stack.top, piece.fill, piece.edge, plan.top_size, under), corner)
    if stack.height >= 2:
        _draw_height(image, frame, theme, (left, top), stack.height)


def _draw_strip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: Layout,
    theme: Theme,
    row: int,
    file: int,
    rank: int,
    stack: Stack,
) -> None:
    """One row below the board: the square's name, then its whole stack lying on its side on a
    plain square, bottom piece on the left and the top piece at the right end."""
    left, top, right, bottom = frame.strip_box(row)
    profile = Profile(frame.width, frame.square)
    size = round(30 * frame.unit)
    name = Line.of(f"{FILES[file]}{rank + 1}", size)
    draw_line(image, (left, (top + bottom) / 2), name, theme.text, "lm")
    under = theme.squares[0]
    colours = _layer_colours(theme, stack, frame.n, under)
    fixed = max(0, stack.height - frame.n)
    icon = bottom - top - 2 * profile.line
    start = left + round(2.2 * size)
    room = right - start - icon - 4 * profile.line
    line, gap = profile.line, profile.carry_gap
    fill = min(round(24 * frame.unit), (room - gap - 2 * line) // len(colours) - line)
    length = profile.layers_height(len(colours), fill, 0 < fixed < len(colours))
    pad = profile.line
    backing = (start - pad, top + pad, start + length + 2 * pad + icon, bottom - pad)
    draw.rounded_rectangle(backing, 2 * pad, under)
    band = round(0.3 * icon)
    box = (start, top + band // 2 + pad, start + length, bottom - band // 2 - pad)
    _draw_layers(draw, theme, colours, fixed, box, fill, line, gap, False)
    piece = theme.players[stack.colors[-1]]
    sprite = _sprite_on(stack.top, piece.fill, piece.edge, icon - 2 * pad, under)
    image.paste(sprite, (start + length + 2 * pad, top + 2 * pad))


def _draw_height(
    image: Image.Image, frame: Layout, theme: Theme, corner: tuple[int, int], height: int
) -> None:
    """The stack height on a small tag in the top right corner of the square at `corner`."""
    line, (x0, y0, x1, y1) = _tag(frame.width, frame.square, height)
    left, top = corner
    box = (left + x0, top + y0, left + x1 - 1, top + y1 - 1)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=line.size * 0.25, fill=theme.background)
    draw_line(image, ((box[0] + box[2] + 1) / 2, (box[1] + box[3] + 1) / 2), line, theme.text, "mm")


# ----------------------------------------------------------------------------- header and banner


def komi_text(komi: float) -> str:
    """Komi as a player reads it: "+2", "+2½", "+½", "−1"; empty for none."""
    if komi == 0:
        return ""
    whole, half = divmod(round(abs(komi) * 2), 2)
    return ("+" if komi > 0 else "−") + (str(whole) if whole else "") + ("½" if half else "")


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, frame: Layout, scene: Scene
) -> None:
    """Both players (name, flat count with komi, reserves), the move number, whose turn it is and
    the Tak (or Tinuë) marker."""
    position, theme, u = scene.position, scene.theme, frame.unit
    top = frame.pad
    bottom = top + frame.header_height - round(16 * u)
    centre_half = round(82 * u)
    middle = frame.width / 2
    name_size, stat_size = round(42 * u), round(32 * u)
    name_y, stat_y = top + round(54 * u), top + round(110 * u)
    inner = round(16 * u)
    chip = round(32 * u)
    ring = _swatch_ring(chip)
    for color in Color:
        on_left = color is Color.WHITE
        x0 = frame.pad if on_left else round(middle + centre_half)
        x1 = round(middle - centre_half) if on_left else frame.width - frame.pad
        if scene.result is None and position.to_move is color:
            # Framed in the theme's turn colour: whose turn it is, at 3:1 or more.
            mark = max(2, round(7 * u))
            panel = (x0, top, x1 - 1, bottom)
            draw.rounded_rectangle(panel, round(14 * u), theme.panel, theme.turn, mark)
        chip_x = x0 + inner + ring if on_left else x1 - inner - ring - chip
        chip_top = name_y - round(13 * u) - chip // 2
        _draw_swatch(image, draw, theme, Piece.FLAT, color, (chip_x, chip_top), chip)
        beside = ring + round(10 * u)
        text_x = chip_x + chip + beside if on_left else chip_x - beside
        room = (x1 - x0) - chip - 2 * inner - ring - beside
        shown = displayable(scene.names[color]) or scene.words.player.format(number=color.number)
        name = header_line(shown, name_size, room)
        ink = theme.muted if scene.result is None and position.to_move is not color else theme.text
        draw_line(image, (text_x, name_y), name, ink, "ls" if on_left else "rs")
        _draw_stats(image, draw, frame, scene, color, (x0 + inner, x1 - inner), stat_y, stat_size)
    heading = move_heading(position, scene.last_move, scene.words)
    number = header_line(heading, round(30 * u), 2 * centre_half)
    draw_line(image, (middle, top + round(44 * u)), number, theme.muted, "ms")
    if position.komi:
        komi_line = scene.words.komi.format(komi=komi_text(position.komi))
        komi = fit(komi_line, round(26 * u), 2 * centre_half)
        draw_line(image, (middle, top + round(72 * u)), komi, theme.muted, "ms")
    if scene.show_tak:
        tak = Line.of("TINUË" if scene.tinue else "TAK", round(32 * u))
        half_width = line_width(tak) / 2 + round(14 * u)
        box = (
            middle - half_width,
            stat_y - round(34 * u),
            middle + half_width,
            stat_y + round(10 * u),
        )
        draw.rounded_rectangle(box, round(8 * u), theme.alert)
        draw_line(image, (middle, (box[1] + box[3]) / 2), tak, theme.alert_text, "mm")


def _draw_stats(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: Layout,
    scene: Scene,
    color: Color,
    span: tuple[int, int],
    baseline: int,
    size: int,
) -> None:
    """ "Flats 12" and the reserves as icons with counts, on one line of the player's panel (the
    komi is written under the move number), a little smaller where the words are long."""
    position, theme, u = scene.position, scene.theme, frame.unit
    flats = scene.words.flats.format(count=position.flat_count(color))
    reserves = position.reserves(color)
    parts: list[tuple[Piece | None, str]] = [(None, flats), (Piece.FLAT, str(reserves.stones))]
    if position.starting_caps[color]:
        parts.append((Piece.CAP, str(reserves.caps)))
    # The whole line at `size` if it fits the panel, else a size smaller (longer words, as in
    # German, down to 80% of it).
    for shrunk in range(size, ceil(0.8 * size) - 1, -1):
        icon = round(shrunk * 0.7)
        ring = _swatch_ring(icon)
        gap, spacing = round(6 * u), round(18 * u)
        # An icon takes its light patch either side, then a gap before its count.
        taken = 2 * ring + icon + gap
        widths = [
            (0 if kind is None else taken) + line_width(Line.of(text, shrunk))
            for kind, text in parts
        ]
        total = sum(widths) + spacing * (len(parts) - 1)
        if total <= span[1] - span[0]:
            break
    size = shrunk
    x = span[0] if color is Color.WHITE else span[1] - total
    for (kind, text), width in zip(parts, widths, strict=True):
        if kind is not None:
            corner = (round(x) + ring, baseline - round(size * 0.36) - icon // 2)
            _draw_swatch(image, draw, theme, kind, color, corner, icon)
            x += taken
        colour = theme.text if kind is None else theme.muted
        draw_line(image, (x, baseline), Line.of(text, size), colour, "ls")
        x += width - (0 if kind is None else taken) + spacing


def _swatch_ring(side: int) -> int:
    """How far the light patch under a header piece `side` px wide shows round it."""
    return max(3, round(side * 0.4))


def _draw_swatch(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    kind: Piece,
    color: Color,
    corner: tuple[int, int],
    side: int,
) -> None:
    """A piece in the header, standing on a patch of the light square as on the board, so that
    a dark piece does not vanish into a dark background (nor reads as a hole in a light frame:
    the patch shows wide all round it)."""
    ring = _swatch_ring(side)
    left, top = corner
    patch = (left - ring, top - ring, left + side + ring - 1, top + side + ring - 1)
    draw.rounded_rectangle(patch, ring // 2, theme.squares[0])
    piece = theme.players[color]
    sprite = _sprite(kind, piece.fill, piece.edge, side)
    image.paste(sprite, corner, sprite)


def header_line(name: str, size: int, room: float) -> Line:
    """A line of the header (a player's name, the move shown): whole at `size` px if it fits in
    `room`, else whole at a smaller size down to 70% of it, else cut with an ellipsis at that
    smallest size."""
    text = displayable(name)
    whole = Line.of(text, size)
    width = line_width(whole)
    if width <= room:
        return whole
    smallest = ceil(0.7 * size)
    # Text width grows with its size: the size that fits is about size * room / width.
    for shrunk in range(max(smallest, int(size * room / width)), smallest - 1, -1):
        line = Line.of(text, shrunk)
        if line_width(line) <= room:
            return line
    return fit(text, smallest, room)


def banner_text(result: Result, names: tuple[str, str], words: BoardWords = ENGLISH) -> str:
    """The result for the banner, naming the winner: "Alice wins by road · R-0"."""
    if result.kind is ResultKind.ABORT:
        return words.aborted
    if result.winner is None:
        sentence = words.agreement if result.kind is ResultKind.AGREEMENT else words.tied
    else:
        name = displayable(names[result.winner]) or words.player.format(number=result.winner.number)
        template = {
            ResultKind.ROAD: words.road,
            ResultKind.FLATS: words.on_flats,
            ResultKind.RESIGNATION: words.resignation,
            ResultKind.TIME: words.time,
        }.get(result.kind, words.win)
        sentence = template.format(name=name)
    return f"{sentence} · {result.ptn()}"


def _banner_box(frame: Layout) -> tuple[int, int, int, int]:
    return (
        frame.pad,
        frame.banner_y,
        frame.width - frame.pad - 1,
        frame.banner_y + frame.banner_height,
    )


def _draw_banner(
    image: Image.Image,
    frame: Layout,
    theme: Theme,
    result: Result,
    names: tuple[str, str],
    words: BoardWords,
) -> None:
    ImageDraw.Draw(image).rounded_rectangle(_banner_box(frame), round(14 * frame.unit), theme.alert)
    _draw_banner_text(image, frame, banner_text(result, names, words), theme.alert_text)


def _draw_banner_text(image: Image.Image, frame: Layout, text: str, colour: RGB) -> None:
    """One line centred in the banner's box, cut with an ellipsis if it does not fit."""
    left, top, right, bottom = _banner_box(frame)
    line = fit(text, round(32 * frame.unit), right - left - round(24 * frame.unit))
    draw_line(image, (frame.width / 2, (top + bottom) / 2), line, colour, "mm")
