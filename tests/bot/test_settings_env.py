"""The .env reader: what operators write is read, and anything else is refused with the line,
never with another exception, in well under a second."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.settings import MAX_ENV_LENGTH, Settings, SettingsError, parse_env_file


def test_a_usual_file() -> None:
    text = (
        "\ufeff# Bredon\r\nDISCORD_TOKEN='abc.def'\r\n\r\nexport BREDON_LOG_LEVEL = debug\n"
        'BREDON_DATABASE="data/with # hash.sqlite3"\nEMPTY=\n'
    )
    assert parse_env_file(text) == {
        "DISCORD_TOKEN": "abc.def",
        "BREDON_LOG_LEVEL": "debug",
        "BREDON_DATABASE": "data/with # hash.sqlite3",
        "EMPTY": "",
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("A=1\nnot a setting\n", "line 2 is not KEY=value: 'not a setting'"),
        ("ключ=1", "line 1 is not KEY=value"),  # environment names are ASCII
        ("1A=1", "line 1 is not KEY=value"),
        ("=value", "line 1 is not KEY=value"),
        ("BREDON_DATABASE=a\x00b", "line 1: the value of BREDON_DATABASE holds a NUL character"),
        ("A=" + "x" * MAX_ENV_LENGTH, "settings take a few lines (at most 65,536 characters)"),
        ("x" * 5000, "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (5,000 characters)"),
    ],
)
def test_refused_with_the_line(text: str, reason: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_env_file(text)
    assert reason in str(caught.value)


LINES = st.sampled_from(
    ["A=1", "export B='2'", "# c", "", "C", "=", "D=\x00", '"E"=1', "F= ' x ' ", "ÄB=1", "\ufeff"]
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text()
    | st.lists(LINES | st.text(max_size=20), max_size=30).map("\n".join)
    | st.builds(
        lambda unit, times: unit * times, st.text(min_size=1, max_size=5), st.integers(1, 40_000)
    )
)
def test_any_text_gives_settings_or_a_settings_error(text: str) -> None:
    start = time.perf_counter()
    try:
        values = parse_env_file(text)
    except SettingsError:
        values = {}
    assert time.perf_counter() - start < 1
    for key, value in values.items():
        assert key.isascii() and key.isidentifier() and "\x00" not in value


@pytest.mark.parametrize(
    ("value", "typed"), [("", False), ("0", False), ("1", True), ("yes", True), ("OFF", False)]
)
def test_typed_moves_is_an_explicit_switch(value: str, typed: bool) -> None:
    assert Settings.from_mapping({"BREDON_TYPED_MOVES": value}).typed_moves is typed


@pytest.mark.parametrize(
    ("values", "named"),
    [({"BREDON_TYPED_MOVES": "maybe"}, "BREDON_TYPED_MOVES"), ({"BREDON_DEV_GUILD": "²"}, "id")],
)
def test_bad_switches_and_ids_are_refused_by_name(values: dict[str, str], named: str) -> None:
    with pytest.raises(SettingsError, match=named):
        Settings.from_mapping(values)


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("DISCORD_TOKEN=abc.def # my bot", "abc.def"),
        ('DISCORD_TOKEN="abc#def" # quoted', "abc#def"),
        ("DISCORD_TOKEN='abc def'", "abc def"),
        ("DISCORD_TOKEN=abc#def", "abc#def"),
    ],
)
def test_trailing_comments_are_not_part_of_a_value(line: str, value: str) -> None:
    assert parse_env_file(line)["DISCORD_TOKEN"] == value


def test_the_token_never_shows_in_a_repr() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": "secret.token.value"})
    assert settings.token == "secret.token.value"
    assert "secret" not in repr(settings)
