"""The board image: header, squares, pieces with stack profiles, last move, road, result banner.

Everything is measured from the image width, so every board size and width share one design.
What never changes for a (theme, width, board size) is drawn once and cached (the empty board
with its coordinates, the anti-aliased piece sprites); a render copies the cached board and
draws the position on it. Cached images are never drawn on, so renders may run in threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering.colour import RGB
from rendering.text import Line, displayable, draw_line, fit, line_width
from rendering.themes import Theme
from tak import Color, Move, Piece, Position, Result, ResultKind, Spread, Stack

DEFAULT_SIZE = 900
MIN_SIZE, MAX_SIZE = 240, 3000
FILES = "abcdefgh"
_SUPERSAMPLE = 4


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

    def square_centre(self, file: int, rank: int) -> tuple[float, float]:
        left, top, right, bottom = self.square_box(file, rank)
        return (left + right) / 2, (top + bottom) / 2


@lru_cache(maxsize=128)
def layout(width: int, n: int, banner: bool = False) -> Layout:
    """The layout of an image `width` px wide for an `n`x`n` board, with or without a banner."""
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
    banner_y = board_y + square * n + gutter
    banner_height = round(72 * unit) if banner else 0
    height = banner_y + banner_height + (pad if banner else 0)
    return Layout(
        width, n, banner, unit, pad, header_height, square, board_x, board_y, gutter,
        banner_y, banner_height, height,
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
    def layer(self) -> int:
        """The thickest a buried piece is drawn."""
        return max(2, round(0.1 * self.square))

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


def _gap(frame: Layout) -> int:
    """Width of the line between squares."""
    return max(1, round(frame.square * 0.025))


def _fill_square(
    draw: ImageDraw.ImageDraw, frame: Layout, file: int, rank: int, colour: RGB
) -> None:
    left, top, right, bottom = frame.square_box(file, rank)
    half = _gap(frame) / 2
    draw.rectangle((left + half, top + half, right - 1 - half, bottom - 1 - half), colour)


# ----------------------------------------------------------------------------- drawing a position


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


def draw_scene(scene: Scene) -> Image.Image:
    """The RGB image of a scene."""
    position, theme = scene.position, scene.theme
    banner = scene.result is not None or scene.banner_room or bool(scene.caption)
    frame = layout(scene.width, position.size, banner)
    image = _empty_board(theme, frame).copy()
    draw = ImageDraw.Draw(image)
    for file, rank in _moved_squares(scene.last_move, position.size):
        _fill_square(draw, frame, file, rank, theme.tinted_squares[(file + rank) % 2])
    road = scene.result.road if scene.result is not None else ()
    if road:
        _draw_road(draw, frame, road, theme.road)
    sizes = _PieceSizes(frame.square)
    tinted = set(_moved_squares(scene.last_move, position.size))
    for rank in range(position.size):
        for file in range(position.size):
            stack = position.stack(file, rank)
            if stack.colors:
                squares = theme.tinted_squares if (file, rank) in tinted else theme.squares
                under = squares[(file + rank) % 2]
                on_road = (file, rank) in road
                _draw_stack(image, draw, frame, sizes, theme, file, rank, stack, under, on_road)
    _draw_header(image, draw, frame, scene)
    if scene.result is not None:
        _draw_banner(image, frame, theme, scene.result)
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
    draw: ImageDraw.ImageDraw, frame: Layout, road: tuple[tuple[int, int], ...], colour: RGB
) -> None:
    """A band through the road's squares, run out to the two edges it joins."""
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
    draw.line(points, fill=colour, width=width, joint="curve")


