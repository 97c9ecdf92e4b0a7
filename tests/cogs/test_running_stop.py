"""`python -m bot` as a real process (Discord replaced by tests/cogs/stand_in.py), stopped by
SIGTERM or SIGINT in the middle of the players' moves and of the bot's own search, also as PID 1
(as in the Docker image): exit 0 within seconds, every committed move kept and nothing
half-done, the store closed cleanly, the worker processes gone. And the failures around the run
that end in one sentence and a documented exit status."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.players.model import PlayerRef
from bot.services import Services
from cogs.running import NO_GATEWAY
from tak.search import MAX_LEVEL
from tests.bot.conftest import ALICE, CHANNEL, GUILD
from tests.bot.setups import create_bot_challenge
from tests.cogs.stand_in import BOT_ID

REPO = Path(__file__).resolve().parents[2]
STOPPED_WITHIN = 10.0  # seconds: Docker's stop waits 10 s before SIGKILL


def environment(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return {**env, "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "stand-in-token", **settings}


def stand_in(cwd: Path, *prefix: str, **settings: str) -> subprocess.Popen[str]:
    """The bot with the stand-in Discord, in a session of its own (SIGINT to its process group is
    what Ctrl-C in a terminal does)."""
    return subprocess.Popen(
        [*prefix, sys.executable, "-m", "tests.cogs.stand_in"],
        cwd=cwd,
        env=environment(**settings),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def children(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return set()
    return {int(child) for child in text.split()}


def only_child(pid: int) -> int:
    deadline = time.monotonic() + 10
    while not (found := children(pid)) and time.monotonic() < deadline:
        time.sleep(0.01)
    [child] = found
    return child


def running(pid: int) -> bool:
    """Alive, and not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def searching_workers(pid: int) -> set[int]:
    """The bot's worker processes, once one of them has been searching for a moment."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        workers = {
            child
            for child in children(pid)
            if b"multiprocessing.spawn" in Path(f"/proc/{child}/cmdline").read_bytes()
        }
        if workers:
            time.sleep(1.0)  # well into a search of up to 60 s
            return workers
        time.sleep(0.05)
    raise AssertionError("the bot never started thinking")


def read_until(process: subprocess.Popen[str], count: int) -> list[str]:
    """Lines of stdout, until `count` moves were committed."""
    assert process.stdout is not None
    lines: list[str] = []
    while sum(line.startswith("committed") for line in lines) < count:
        line = process.stdout.readline()
        assert line, "the bot ended early"
        lines.append(line.strip())
    return lines


async def challenge_the_bot(database: Path) -> None:
    """A level-5 game where the bot moves first: it thinks for up to BREDON_BOT_MOVETIME_MS."""
    services = await Services.open(database)
    try:
        await create_bot_challenge(
            services,
            guild_id=GUILD,
            channel_id=CHANNEL,
            player=ALICE,
            bot=PlayerRef(BOT_ID, "Bredon"),
            level=MAX_LEVEL,
            colour="black",
            size=6,
        )
    finally:
        await services.close()


def unshare_pid_namespace() -> list[str]:
    """The command prefix that runs a process as PID 1 of a new PID namespace, as Docker does."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    for prefix in (
        ["unshare", "--pid", "--fork", "--mount-proc"],
        ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc"],
    ):
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    pytest.skip("this machine allows no new PID namespace")


