"""The numbers a game is set up within: each board size's standard reserves (which also say the
sizes Bredon plays), the largest komi and the largest reserve.

A module of its own that imports nothing, so that what needs only these numbers (the TEI
handshake, `python -m tak tei`) answers without loading the rules; :mod:`tak.position` checks
every set-up against them.
"""

from __future__ import annotations

# Stones and capstones per player for each board size: the community standard.
STANDARD_RESERVES: dict[int, tuple[int, int]] = {
    3: (10, 0),
    4: (15, 0),
    5: (21, 1),
    6: (30, 1),
    7: (40, 2),
    8: (50, 2),
}
# PTN Ninja and PlayTak stop at 4.5 (9 half-flats): a game with more komi could not be exported,
# so no position is set up with it. The bot checks challenges against the same number.
MAX_KOMI = 4.5
MAX_RESERVE = 200  # stones, or capstones, per player
