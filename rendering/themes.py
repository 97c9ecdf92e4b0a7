"""Board themes: every colour the renderer uses, and the measured checks that a theme must pass."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from rendering.colour import RGB, VISIONS, blend, contrast, distance, hex_rgb, on_grid, simulate

# What the checks ask for. Pieces and squares are "graphics" in WCAG terms (3:1); text is 4.5:1.
# Player colours must stay clearly different colours (CIE76 distance) for every colour vision.
MIN_GRAPHIC_CONTRAST = 3.0
MIN_TEXT_CONTRAST = 4.5
MIN_PLAYER_DISTANCE = 40.0
MIN_TINT_DISTANCE = 10.0
# The marks on and below the board (the road, the last move's tint, the result banner) must stay
# apart from each other, and the road from the squares and pieces it runs over, for every vision.
MIN_MARK_DISTANCE = 30.0


@dataclass(frozen=True, slots=True)
class PieceColours:
    """One player's pieces: the face and its outline (both put on the palette grid, see
    :func:`rendering.colour.on_grid`)."""

    fill: RGB
    edge: RGB

    def __post_init__(self) -> None:
        object.__setattr__(self, "fill", on_grid(self.fill))
        object.__setattr__(self, "edge", on_grid(self.edge))


@dataclass(frozen=True, slots=True)
class Theme:
    """All colours of one look. Build with :func:`make_theme` from #rrggbb strings. Colours are
    put on the palette grid (:func:`rendering.colour.on_grid`) so images show them exactly."""

    name: str
    background: RGB  # around the board and behind the header
    board: RGB  # the lines between squares
    squares: tuple[RGB, RGB]  # light, dark (a faint checker)
    text: RGB
    muted: RGB  # secondary text: coordinates, labels
    panel: RGB  # behind the header of the player to move
    turn: RGB  # the frame round that panel: the mark of whose turn it is
    players: tuple[PieceColours, PieceColours]  # white (player 1), black (player 2)
    tint: RGB  # laid over the squares of the last move
    tint_amount: float
    road: RGB
    road_edge: RGB  # either side of the road's band: an edge in lightness, not only in hue
    alert: RGB  # the Tak marker and the result banner
    alert_text: RGB
    # Between the layers of a stack profile: a mid tone, unlike either player's pieces, so that
    # neighbouring layers of one colour stay apart without reading as a layer of the other.
    layer_line: RGB
    buried_amount: float = 0.35  # how far buried pieces below the carry limit fade to the square
    tinted_squares: tuple[RGB, RGB] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "squares", tuple(on_grid(s) for s in self.squares))
        for spec in fields(self):
            if spec.type == "RGB":
                object.__setattr__(self, spec.name, on_grid(getattr(self, spec.name)))
        tinted = tuple(on_grid(blend(s, self.tint, self.tint_amount)) for s in self.squares)
        object.__setattr__(self, "tinted_squares", tinted)

    def buried(self, colour: RGB, square: RGB) -> RGB:
        """A piece below the carry limit, which cannot move this turn: faded toward its square."""
        return on_grid(blend(colour, square, self.buried_amount))


def make_theme(name: str, **colours: object) -> Theme:
    """A theme from #rrggbb strings (players as (fill, edge) pairs of strings)."""
    values: dict[str, object] = {}
    for key, value in colours.items():
        if key == "squares":
            values[key] = tuple(hex_rgb(v) for v in value)  # type: ignore[attr-defined]
        elif key == "players":
            values[key] = tuple(PieceColours(hex_rgb(f), hex_rgb(e)) for f, e in value)  # type: ignore[attr-defined]
        elif isinstance(value, str):
            values[key] = hex_rgb(value)
        else:
            values[key] = value
    return Theme(name=name, **values)  # type: ignore[arg-type]


THEMES: dict[str, Theme] = {
    theme.name: theme
    for theme in (
        # Slate board on a dark frame: reads as a card on Discord's dark and light themes alike.
        make_theme(
            "default",
            background="#1e2228",
            board="#2c323b",
            squares=("#808d9c", "#788594"),
            text="#eef1f4",
            muted="#a9b3be",
            panel="#39414c",
            turn="#5cc8ff",
            players=(("#f6f1e7", "#3b3f46"), ("#1c1f24", "#000000")),
            tint="#ffc83d",
            tint_amount=0.55,
            road="#e81ee8",
            road_edge="#1e2228",
            alert="#902030",
            alert_text="#ffffff",
            layer_line="#808d9c",
        ),
        # Warm paper and ink, for those who prefer a light image.
        make_theme(
            "paper",
            background="#f5efe2",
            board="#b9a67f",
            squares=("#ddd0b3", "#d5c7a7"),
            text="#2b2218",
            muted="#6b5a44",
            panel="#e6dcc6",
            turn="#1f5f99",
            players=(("#fffdf8", "#5e4f39"), ("#2e2823", "#120f0c")),
            tint="#5ba3d6",
            tint_amount=0.5,
            road="#b000d0",
            road_edge="#2b2218",
            alert="#b42318",
            alert_text="#ffffff",
            layer_line="#9a8866",
        ),
        # Black frame, grey squares, pure white and black pieces: the players differ in lightness
        # alone, which no colour-vision deficiency takes away; the last move is tinted blue.
        make_theme(
            "high-contrast",
            background="#000000",
            board="#000000",
            squares=("#8a8a8a", "#808080"),
            text="#ffffff",
            muted="#e0e0e0",
            panel="#333333",
            turn="#00e0ff",
            # Both outlined in one dark grey: an outline in the other player's colour would read
            # as a layer of theirs under a stack's top piece.
            players=(("#ffffff", "#505050"), ("#000000", "#505050")),
            tint="#1f6fff",
            tint_amount=0.6,
            road="#ffb000",
            road_edge="#000000",
            alert="#c00000",
            alert_text="#ffffff",
            layer_line="#808080",
        ),
    )
}


