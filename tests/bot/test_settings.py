"""The .env reader: what operators write is read, and anything else is refused with the line,
never with another exception, in well under a second."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.settings import (
    MAX_ENV_LENGTH,
    SETTING_NAMES,
    TOOL_VARIABLES,
    EnvFile,
    Settings,
    SettingsError,
    Sharding,
    load_settings,
    parse_env_file,
    refuse_unknown,
)


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
        ("A=1\nnot a setting\n", "line 2 is not KEY=value (a NAME, =, then the value; the line"),
        ("ключ=1", "line 1 is not KEY=value"),  # environment names are ASCII
        ("1A=1", "line 1 is not KEY=value"),
        ("=value", "line 1 is not KEY=value"),
        ("BREDON_DATABASE=a\x00b", "line 1: the value of BREDON_DATABASE holds a NUL character"),
        ("A=" + "x" * MAX_ENV_LENGTH, "settings take a few lines (at most 65,536 characters)"),
        ("x" * 5000, "line 1 is not KEY=value"),
    ],
)
def test_refused_with_the_line(text: str, reason: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_env_file(text)
    assert reason in str(caught.value)
    assert "not a setting" not in str(caught.value) and "xxx" not in str(caught.value)  # unshown


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
    try:
        values = parse_env_file(text)
    except SettingsError:
        values = {}
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


def test_the_pages_settings_are_read_and_checked() -> None:
    web = Settings.from_mapping(
        {
            "BREDON_WEB_PORT": "8081",
            "BREDON_PUBLIC_URL": "https://tak.example.org/bredon/",
            "BREDON_WEB_SECRET": "s" * 16,
        }
    ).web
    assert (web.port, web.host, web.public_url) == (
        8081,
        "127.0.0.1",
        "https://tak.example.org/bredon",
    )
    assert "s" * 16 not in repr(web)  # the secret never in a log line
    assert Settings.from_mapping({}).web.port is None


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"BREDON_WEB_PORT": "70000"}, "BREDON_WEB_PORT"),
        ({"BREDON_PUBLIC_URL": "tak.example.org"}, "BREDON_PUBLIC_URL"),
        ({"BREDON_PUBLIC_URL": "https://tak.example.org/?a=1"}, "BREDON_PUBLIC_URL"),
        ({"BREDON_WEB_SECRET": "short"}, "BREDON_WEB_SECRET"),
    ],
)
def test_bad_pages_settings_are_refused_by_name(values: dict[str, str], named: str) -> None:
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


def test_variables_are_expanded_from_the_environment_first_then_the_lines_above() -> None:
    text = (
        "DATA=/srv/bredon\n"
        "BREDON_DATABASE=${DATA}/bredon.sqlite3\n"
        'BREDON_LOG_LEVEL="${LEVEL:-warning}"\n'
        "BREDON_DEV_GUILD=${GUILD}\n"
        "LATER=${DEFINED_BELOW}\nDEFINED_BELOW=x\n"
    )
    assert parse_env_file(text) == {
        "DATA": "/srv/bredon",
        "BREDON_DATABASE": "/srv/bredon/bredon.sqlite3",
        "BREDON_LOG_LEVEL": "warning",
        "BREDON_DEV_GUILD": "",
        "LATER": "",
        "DEFINED_BELOW": "x",
    }
    from_env = parse_env_file(text, {"DATA": "/var/lib/bredon", "LEVEL": "debug", "GUILD": "7"})
    assert from_env["BREDON_DATABASE"] == "/var/lib/bredon/bredon.sqlite3"
    assert from_env["BREDON_LOG_LEVEL"] == "debug" and from_env["BREDON_DEV_GUILD"] == "7"


def test_a_notepad_file_with_a_byte_order_mark_and_crlf_is_read(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes("DISCORD_TOKEN=abc.def\r\nBREDON_LOG_LEVEL=debug\r\n".encode("utf-8-sig"))
    settings = load_settings(env, {})
    assert settings.token == "abc.def" and settings.log_level == "DEBUG"
    assert settings.env_file == EnvFile(env, found=True)
    assert str(env.absolute()) in settings.env_file.describe()


def test_a_missing_file_leaves_the_environment_and_says_so(tmp_path: Path) -> None:
    settings = load_settings(tmp_path / ".env", {"DISCORD_TOKEN": "from.env"})
    assert settings.token == "from.env" and settings.database == Path("bredon.sqlite3")
    assert settings.env_file is not None and not settings.env_file.found
    assert "settings from the environment only" in settings.env_file.describe()


def test_a_file_in_another_encoding_or_unreadable_is_named(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_bytes("DISCORD_TOKEN=abc\n".encode("utf-16"))  # Notepad's "Unicode"
    with pytest.raises(SettingsError, match="is not UTF-8 text: save it as UTF-8"):
        load_settings(env, {})
    env.unlink()
    env.mkdir()
    with pytest.raises(SettingsError, match="Cannot read"):
        load_settings(env, {})


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            'BREDON_LOG_LEVEL="info\nDISCORD_TOKEN=abc.secret.value\n"\n',
            "the value of BREDON_LOG_LEVEL runs over several lines; is a quote not closed?",
        ),
        (
            'BREDON_LOG_LEVEL="info\nDISCORD_TOKEN=abc.secret.value\nBREDON_DATABASE="x"\n',
            "is not KEY=value (a NAME, =, then the value; the line is not shown, as it may hold "
            "the token)",
        ),
    ],
)
def test_a_quote_left_open_never_carries_the_token_into_a_message(text: str, reason: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_env_file(text)
    assert str(caught.value).startswith(".env line 1") and reason in str(caught.value)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize("value", ['"abc.secret\\n"', '"a\\nb"', '"x\\r"'])
def test_a_line_break_written_as_an_escape_is_refused_too(value: str) -> None:
    with pytest.raises(SettingsError, match="line 1: the value of DISCORD_TOKEN runs over"):
        parse_env_file(f"DISCORD_TOKEN={value}\n")


@pytest.mark.parametrize(
    "text",
    [
        "DISCORD_TOKEN abc.secret.value",  # forgot the =
        "DISCORD_TOKEN='abc.secret.value",  # unterminated quote
        "discord_token: abc.secret.value",
    ],
)
def test_a_refused_token_line_is_named_but_never_shown(text: str) -> None:
    with pytest.raises(SettingsError) as caught:
        parse_env_file(f"BREDON_LOG_LEVEL=info\n{text}\n")
    assert "line 2" in str(caught.value) and "the line is not shown" in str(caught.value)
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize("token", ["abc.secret def", "'abc.secret", "abc.secret\u200b"])
def test_a_token_no_discord_token_looks_like_is_refused_without_showing_it(token: str) -> None:
    with pytest.raises(SettingsError, match="copy the token again") as caught:
        Settings.from_mapping({"DISCORD_TOKEN": token})
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, None),
        ({"BREDON_SHARDS": "auto"}, Sharding()),
        ({"BREDON_SHARDS": "4"}, Sharding(4)),
        ({"BREDON_SHARDS": "8", "BREDON_SHARD_IDS": "0-3"}, Sharding(8, (0, 1, 2, 3))),
        ({"BREDON_SHARDS": "8", "BREDON_SHARD_IDS": "6, 1-2,2"}, Sharding(8, (1, 2, 6))),
    ],
)
def test_sharding(values: dict[str, str], expected: Sharding | None) -> None:
    assert Settings.from_mapping(values).sharding == expected


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        ({"BREDON_SHARDS": "0"}, "BREDON_SHARDS must be auto or a number of shards"),
        ({"BREDON_SHARDS": "many"}, "BREDON_SHARDS must be auto or a number"),
        ({"BREDON_SHARD_IDS": "0-3"}, "needs BREDON_SHARDS set to the total"),
        ({"BREDON_SHARDS": "auto", "BREDON_SHARD_IDS": "0"}, "needs BREDON_SHARDS set"),
        ({"BREDON_SHARDS": "4", "BREDON_SHARD_IDS": "3-1"}, "ranges like 0-3,6."),
        ({"BREDON_SHARDS": "4", "BREDON_SHARD_IDS": "2-4"}, "numbered 0 to 3"),
        ({"BREDON_HEALTH_PORT": "http"}, "BREDON_HEALTH_PORT must be a port number"),
        ({"BREDON_HEALTH_PORT": "70000"}, "BREDON_HEALTH_PORT must be a port number (1-65535)."),
        ({"BREDON_LOG_LEVEL": "verbose"}, "BREDON_LOG_LEVEL must be one of"),
    ],
)
def test_bad_values_are_refused_by_name(values: dict[str, str], reason: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_mapping(values)
    assert reason in str(caught.value)
    assert not any(f"{value}" in str(caught.value) for value in ("3-1", "http", "70000", "many"))


def test_the_health_endpoint_is_off_unless_a_port_is_set() -> None:
    assert Settings.from_mapping({}).health_port is None
    on = Settings.from_mapping({"BREDON_HEALTH_PORT": "8080"})
    assert (on.health_port, on.health_host) == (8080, "127.0.0.1")
    assert Settings.from_mapping({"BREDON_HEALTH_HOST": "0.0.0.0"}).health_host == "0.0.0.0"


def test_the_example_file_loads_and_names_only_settings_the_bot_reads() -> None:
    example = Path(__file__).resolve().parents[2] / ".env.example"
    settings = load_settings(example, {})
    assert settings.token is None and settings.health_port is None and settings.sharding is None
    source = (Path(__file__).resolve().parents[2] / "bot" / "settings.py").read_text()
    text = example.read_text(encoding="utf-8")
    # Optional settings are there as commented examples; uncommented, they are valid too.
    uncommented = re.sub(r"^# ([A-Z_]+=)", r"\1", text, flags=re.M)
    assert uncommented.count("\n") == text.count("\n") and uncommented != text
    example_settings = Settings.from_mapping(parse_env_file(uncommented))
    assert example_settings.sharding == Sharding(8, (0, 1, 2, 3))
    assert example_settings.health_port == 8080
    for key in parse_env_file(uncommented):
        assert f'"{key}"' in source, key


@pytest.mark.parametrize(
    ("where", "name", "closest"),
    [
        ("environment", "BREDON_DATABSE", "BREDON_DATABASE"),
        ("environment", "bredon_shard_ids", "BREDON_SHARD_IDS"),
        ("environment", "BREDON_HEALTHPORT", "BREDON_HEALTH_PORT"),
        (".env", "BREDON_MIGRATE_ON_STRAT", "BREDON_MIGRATE_ON_START"),
        (".env", "DISCORD_TOKN", "DISCORD_TOKEN"),  # Bredon's file: a near miss of the token too
        ("environment", "BREDON_COLOUR", None),
    ],
)
def test_an_unknown_setting_is_refused_with_the_closest_name(
    tmp_path: Path, where: str, name: str, closest: str | None
) -> None:
    env_file = tmp_path / ".env"
    environ = {name: "1"} if where == "environment" else {}
    if where == ".env":
        env_file.write_text(f"DISCORD_TOKEN=abc\n{name}=1\n")
    with pytest.raises(SettingsError) as refused:
        load_settings(env_file, environ)
    named = "in the environment" if where == "environment" else f"in {env_file}"
    guess = f"did you mean {closest}?" if closest else "see .env.example for the settings."
    assert str(refused.value).startswith(f"{name} ({named}) is not a setting of Bredon: {guess}")


def test_what_is_not_a_misspelled_setting_passes(tmp_path: Path) -> None:
    """Empty values count as unset; the build's and the tests' variables are known; other
    programs' variables in the environment are theirs, even one like the token's name."""
    environ = {
        "BREDON_DATABSE": "",
        "BREDON_COMPILE": "0",
        "BREDON_TEST_POSTGRES": "postgresql://x@y/z",
        "DISCORD_TOKEN_2": "another bot's",
        "PATH": "/usr/bin",
    }
    assert load_settings(tmp_path / "missing.env", environ).token is None


def test_every_bredon_variable_the_project_names_is_known_to_the_unknown_name_check() -> None:
    """A variable read or documented anywhere (the bot, the build, the tests' tools, the files an
    admin copies) but missing from the check's lists would stop the bot where it is set; a
    setting missing from .env.example or operations.md would be one an admin cannot find."""
    repo = Path(__file__).resolve().parents[2]
    files = [
        *(
            path
            for top in ("bot", "cogs", "rendering", "tak", "deploy", "docs", ".ci")
            for path in (repo / top).rglob("*")
            if path.is_file() and path.suffix != ".pyc"
        ),
        *(
            repo / name
            for name in (
                ".env.example",
                "Dockerfile",
                "compose.yaml",
                "setup.py",
                "README.md",
                "tests/databases.py",
                "tests/conftest.py",
            )
        ),
    ]
    named = {
        found
        for path in files
        # A full name: not a family (BREDON_HEALTH_*) or a prefix in code ("BREDON_").
        for found in re.findall(
            r"\bBREDON_[A-Z0-9_]*[A-Z0-9]\b(?![_*])", path.read_bytes().decode("utf-8", "replace")
        )
    }
    misspelled_on_purpose = {"BREDON_DATABSE"}  # the example the docs give of a refusal
    assert {"BREDON_COMPILE", "BREDON_TEST_POSTGRES", "BREDON_UPDATE_CATALOGUES"} <= named
    assert named - misspelled_on_purpose - set(SETTING_NAMES) - set(TOOL_VARIABLES) == set()
    refuse_unknown(sorted(named - misspelled_on_purpose), "the environment", file=True)
    for name in SETTING_NAMES:
        assert name in (repo / ".env.example").read_text(), name
        assert f"`{name}`" in (repo / "docs/operations.md").read_text(), name
