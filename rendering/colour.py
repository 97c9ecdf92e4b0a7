"""Colour arithmetic for themes: blending, WCAG contrast, colour-vision simulation, CIELAB distance.

Theme colours are checked with these numbers rather than by eye (see :func:`theme_problems` in
`rendering.themes`): a player's colours must stay apart for people with protanopia,
deuteranopia or tritanopia, whose colour vision is simulated with the matrices of Machado,
Oliveira and Fernandes (2009) at full severity, applied in linear RGB.
"""

from __future__ import annotations

import math

RGB = tuple[int, int, int]

# Machado et al. 2009, severity 1.0.
_SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS: tuple[str, ...] = ("typical", *_SIMULATIONS)


def hex_rgb(text: str) -> RGB:
    """`"#1f2a3b"` -> (31, 42, 59)."""
    value = text.removeprefix("#")
    if len(value) != 6:
        raise ValueError(f"{text!r} is not a #rrggbb colour.")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def on_grid(colour: RGB) -> RGB:
    """The nearest colour whose channels are multiples of 4.

    Pillow maps an RGB image to a palette through a cache of 4x4x4 colour cells, judging each
    cell by its corner; a palette colour on a corner is always mapped to itself, so the theme
    colours on the palette images come out exact.
    """
    r, g, b = (min(252, 4 * round(c / 4)) for c in colour)
    return r, g, b


def blend(base: RGB, over: RGB, amount: float) -> RGB:
    """`over` laid on `base` with opacity `amount` (0 keeps `base`, 1 gives `over`)."""
    r, g, b = (round(x + (y - x) * amount) for x, y in zip(base, over, strict=True))
    return r, g, b


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(linear: float) -> int:
    c = min(1.0, max(0.0, linear))
    c = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def luminance(colour: RGB) -> float:
    """WCAG relative luminance."""
    r, g, b = (_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21: 3 for graphics and large text, 4.5 for text."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def simulate(colour: RGB, vision: str) -> RGB:
    """How `colour` looks with the given colour vision (one of :data:`VISIONS`)."""
    if vision == "typical":
        return colour
    linear = [_linear(c) for c in colour]
    r, g, b = (
        _encoded(sum(m * c for m, c in zip(row, linear, strict=True)))
        for row in _SIMULATIONS[vision]
    )
    return r, g, b


def _lab(colour: RGB) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: RGB, b: RGB) -> float:
    """CIE76 colour difference: about 2.3 is just noticeable, above 40 is a different colour."""
    return math.dist(_lab(a), _lab(b))