@pytest.mark.parametrize("as_pid_1", [False, True], ids=["service", "pid-1"])
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_mid_move_and_mid_search_stops_cleanly(
    tmp_path: Path, stop: signal.Signals, as_pid_1: bool
) -> None:
    database = tmp_path / "bredon.sqlite3"
    asyncio.run(challenge_the_bot(database))
    prefix = unshare_pid_namespace() if as_pid_1 else []
    process = stand_in(tmp_path, *prefix, STAND_IN_PLAYERS="1", BREDON_BOT_MOVETIME_MS="60000")
    streams: dict[str, str] = {}
    readers: list[threading.Thread] = []
    try:
        bot_pid = process.pid
        if as_pid_1:
            bot_pid = only_child(process.pid)  # unshare's child, PID 1 inside
            status = Path(f"/proc/{bot_pid}/status").read_text()
            [ids] = [line.split()[1:] for line in status.splitlines() if line.startswith("NSpid:")]
            assert ids[-1] == "1"
        workers = searching_workers(bot_pid)
        lines = read_until(process, 30)
        if stop is signal.SIGINT and not as_pid_1:
            os.killpg(process.pid, stop)  # Ctrl-C: the workers get it too
        else:
            os.kill(bot_pid, stop)
        sent = time.monotonic()
        # Read by threads (a pipe that fills would stop the bot), stdout with what readline()
        # has buffered, which communicate() would miss; a worker left running would hold the
        # pipes open, so they are not waited for beyond the stop.
        readers = [
            threading.Thread(
                target=lambda s=stream: streams.__setitem__(s, getattr(process, s).read())
            )
            for stream in ("stdout", "stderr")
        ]
        for reader in readers:
            reader.start()
        process.wait(timeout=30)
        took = time.monotonic() - sent
        deadline = time.monotonic() + 5
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in workers if running(pid)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever is left of its session
    for reader in readers:
        reader.join(timeout=10)
    out, err = streams.get("stdout", ""), streams.get("stderr", "")
    assert process.returncode == 0, err
    assert took < STOPPED_WITHIN
    assert f"{stop.name}: stopping." in err
    assert "Traceback" not in err and "leaked" not in err and "ERROR" not in err, err
    # The players' last move either committed whole and was reported, or was refused.
    stdout = "\n".join([*lines, *out.splitlines()])
    assert stdout.rstrip().endswith("refused Bredon is restarting; please try again in a minute.")
    committed: dict[int, int] = {}
    for line in stdout.splitlines():
        if line.startswith("committed"):
            _, game, ply = line.split()
            committed[int(game)] = int(ply)
    with closing(sqlite3.connect(database)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        stored = {
            game: ply
            for game, ply in db.execute(
                "SELECT id, ply FROM games WHERE ? NOT IN (white_id, black_id)", (BOT_ID,)
            )
        }
        moves = dict(db.execute("SELECT game_id, COUNT(*) FROM moves GROUP BY game_id"))
        bot_game = db.execute(
            "SELECT ply, status FROM games WHERE black_id = ? OR white_id = ?", (BOT_ID, BOT_ID)
        ).fetchone()
    # Nothing committed lost, no move the players were not told of (a game just started has
    # no move yet).
    assert {game: ply for game, ply in stored.items() if ply} == committed
    assert all(moves.get(game, 0) == ply for game, ply in stored.items())
    assert bot_game == (0, "active")  # the search was cut short: no move, still to play
    assert not database.with_name(database.name + "-wal").exists()  # closed, checkpointed
    assert left == []  # the worker processes ended with the bot


def run_module(
    cwd: Path, *args: str, module: str = "bot", **settings: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        env=environment(**settings),
        capture_output=True,
        text=True,
        timeout=60,
    )


def one_sentence(done: subprocess.CompletedProcess[str], status: int) -> str:
    """The last line of stderr, checked to be the whole failure: the status, no traceback."""
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr and "Event loop is closed" not in done.stderr
    return done.stderr.splitlines()[-1]


SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret.part"


@pytest.mark.parametrize(
    ("variable", "value", "expected"),
    [
        ("BREDON_DEV_GUILD", SECRET, "BREDON_DEV_GUILD must be a server id"),
        ("BREDON_DEV_GUILD", "7" * 4_300, "BREDON_DEV_GUILD must be a server id"),
        ("BREDON_HEALTH_PORT", SECRET, "BREDON_HEALTH_PORT must be a port number"),
        ("BREDON_BOT_WORKERS", SECRET, "BREDON_BOT_WORKERS must be a whole number from 1 to 16"),
        ("BREDON_ENGINE", SECRET + "'", "BREDON_ENGINE must be a command line"),
        ("BREDON_LOG_LEVEL", SECRET, "BREDON_LOG_LEVEL must be one of"),
        ("BREDON_SHARDS", SECRET, "BREDON_SHARDS must be auto or a number"),
    ],
)
@pytest.mark.parametrize("action", [(), ("check",)], ids=["run", "check"])
def test_a_bad_setting_is_named_never_shown(
    tmp_path: Path, variable: str, value: str, expected: str, action: Sequence[str]
) -> None:
    done = run_module(tmp_path, *action, **{variable: value})
    assert one_sentence(done, entry.EXIT_CONFIG).startswith(f"Configuration error: {expected}")
    assert done.stderr.count("\n") == 1
    assert "secret" not in done.stderr.lower() and "7777" not in done.stderr


def test_a_token_pasted_as_a_line_of_env_is_not_shown(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"BREDON_LOG_LEVEL=info\n{SECRET}\n")
    done = run_module(tmp_path, "check")
    assert one_sentence(done, entry.EXIT_CONFIG).startswith(
        "Configuration error: .env line 2 is not KEY=value"
    )
    assert "secret" not in done.stderr


def test_a_missing_database_folder_is_one_sentence(tmp_path: Path) -> None:
    done = run_module(tmp_path, BREDON_DATABASE="nowhere/bredon.sqlite3")
    assert one_sentence(done, entry.EXIT_CONFIG) == (
        f"The folder {tmp_path / 'nowhere'} for the database does not exist: create it, or set "
        "BREDON_DATABASE to a file in a folder that does."
    )
    assert not (tmp_path / "nowhere").exists()


def test_a_health_port_in_use_is_named_as_such(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run_module(tmp_path, "init").returncode == 0
        done = run_module(tmp_path, module="tests.cogs.stand_in", BREDON_HEALTH_PORT=str(port))
    line = one_sentence(done, entry.EXIT_CONFIG)
    assert line.startswith(f"The health endpoint cannot listen on 127.0.0.1 port {port}")
    assert "BREDON_HEALTH_PORT" in line and "database" not in line


def test_an_unreachable_gateway_is_a_network_failure(tmp_path: Path) -> None:
    """Logging in works (the API answers) but the gateway cannot be reached: the machine running
    the tests has no route to Discord's gateway, like a firewall that lets only the API by."""
    assert run_module(tmp_path, "init").returncode == 0
    done = run_module(tmp_path, module="tests.cogs.stand_in", STAND_IN_GATEWAY="real")
    assert one_sentence(done, entry.EXIT_NETWORK) == NO_GATEWAY
    assert "Attempting a reconnect" not in done.stderr


def test_check_into_a_closed_pipe_keeps_its_status(tmp_path: Path) -> None:
    """`check | head`: the reader leaving early is no configuration error; the status is the
    check's own (here 4: there is no database), and its sentence still reaches stderr."""
    script = f"set -o pipefail; {sys.executable} -m bot check | true"
    for database, status in (("missing.sqlite3", entry.EXIT_DATABASE), ("ok.sqlite3", 0)):
        if status == 0:
            with closing(sqlite3.connect(tmp_path / database)) as db:
                db.execute("PRAGMA user_version = 0")
        done = subprocess.run(
            ["bash", "-c", script],
            cwd=tmp_path,
            env=environment(BREDON_DATABASE=database),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == status, done.stderr
        assert "Configuration error" not in done.stderr and "Traceback" not in done.stderr
        if status:
            assert done.stderr.startswith("There is no database at")
        else:
            assert done.stderr == ""