def theme_problems(theme: Theme) -> list[str]:
    """Every way the theme fails the measured checks; empty when it passes.

    - text on the background, and on the player-to-move panel, at 4.5:1;
    - the to-move frame against the background and the panel, at 3:1;
    - the road's edges against every square, tinted or not, at 3:1 (the band may differ from
      the squares in hue alone);
    - each player's pieces (face or outline) against every square, tinted or not, at 3:1;
    - the two players' faces a clearly different colour, and at 3:1, for typical vision and
      simulated protanopia, deuteranopia and tritanopia;
    - a tinted square visibly different from an untinted one for all those visions;
    - the road, the tint and the banner clearly different colours from each other, and the road
      from the squares and the players' faces, for all those visions (see :func:`mark_distances`);
    - the banner's text on the banner at 4.5:1.
    """
    problems: list[str] = []
    ratio = contrast(theme.alert_text, theme.alert)
    if ratio < MIN_TEXT_CONTRAST:
        problems.append(f"banner text on the banner: contrast {ratio:.2f}")
    for vision in VISIONS:
        for pair, gap in mark_distances(theme, vision).items():
            if gap < MIN_MARK_DISTANCE:
                problems.append(f"{pair} too alike with {vision} vision: distance {gap:.1f}")
    for what, back in (("background", theme.background), ("panel", theme.panel)):
        for label, ink in (("text", theme.text), ("muted text", theme.muted)):
            ratio = contrast(ink, back)
            if ratio < MIN_TEXT_CONTRAST:
                problems.append(f"{label} on the {what}: contrast {ratio:.2f}")
    for what, back in (("background", theme.background), ("panel", theme.panel)):
        ratio = contrast(theme.turn, back)
        if ratio < MIN_GRAPHIC_CONTRAST:
            problems.append(f"the to-move frame on the {what}: contrast {ratio:.2f}")
    squares = theme.squares + theme.tinted_squares
    for square in squares:
        ratio = contrast(theme.road_edge, square)
        if ratio < MIN_GRAPHIC_CONTRAST:
            problems.append(f"the road's edge on square {square}: contrast {ratio:.2f}")
    for number, piece in enumerate(theme.players, 1):
        for square in squares:
            ratio = max(contrast(piece.fill, square), contrast(piece.edge, square))
            if ratio < MIN_GRAPHIC_CONTRAST:
                problems.append(f"player {number} on square {square}: contrast {ratio:.2f}")
    white, black = (p.fill for p in theme.players)
    for vision in VISIONS:
        a, b = simulate(white, vision), simulate(black, vision)
        if distance(a, b) < MIN_PLAYER_DISTANCE or contrast(a, b) < MIN_GRAPHIC_CONTRAST:
            problems.append(f"players too alike with {vision} vision: {a} vs {b}")
        for plain, tinted in zip(theme.squares, theme.tinted_squares, strict=True):
            gap = distance(simulate(plain, vision), simulate(tinted, vision))
            if gap < MIN_TINT_DISTANCE:
                problems.append(f"tint invisible with {vision} vision: distance {gap:.1f}")
    return problems


def mark_distances(theme: Theme, vision: str) -> dict[str, float]:
    """The CIELAB distances, as seen with `vision`, between the marks that must not be confused:
    the road, the last move's tint (the nearer of the two tinted squares), the banner, and what
    the road runs over (the nearer square, the nearer player's face)."""

    def seen(*colours: RGB) -> list[RGB]:
        return [simulate(colour, vision) for colour in colours]

    road, banner = seen(theme.road, theme.alert)
    tints = seen(*theme.tinted_squares)
    return {
        "road and banner": distance(road, banner),
        "road and last move": min(distance(road, tint) for tint in tints),
        "banner and last move": min(distance(banner, tint) for tint in tints),
        "road and squares": min(distance(road, square) for square in seen(*theme.squares)),
        "road and pieces": min(
            distance(road, face) for face in seen(*(p.fill for p in theme.players))
        ),
    }
