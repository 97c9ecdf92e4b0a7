"""Theme colours, measured: WCAG contrast and simulated colour-vision deficiencies."""

from __future__ import annotations

import pytest

from rendering import THEMES, Theme, theme_problems
from rendering.colour import VISIONS, contrast, distance, on_grid, simulate
from rendering.themes import MIN_GRAPHIC_CONTRAST, MIN_PLAYER_DISTANCE, make_theme

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
        "text": "#eef1f4", "muted": "#a9b3be", "panel": "#39414c", "tint": "#ffc83d",
        "tint_amount": 0.55, "road": "#ff8a3d", "alert": "#e5484d", "alert_text": "#ffffff",
        "layer_line": "#808d9c",
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
