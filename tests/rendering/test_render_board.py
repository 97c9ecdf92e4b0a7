"""The board image, checked on its pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rendering import DEFAULT_SIZE, THEMES, komi_text, layout, render_board
from rendering.board import PHONE_WIDTH, banner_text, header_line, move_heading
from rendering.colour import contrast
from rendering.text import Line, line_width
from rendering.themes import MIN_GRAPHIC_CONTRAST
from tak import Call, Color, Position, Result, ResultKind, parse_move, tak_call

WIDTH = 600
# Whose turn: the to-move mark against what it replaces, WCAG's 3:1 for graphics.
MIN_TURN_CONTRAST = 3.0
# The light patch round a header piece on a phone, px (2 px read as a frame round a hole).
MIN_PATCH = 4


def pixels(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def column_colours(image: Image.Image, width: int, n: int, square: tuple[int, int]) -> list:
    """The colours met going up through a square at 40% of its width (inside every stack's
    profile and top piece), with repeats merged."""
    frame = layout(width, n)
    left, top, _, bottom = frame.square_box(*square)
    x = left + round(0.4 * frame.square)
    seen: list = []
    for y in range(bottom - 1, top - 1, -1):
        colour = image.getpixel((x, y))
        if not seen or seen[-1] != colour:
            seen.append(colour)
    return seen


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_a_flats_centre_has_its_owners_colour(theme: str) -> None:
    position = Position.from_tps("1,x2/x,2,x/x2,2 1 3")
    image = pixels(render_board(position, theme=theme, size=WIDTH))
    frame = layout(WIDTH, 3)
    white, black = (p.fill for p in THEMES[theme].players)
    assert image.getpixel(frame.square_centre(0, 2)) == white
    assert image.getpixel(frame.square_centre(1, 1)) == black
    assert image.getpixel(frame.square_centre(2, 0)) == black
    assert image.getpixel(frame.square_centre(0, 0)) in THEMES[theme].squares


def test_stack_layers_read_bottom_to_top_in_order() -> None:
    theme = THEMES["default"]
    white, black = (p.fill for p in theme.players)
    position = Position.from_tps("x5/x5/x2,11212,x2/x5/x5 1 5")
    image = pixels(render_board(position, size=WIDTH))
    fills = [c for c in column_colours(image, WIDTH, 5, (2, 2)) if c in (white, black)]
    merged = [c for i, c in enumerate(fills) if i == 0 or fills[i - 1] != c]
    # Bottom to top: 1 1 2 1 2 -> white, black, white, then the black top piece.
    assert merged == [white, black, white, black]


def test_pieces_below_the_carry_limit_are_drawn_apart_and_faded() -> None:
    theme = THEMES["default"]
    position = Position.from_tps("x3/x,2211121,x/x3 1 6", stones=20)
    image = pixels(render_board(position, size=WIDTH))
    square = theme.squares[(1 + 1) % 2]
    white, black = (p.fill for p in theme.players)
    faded_white, faded_black = (theme.buried(p.fill, square) for p in theme.players)
    names = {white: "W", black: "B", faded_white: "w", faded_black: "b"}
    seen = [names[c] for c in column_colours(image, WIDTH, 3, (1, 1)) if c in names]
    merged = "".join(c for i, c in enumerate(seen) if i == 0 or seen[i - 1] != c)
    # 2211 are below the 3x3 carry limit; 12 and the white top piece can move.
    assert merged == "bwWBW"


def test_the_last_moves_squares_are_tinted() -> None:
    theme = THEMES["default"]
    # 2a2>11 took a2's two pieces and dropped one on b2 and one on c2.
    position = Position.from_tps("x4/x4/x,1,22,21/x4 1 5")
    move = parse_move("2a2>11")
    plain = pixels(render_board(position, size=WIDTH))
    tinted = pixels(render_board(position, last_move=move, size=WIDTH))
    frame = layout(WIDTH, 4)
    for file in range(4):
        left, top, _, _ = frame.square_box(file, 1)
        beside_piece = (left + 4, top + frame.square // 2)
        colour = theme.squares[(file + 1) % 2]
        assert plain.getpixel(beside_piece) == colour
        moved = theme.tinted_squares[(file + 1) % 2]
        assert tinted.getpixel(beside_piece) == (moved if file < 3 else colour)
        assert moved != colour
    assert tinted.getpixel((0, 0)) == plain.getpixel((0, 0))


def test_a_placement_tints_its_square_only() -> None:
    theme = THEMES["paper"]
    position = Position.from_tps("x3/x,2,x/x3 2 1")  # White's first ply places Black's flat
    image = pixels(render_board(position, last_move=parse_move("b2"), theme="paper", size=WIDTH))
    frame = layout(WIDTH, 3)
    for file in range(3):
        for rank in range(3):
            left, top, _, _ = frame.square_box(file, rank)
            expected = theme.tinted_squares if (file, rank) == (1, 1) else theme.squares
            assert image.getpixel((left + 4, top + 4)) == expected[(file + rank) % 2]


def test_a_road_is_drawn_across_its_squares_with_a_banner() -> None:
    theme = THEMES["default"]
    position = Position.from_tps("x4/1,1,1,1/2,2,2,x/x4 2 5")
    assert position.result is not None and position.result.kind is ResultKind.ROAD
    image = pixels(render_board(position, size=WIDTH))
    frame = layout(WIDTH, 4, banner=True)
    assert image.size == (WIDTH, frame.height)
    for file in range(4):
        left, top, right, bottom = frame.square_box(file, 2)
        # Between the pieces: the square's left and right edges, on the road's centre line.
        assert image.getpixel((left + 3, (top + bottom) // 2)) == theme.road
        assert image.getpixel((right - 4, (top + bottom) // 2)) == theme.road
    banner = image.getpixel((frame.pad + 6, frame.banner_y + frame.banner_height // 2))
    assert banner == theme.alert


def test_a_given_result_shows_a_banner_without_a_road() -> None:
    theme = THEMES["default"]
    position = Position(5)
    resigned = Result(Color.BLACK, ResultKind.RESIGNATION)
    image = pixels(render_board(position, result=resigned, size=WIDTH))
    frame = layout(WIDTH, 5, banner=True)
    assert image.size == (WIDTH, frame.height)
    assert theme.road not in {c for _, c in image.getcolors(1 << 20)}


def test_towers_of_forty_stay_inside_their_square() -> None:
    tall = "12" * 30
    tower = Position.from_tps(f"x8/x8/x8/x3,{tall},x4/x8/x8/x8/x8 1 40", stones=60)
    empty = Position.from_tps("x8/x8/x8/x8/x8/x8/x8/x8 1 1", stones=60)
    with_tower = pixels(render_board(tower, size=WIDTH))
    without = pixels(render_board(empty, size=WIDTH))
    frame = layout(WIDTH, 8)
    inside = frame.square_box(3, 4)
    for rank in range(8):
        for file in range(8):
            box = frame.square_box(file, rank)
            same = with_tower.crop(box).tobytes() == without.crop(box).tobytes()
            assert same == ((file, rank) != (3, 4))
    assert with_tower.crop(inside).tobytes() != without.crop(inside).tobytes()


def test_walls_capstones_and_flats_look_different() -> None:
    position = Position.from_tps("1,1S,1C/x3/x3 2 3", caps=1)
    image = pixels(render_board(position, size=WIDTH))
    frame = layout(WIDTH, 3)
    shapes = [image.crop(frame.square_box(file, 2)).tobytes() for file in range(3)]
    assert len(set(shapes)) == 3


def test_tak_marker_defaults_to_the_road_threat_of_the_player_who_moved() -> None:
    threat = Position.from_tps("x4/1,1,1,x/2,2,x2/x4 2 4")
    assert threat.has_road_threat(Color.WHITE)
    calm = Position.from_tps("x4/1,x,1,x/2,2,x2/x4 2 4")
    assert not calm.has_road_threat(Color.WHITE)
    assert render_board(threat) == render_board(threat, show_tak=True)
    assert render_board(threat) != render_board(threat, show_tak=False)
    assert render_board(calm) == render_board(calm, show_tak=False)


def test_the_marker_reads_tinue_when_no_reply_stops_the_threat() -> None:
    fork = Position.from_tps("x3/1,x2/1,1,x 2 3")  # White threatens c1 and a3
    assert tak_call(fork) is Call.TINUE
    tinue = render_board(fork)
    assert tinue == render_board(fork, show_tak=True, tinue=True)
    assert tinue != render_board(fork, show_tak=True, tinue=False)
    # Tinuë without Tak is no marker at all.
    assert render_board(fork, show_tak=False, tinue=True) == render_board(fork, show_tak=False)


def test_the_same_input_gives_the_same_bytes() -> None:
    position = Position.from_tps("x4/1,1212,1,x/2,2S,x2/1C,x3 2 9", komi=2.5, caps=1)
    options = {"last_move": parse_move("c3<"), "players": ("Аня", "李"), "size": 700}
    assert render_board(position, **options) == render_board(position, **options)


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("n", range(3, 9))
def test_every_board_size_renders_in_every_theme(n: int, theme: str) -> None:
    position = Position(n, komi=2)
    for move in ("a1", f"{'abcdefgh'[n - 1]}{n}", "b2", "b1", "b2-", "Sc2"):
        position.play(move)
    image = pixels(render_board(position, last_move=position.last_move, theme=theme))
    frame = layout(DEFAULT_SIZE, n)
    assert image.size == (DEFAULT_SIZE, frame.height)
    assert frame.board_x + frame.board_side <= DEFAULT_SIZE - frame.pad
    assert frame.square >= 100  # 8x8 still ~45 px a square at a phone's 400 px
    black = THEMES[theme].players[1].fill
    assert image.getpixel(frame.square_centre(n - 1, n - 1)) == THEMES[theme].players[0].fill
    assert black in {c for _, c in image.getcolors(1 << 20)}


def test_bad_options_are_refused_with_a_reason() -> None:
    position = Position(5)
    with pytest.raises(ValueError, match=r"no theme 'neon'.*default, paper, high-contrast"):
        render_board(position, theme="neon")
    with pytest.raises(ValueError, match="width must be"):
        render_board(position, size=50)
    with pytest.raises(ValueError, match="leaves the 5x5 board"):
        render_board(position, last_move=parse_move("3a5+12"))
    with pytest.raises(ValueError, match="two player names"):
        render_board(position, players=("only one",))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("komi", "text"), [(0, ""), (2, "+2"), (2.5, "+2½"), (0.5, "+½"), (-1, "−1"), (-1.5, "−1½")]
)
def test_komi_is_written_with_halves(komi: float, text: str) -> None:
    assert komi_text(komi) == text


def test_renders_in_threads_match_renders_in_turn() -> None:
    from concurrent.futures import ThreadPoolExecutor

    positions = [
        Position.from_tps(tps, stones=60)
        for tps in ("x3/x,1212,x/2,x,1 1 4", "x4/1,2,1,2/x4/21,x3 2 5", "x5/x5/x2,121,x2/x5/x5 1 3")
    ]
    jobs = [(p, theme, name) for p in positions for theme in THEMES for name in ("Ана", "王", "Bo")]

    def draw(job: tuple[Position, str, str]) -> bytes:
        position, theme, name = job
        return render_board(position, theme=theme, players=(name, "x"), size=500)

    in_turn = [draw(job) for job in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(draw, jobs)) == in_turn


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (Result(Color.WHITE, ResultKind.ROAD), "Alice wins by road · R-0"),
        (Result(Color.BLACK, ResultKind.FLATS), "Bob wins on flats · 0-F"),
        (Result(Color.BLACK, ResultKind.TIME), "Bob wins on time · 0-1"),
        (Result(None, ResultKind.AGREEMENT), "Draw by agreement · 1/2-1/2"),
        (Result(None, ResultKind.ABORT), "The game was aborted"),
    ],
)
def test_the_banner_names_the_winner_in_one_spaced_line(result: Result, text: str) -> None:
    assert banner_text(result, ("Alice", "Bob")) == text


def test_long_names_shrink_before_they_are_cut() -> None:
    whole = Line.of("Alexandria Worthington", 40)
    room = 0.85 * line_width(whole)  # too wide at full size...
    shrunk = header_line("Alexandria Worthington", 40, room)
    assert shrunk.text() == "Alexandria Worthington"  # ...so it is drawn smaller, whole
    assert 28 <= shrunk.size < 40 and line_width(shrunk) <= room
    cut = header_line("Alexandria Worthington-Featherstonehaugh", 40, room)
    assert cut.text().endswith("…") and cut.size == 28 and line_width(cut) <= room
    assert header_line("Bo", 40, room).size == 40


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_both_header_swatches_stand_on_a_light_square(theme: str) -> None:
    chosen = THEMES[theme]
    image = pixels(render_board(Position(5), theme=theme, size=WIDTH))
    frame = layout(WIDTH, 5)
    for half in ((0, WIDTH // 2), (WIDTH // 2, WIDTH)):
        header = image.crop((half[0], 0, half[1], frame.board_y - frame.gutter))
        colours = {c for _, c in header.getcolors(1 << 16)}
        assert chosen.squares[0] in colours
    assert contrast(chosen.players[1].fill, chosen.squares[0]) >= 3


def test_komi_is_written_as_komi_under_the_move_number() -> None:
    frame = layout(WIDTH, 5)
    images = [pixels(render_board(Position(5, komi=k), size=WIDTH)) for k in (0, 2)]
    third = WIDTH // 3
    black_panel = (2 * third, 0, WIDTH, frame.board_y - frame.gutter)
    centre = (third, 0, 2 * third, frame.board_y - frame.gutter)
    plain, komi = (image.crop(black_panel).tobytes() for image in images)
    assert plain == komi  # Black's flat count no longer carries a bare "+2"
    plain, komi = (image.crop(centre).tobytes() for image in images)
    assert plain != komi


def test_the_heading_numbers_the_move_shown_as_the_ptn_does() -> None:
    position = Position(6)
    assert move_heading(position, None) == "Move 1"
    for text in ("a1", "f6", "b2", "c3"):
        move = parse_move(text)
        position.push(move)
        last = move
    # Ply 4 was black's second move: "2... c3", as the PTN "2. b2 c3" and the post number it.
    assert move_heading(position, last) == "2... c3"
    white = parse_move("d4")
    position.push(white)
    assert move_heading(position, white) == "3. d4"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_whose_turn_is_marked_at_3_to_1_in_every_theme(theme: str) -> None:
    """At a phone's width, the header of the player to move differs from the same header when
    it is the other player's turn by a mark at 3:1 or more (a frame, not a shade)."""
    frame = layout(PHONE_WIDTH, 6)
    white, black = (
        pixels(
            render_board(
                Position.from_tps(f"x6/x6/x6/x6/x6/x6 {turn} 2"), theme=theme, size=PHONE_WIDTH
            )
        )
        for turn in (1, 2)
    )
    header = frame.board_y - frame.gutter

    def marked(left: int, right: int) -> int:
        """Pixels of the header between `left` and `right` at 3:1 between the two turns."""
        return sum(
            1
            for x in range(left, right)
            for y in range(header)
            if contrast(white.getpixel((x, y)), black.getpixel((x, y))) >= MIN_TURN_CONTRAST
        )

    # A frame 2 px wide round a panel about 150 x 60 px.
    assert marked(0, PHONE_WIDTH // 2) >= 400
    assert marked(PHONE_WIDTH // 2, PHONE_WIDTH) >= 400


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_player_2s_chip_is_a_dark_piece_on_a_light_patch(theme: str) -> None:
    """At a phone's width, player 2's header chip shows the light patch at least MIN_PATCH px
    wide on every side of the piece, so it reads as a dark piece, not as a hole in a frame."""
    chosen = THEMES[theme]
    image = pixels(render_board(Position(6), theme=theme, size=PHONE_WIDTH))
    frame = layout(PHONE_WIDTH, 6)
    light = chosen.squares[0]
    # The chip stands at the right end of the name's row in player 2's header: its patch's
    # right edge is the rightmost light pixel there.
    patch_pixels = [
        (x, y)
        for x in range(PHONE_WIDTH // 2, PHONE_WIDTH)
        for y in range(frame.pad, frame.pad + round(0.4 * frame.header_height))
        if image.getpixel((x, y)) == light
    ]
    right = max(x for x, _ in patch_pixels)
    rows = sorted(y for x, y in patch_pixels if x == right)
    y = rows[len(rows) // 2]
    x = right
    while image.getpixel((x, y)) == light:
        x -= 1
    x -= 2  # into the piece
    assert image.getpixel((x, y)) != light

    def patch(dx: int, dy: int) -> int:
        """How far the light patch runs from the piece's edge in the direction (dx, dy)."""
        px, py = x, y
        while image.getpixel((px, py)) != light:
            px, py = px + dx, py + dy
        run = 0
        while image.getpixel((px, py)) == light:
            px, py, run = px + dx, py + dy, run + 1
        return run

    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        assert patch(dx, dy) >= MIN_PATCH, f"the patch {patch(dx, dy)} px wide"


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_road_band_has_an_edge_in_lightness(theme: str) -> None:
    """Across the road where it runs out to the board's edge: the first colour after the
    square's own stands 3:1 from it, so the band shows in greyscale too."""
    chosen = THEMES[theme]
    position = Position.from_tps("x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6")
    image = pixels(render_board(position, theme=theme, size=PHONE_WIDTH))
    frame = layout(PHONE_WIDTH, 5, banner=True)
    left, top, _, bottom = frame.square_box(0, 2)
    under = chosen.squares[0]
    column = [image.getpixel((left + 3, y)) for y in range(top + 2, bottom - 2)]
    first = column.index(under)
    after = next(c for c in column[first:] if c != under)
    assert contrast(after, under) >= MIN_GRAPHIC_CONTRAST, f"{after} on {under}"
