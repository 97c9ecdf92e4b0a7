"""Theme colours, measured: WCAG contrast and simulated colour-vision deficiencies."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from rendering import THEMES, Theme, layout, render_board, theme_problems
from rendering.board import PHONE_WIDTH
from rendering.colour import VISIONS, contrast, distance, hex_rgb, on_grid, simulate
from rendering.themes import (
    MIN_GRAPHIC_CONTRAST,
    MIN_MARK_DISTANCE,
    MIN_PLAYER_DISTANCE,
    make_theme,
    mark_distances,
)
from tak import Position, parse_move

RED, GREEN, BLUE = (220, 40, 40), (40, 160, 40), (40, 40, 220)


def test_contrast_matches_wcag() -> None:
    assert contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast((10, 20, 30), (10, 20, 30)) == 1


def test_simulations_confuse_the_colours_each_deficiency_confuses() -> None:
    assert distance(RED, GREEN) > 80
    assert distance(simulate(RED, "deuteranopia"), simulate(GREEN, "deuteranopia")) < 40
    assert distance(simulate(RED, "protanopia"), simulate(GREEN, "protanopia")) < 40
    # Tritanopes tell red from green, but lose blue against green's hue.
    assert distance(simulate(RED, "tritanopia"), simulate(GREEN, "tritanopia")) > 60
    assert simulate(BLUE, "typical") == BLUE
    for vision in VISIONS:
        assert simulate((0, 0, 0), vision) == (0, 0, 0)


def test_there_are_the_three_promised_themes() -> None:
    assert {"default", "paper", "high-contrast"} <= set(THEMES)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_every_theme_passes_the_checks(name: str) -> None:
    assert theme_problems(THEMES[name]) == []


@pytest.mark.parametrize("vision", VISIONS)
def test_high_contrast_players_stay_apart_for_every_colour_vision(vision: str) -> None:
    theme = THEMES["high-contrast"]
    white, black = (simulate(p.fill, vision) for p in theme.players)
    assert contrast(white, black) >= 7
    assert distance(white, black) >= 2 * MIN_PLAYER_DISTANCE
    for square in theme.squares + theme.tinted_squares:
        for piece in (white, black):
            # The face alone, without its outline, stands out from every square.
            assert contrast(piece, simulate(square, vision)) >= MIN_GRAPHIC_CONTRAST


def test_the_checks_catch_a_red_green_theme() -> None:
    base = THEMES["default"]
    fields = {
        "background": "#1e2228", "board": "#2c323b", "squares": ("#808d9c", "#788594"),
        "text": "#eef1f4", "muted": "#a9b3be", "panel": "#39414c", "turn": "#5cc8ff",
        "tint": "#ffc83d", "tint_amount": 0.55, "road": "#e81ee8", "road_edge": "#1e2228",
        "alert": "#902030", "alert_text": "#ffffff", "layer_line": "#808d9c",
    }  # fmt: skip
    red_green = make_theme(
        "red-green", players=(("#d03030", "#000000"), ("#30a030", "#000000")), **fields
    )
    problems = theme_problems(red_green)
    assert any("deuteranopia" in p for p in problems)
    assert any("protanopia" in p for p in problems)
    same_as_default = make_theme(
        "copy", players=(("#f6f1e7", "#3b3f46"), ("#1c1f24", "#000000")), **fields
    )
    assert same_as_default.players == base.players and theme_problems(same_as_default) == []


def test_theme_colours_sit_on_the_palette_grid() -> None:
    assert on_grid((255, 1, 131)) == (252, 0, 132)
    for theme in THEMES.values():
        assert isinstance(theme, Theme)
        for colour in (theme.background, *theme.squares, *theme.tinted_squares, theme.text):
            assert colour == on_grid(colour)


@pytest.mark.parametrize("name", sorted(THEMES))
def test_road_last_move_and_banner_stay_apart_in_the_image_for_every_vision(name: str) -> None:
    """Measured on the posted picture: a road across rank 3 won by a spread from d4."""
    position = Position.from_tps("x5/x5/1,1,1,1,1/x5/2,2,2,2,x 2 6")
    png = render_board(position, last_move=parse_move("d4-"), theme=name, size=PHONE_WIDTH)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    frame = layout(PHONE_WIDTH, 5, banner=True)
    left, _, _, _ = frame.square_box(1, 2)
    _, y = frame.square_centre(1, 2)
    seen = {
        "road": image.getpixel((left + round(0.12 * frame.square), round(y))),
        "last move": image.getpixel(tuple(round(c) for c in frame.square_centre(3, 3))),
        "banner": image.getpixel((frame.pad + 4, frame.banner_y + 4)),
        "square": image.getpixel(tuple(round(c) for c in frame.square_centre(0, 3))),
        "piece": image.getpixel(tuple(round(c) for c in frame.square_centre(0, 0))),
    }
    assert len(set(seen.values())) == len(seen)  # each sample is what it says
    pairs = [("road", "last move"), ("road", "banner"), ("last move", "banner")]
    pairs += [("road", "square"), ("road", "piece"), ("banner", "square")]
    for vision in VISIONS:
        for a, b in pairs:
            gap = distance(simulate(seen[a], vision), simulate(seen[b], vision))
            assert gap >= MIN_MARK_DISTANCE, f"{a} and {b} with {vision} vision: {gap:.1f}"


def test_the_checks_catch_marks_that_merge_for_colour_blind_players() -> None:
    olive = replace(THEMES["default"], road=hex_rgb("#ff8a3d"), alert=hex_rgb("#e5484d"))
    problems = theme_problems(olive)
    assert any("banner and last move too alike with deuteranopia" in p for p in problems)
    assert any("road and last move too alike with protanopia" in p for p in problems)
    assert all(
        gap >= MIN_MARK_DISTANCE
        for vision in VISIONS
        for gap in mark_distances(THEMES["default"], vision).values()
    )
