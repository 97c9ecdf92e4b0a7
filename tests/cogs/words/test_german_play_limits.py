"""The longest German texts of clocks, coins and players within Discord's limits: a wallet with
its movements (the largest amounts, the longest reasons), and the coin and rating leaderboards
full of the longest names."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.coins.service import (
    LEADERBOARD_SIZE,
    MAX_COINS,
    RECENT_ROWS,
    LedgerRow,
    Wallet,
    WalletSettings,
)
from bot.games.ratings import PlayerRating
from bot.languages import speaking
from bot.players.glicko2 import Rating
from bot.players.model import PlayerRef
from cogs.words import coin_messages, player_messages
from cogs.words.coin_messages import reason_text

MAX_MESSAGE = 2000
MAX_DESCRIPTION = 4096
LONGEST_NAME = "_*" * 16  # 32 characters, each escaped: the longest a name shows
NOW = datetime(2026, 11, 26, tzinfo=UTC)
RATED_SHOWN = 25  # the most /profile leaderboard lists (bot.games.ratings)


def longest_reason() -> str:
    """The ledger reason whose German words are the longest."""
    reasons = ("start", "grant", "ante", "bid", "tak", "pot", "bonus", "refund")
    with speaking("de"):
        return max(reasons, key=lambda reason: len(reason_text(reason)))


def test_a_german_wallet_with_its_movements_fits_a_message() -> None:
    reason = longest_reason()
    rows = [LedgerRow(n, 1, n, 10**9 + n, -MAX_COINS, reason, NOW) for n in range(RECENT_ROWS)]
    wallet = Wallet(1, PlayerRef(1, LONGEST_NAME), 10 * MAX_COINS, rows)
    settings = WalletSettings(1, enabled=False, starting_balance=MAX_COINS, ante=MAX_COINS)
    with speaking("de"):
        text = coin_messages.wallet_text(wallet, settings)
    english = coin_messages.wallet_text(wallet, settings)
    assert len(text.splitlines()) == len(english.splitlines()) == RECENT_ROWS + 3
    assert "Letzte Bewegungen:" in text and "Partie #1000000009" in text
    assert text.endswith("Spielen um Münzen ist auf diesem Server zurzeit aus.")
    assert len(english) < len(text) <= MAX_MESSAGE


def test_german_leaderboards_fit_an_embed() -> None:
    board = [(PlayerRef(n, LONGEST_NAME), MAX_COINS * 1000) for n in range(LEADERBOARD_SIZE)]
    ratings = [
        PlayerRating(PlayerRef(n, LONGEST_NAME), 8, Rating(2999.0, 50.0, 0.06), 10**6)
        for n in range(RATED_SHOWN)
    ]
    with speaking("de"):
        coins = coin_messages.coin_board_embed(board)
        rated = player_messages.leaderboard_embed(8, ratings)
        empty = player_messages.leaderboard_embed(8, [])
    assert coins.title == "Münzen" and rated.title == "Rangliste, 8x8"
    assert "(1000000 Partien)" in (rated.description or "")
    assert (empty.description or "").startswith("Noch niemand hat eine feste 8x8-Wertung")
    for embed in (coins, rated, empty):
        assert len(embed.title or "") <= 256
        assert len(embed.description or "") <= MAX_DESCRIPTION