def _stack_bands(
    stack: Stack, n: int, room: float, layer: int
) -> tuple[list[tuple[Color, float, float, bool]], float]:
    """The buried pieces as bands (colour, bottom, top, can move), measured upward from 0, and
    the total height they take, within `room` px.

    Pieces that can move this turn (the top `n`, the carry limit) keep at least 3 px each where
    possible; the rest share what is left. Neighbouring pieces of one colour form one band, so
    the order of colours stays readable however tall the stack is.
    """
    buried = stack.colors[:-1]
    count = len(buried)
    if count == 0:
        return [], 0.0
    fixed = max(0, stack.height - n)  # below the carry limit
    gap = max(1.0, layer * 0.4) if fixed else 0.0
    movable = count - fixed
    if count * layer + gap <= room:
        thick_fixed = thick_movable = float(layer)
    elif (room - gap) / count >= 3 or fixed == 0 or movable == 0:
        thick_fixed = thick_movable = (room - gap) / count
    else:
        thick_movable = min(float(layer), max(3.0, (room - gap) * 0.6 / movable))
        thick_fixed = (room - gap - thick_movable * movable) / fixed
    bands: list[tuple[Color, float, float, bool]] = []
    y = 0.0
    for index, colour in enumerate(buried):
        moves = index >= fixed
        if moves and index == fixed and fixed:
            y += gap
        thickness = thick_movable if moves else thick_fixed
        if bands and bands[-1][0] == colour and bands[-1][3] == moves and thickness < 4:
            bands[-1] = (colour, bands[-1][1], y + thickness, moves)
        else:
            bands.append((colour, y, y + thickness, moves))
        y += thickness
    return bands, y


def _draw_stack(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    frame: Layout,
    sizes: _PieceSizes,
    theme: Theme,
    file: int,
    rank: int,
    stack: Stack,
    under: RGB,
    on_road: bool,
) -> None:
    """The stack's profile (buried pieces as layers, bottom to top) with the top piece above it,
    and the height in the corner for stacks of two or more."""
    left, top, right, _ = frame.square_box(file, rank)
    square, margin = frame.square, sizes.margin
    room = square - 2 * margin
    top_size = sizes.top(stack.top)
    # A tall stack makes the top piece give up to a quarter of its size to the layers.
    wanted = (stack.height - 1) * sizes.layer
    top_size = max(round(top_size * 0.75), min(top_size, room - wanted))
    bands, layers_height = _stack_bands(stack, frame.n, room - top_size, sizes.layer)
    column = top_size + layers_height
    column_top = top + (square - column) / 2
    base = column_top + column  # bottom of the lowest layer
    # Stacks stand a little left of centre, leaving the top right corner to the height tag.
    centre_x = (left + right) / 2 - (round(0.1 * square) if stack.height >= 2 else 0)
    half = sizes.flat / 2
    for colour, low, high, moves in bands:
        piece = theme.players[colour]
        fill = piece.fill if moves else theme.buried(piece.fill, under)
        edge = piece.edge if moves else theme.buried(piece.edge, under)
        y0, y1 = round(base - high), round(base - low)
        if y1 <= y0:
            continue
        box = (round(centre_x - half), y0, round(centre_x + half) - 1, y1 - 1)
        outline = edge if high - low >= 4 else None
        draw.rectangle(box, fill=fill, outline=outline)
    piece = theme.players[stack.colors[-1]]
    x = round(centre_x - top_size / 2)
    y = round(column_top)
    if on_road:
        sprite = _sprite(stack.top, piece.fill, piece.edge, top_size)
        image.paste(sprite, (x, y), sprite)
    else:
        # Nothing else is drawn under the top piece's box: paste it ready-made on its square.
        image.paste(_sprite_on(stack.top, piece.fill, piece.edge, top_size, under), (x, y))
    if stack.height >= 2:
        _draw_height(image, frame, theme, (right, top), stack.height)


