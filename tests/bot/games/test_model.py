"""The game-setup request and its checks (:class:`GameRequest`, :meth:`GameSetup.create`): every
limit in one place, a start told TPS from PTN, and a setup given again by the request of it."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from bot.errors import InvalidSetting
from bot.games.model import MAX_RESERVE, GameRequest, GameSetup
from bot.guild_settings import GuildSettings
from tak import Position

DEFAULTS = GuildSettings(1)  # 6x6, komi 2, 3 days a move


@pytest.mark.parametrize("name", ["stones", "caps", "black_stones", "black_caps"])
def test_every_reserve_is_capped_by_the_one_constant(name: str) -> None:
    most = GameRequest(size=3, **{name: MAX_RESERVE})
    assert DEFAULTS.game_setup(most).size == 3
    with pytest.raises(InvalidSetting, match=f"must be from 0 to {MAX_RESERVE}"):
        DEFAULTS.game_setup(GameRequest(size=3, **{name: MAX_RESERVE + 1}))


def test_a_start_is_a_tps_when_it_has_ranks_and_opening_moves_otherwise() -> None:
    tps = "x3/x3/x2,1 2 1"
    assert GameRequest(start=tps).start_tps == tps and GameRequest(start=tps).start_moves is None
    moves = GameRequest(size=3, start="a1 c3")
    assert moves.start_moves == "a1 c3" and moves.start_tps is None
    opening = Position(3)
    opening.play("a1")
    opening.play("c3")
    setup = DEFAULTS.game_setup(moves)
    assert setup.start_tps == opening.tps() and not setup.rated
    from_tps = DEFAULTS.game_setup(GameRequest(start=tps))
    assert from_tps.size == 3 and not from_tps.rated  # the TPS gives its size
    with pytest.raises(InvalidSetting, match="never rated"):
        DEFAULTS.game_setup(GameRequest(start=tps, rated=True))


@pytest.mark.parametrize(
    "request_",
    [
        GameRequest(),
        GameRequest(size=5, stones=21, caps=1, black_stones=17, black_caps=0, antiquity=True),
        GameRequest(size=4, opening="no-swap", rated=False, bank=timedelta(days=2)),
        GameRequest(days_per_move=2, increment=timedelta(hours=12)),
        GameRequest(start="x3/x3/x2,1 2 1", komi=0.5),
    ],
)
def test_the_request_of_a_setup_gives_it_again(request_: GameRequest) -> None:
    setup = DEFAULTS.game_setup(request_)
    again = GameRequest.of(setup)
    assert GameSetup.create(again, size=8, komi=0, days_per_move=30) == setup
    if setup.start_tps is not None:  # a rating left to the start: a new start keeps it so
        assert again.rated is None
        assert DEFAULTS.game_setup(replace(again, start=None)).rated
