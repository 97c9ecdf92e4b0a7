"""The pages' addresses: a token for each page, which no other page's and no other secret's
matches."""

from __future__ import annotations

from bot.page_addresses import TOKEN_LENGTH, PageAddresses, page_token

SECRET = "a secret of the database"


def test_each_page_has_its_own_token() -> None:
    tokens = {
        page_token(SECRET, "game", "1"),
        page_token(SECRET, "game", "2"),
        page_token(SECRET, "tournament", "1"),
        page_token(SECRET, "player", "1:2"),
        page_token(SECRET, "server", "1"),
        page_token("another secret entirely", "game", "1"),
    }
    assert len(tokens) == 6
    assert all(len(token) == TOKEN_LENGTH and token.isascii() for token in tokens)


def test_an_address_is_valid_for_its_page_only() -> None:
    addresses = PageAddresses(SECRET, "https://tak.example.org")
    url = addresses.game(12)
    assert url.startswith("https://tak.example.org/game/12/")
    token = url.rsplit("/", 1)[1]
    assert addresses.valid("game", "12", token)
    assert not addresses.valid("game", "13", token)
    assert not addresses.valid("tournament", "12", token)
    assert not PageAddresses("another secret entirely").valid("game", "12", token)
    assert addresses.player(1, 2).split("/")[-3:-1] == ["1", "2"]


def test_a_token_of_any_characters_is_simply_not_valid() -> None:
    """What a reader types into the address bar: compared as bytes, never refused with an error
    (hmac.compare_digest refuses str with characters beyond ASCII)."""
    addresses = PageAddresses(SECRET)
    for token in ("é", "ééééééééééééééééééééééé", "\u202e" * TOKEN_LENGTH, "", "\x00"):
        assert not addresses.valid("game", "12", token)