def _draw_height(
    image: Image.Image, frame: Layout, theme: Theme, corner: tuple[int, int], height: int
) -> None:
    """The stack height on a small tag in the square's top right corner."""
    size = max(9, round(frame.square * 0.18))
    line = Line.of(str(height), size)
    width = line_width(line)
    inset = max(1, round(frame.square * 0.04))
    pad_x, pad_y = size * 0.18, size * 0.12
    right, top = corner[0] - inset - _gap(frame), corner[1] + inset + _gap(frame)
    box = (right - width - 2 * pad_x, top, right, top + size * 0.72 + 2 * pad_y)
    ImageDraw.Draw(image).rounded_rectangle(box, radius=size * 0.25, fill=theme.background)
    draw_line(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), line, theme.text, "mm")


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
    centre_half = round(95 * u)
    middle = frame.width / 2
    name_size, stat_size = round(42 * u), round(32 * u)
    name_y, stat_y = top + round(54 * u), top + round(110 * u)
    inner = round(16 * u)
    chip = round(36 * u)
    for color in Color:
        on_left = color is Color.WHITE
        x0 = frame.pad if on_left else round(middle + centre_half)
        x1 = round(middle - centre_half) if on_left else frame.width - frame.pad
        if scene.result is None and position.to_move is color:
            draw.rounded_rectangle((x0, top, x1 - 1, bottom), round(14 * u), theme.panel)
        piece = theme.players[color]
        sprite = _sprite(Piece.FLAT, piece.fill, piece.edge, chip)
        chip_x = x0 + inner if on_left else x1 - inner - chip
        chip_top = name_y - round(13 * u) - chip // 2
        image.paste(sprite, (chip_x, chip_top), sprite)
        text_x = chip_x + chip + round(12 * u) if on_left else chip_x - round(12 * u)
        room = (x1 - x0) - chip - 2 * inner - round(12 * u)
        name = fit(displayable(scene.names[color]) or f"Player {color.number}", name_size, room)
        ink = theme.muted if scene.result is None and position.to_move is not color else theme.text
        draw_line(image, (text_x, name_y), name, ink, "ls" if on_left else "rs")
        _draw_stats(image, draw, frame, scene, color, (x0 + inner, x1 - inner), stat_y, stat_size)
    number = Line.of(f"Move {position.ply // 2 + 1}", round(30 * u))
    draw_line(image, (middle, name_y), number, theme.muted, "ms")
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
    """ "Flats 12 +2" and the reserves as icons with counts, on one line of the player's panel."""
    position, theme, u = scene.position, scene.theme, frame.unit
    flats = f"Flats {position.flat_count(color)}"
    if color is Color.BLACK:
        flats += f" {komi_text(position.komi)}".rstrip()
    reserves = position.reserves(color)
    parts: list[tuple[Piece | None, str]] = [(None, flats), (Piece.FLAT, str(reserves.stones))]
    if position.starting_caps[color]:
        parts.append((Piece.CAP, str(reserves.caps)))
    icon = round(size * 0.8)
    gap, spacing = round(8 * u), round(26 * u)
    widths = [
        (0 if kind is None else icon + gap) + line_width(Line.of(text, size))
        for kind, text in parts
    ]
    total = sum(widths) + spacing * (len(parts) - 1)
    x = span[0] if color is Color.WHITE else span[1] - total
    piece = theme.players[color]
    for (kind, text), width in zip(parts, widths, strict=True):
        if kind is not None:
            sprite = _sprite(kind, piece.fill, piece.edge, icon)
            image.paste(sprite, (round(x), baseline - round(size * 0.36) - icon // 2), sprite)
            x += icon + gap
        colour = theme.text if kind is None else theme.muted
        draw_line(image, (x, baseline), Line.of(text, size), colour, "ls")
        x += width - (0 if kind is None else icon + gap) + spacing


def _banner_box(frame: Layout) -> tuple[int, int, int, int]:
    return (
        frame.pad,
        frame.banner_y,
        frame.width - frame.pad - 1,
        frame.banner_y + frame.banner_height,
    )


def _draw_banner(image: Image.Image, frame: Layout, theme: Theme, result: Result) -> None:
    ImageDraw.Draw(image).rounded_rectangle(_banner_box(frame), round(14 * frame.unit), theme.alert)
    text = result.describe()
    if result.kind is not ResultKind.ABORT:
        text += f"  {result.ptn()}"
    _draw_banner_text(image, frame, text, theme.alert_text)


def _draw_banner_text(image: Image.Image, frame: Layout, text: str, colour: RGB) -> None:
    """One line centred in the banner's box, cut with an ellipsis if it does not fit."""
    left, top, right, bottom = _banner_box(frame)
    line = fit(text, round(32 * frame.unit), right - left - round(24 * frame.unit))
    draw_line(image, (frame.width / 2, (top + bottom) / 2), line, colour, "mm")
