"""The deployment files agree with the README and the code. Docker has no daemon where the tests
run, so the Dockerfile is parsed: its install and run commands must be the README's (run from
the directory it installs in), and what it relies on (the health subcommand, the packages it
copies, a non-root user, the volume) must exist. The systemd unit runs the same command and
restarts only for the exit statuses worth retrying."""

from __future__ import annotations

import ast
import asyncio
import configparser
import importlib.util
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path, PurePosixPath
from types import ModuleType

import pytest

from bot import __main__ as entry
from bot.health import CommandTimings, Gateway, HealthEndpoint
from bot.release import SHIPPED, shipped
from bot.services import Services
from tests.bot.test_table_owners import string_literals

REPO = Path(__file__).resolve().parents[2]
ENTRY = REPO / "deploy" / "container_entry.py"


def container_entry() -> ModuleType:
    spec = importlib.util.spec_from_file_location("container_entry", ENTRY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def readme_install_and_run() -> list[str]:
    """The README's "Install and run the bot" command, as its steps."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\*\*Install and run the bot\*\*\s*```sh\n(.+?)\n```", text, re.S)
    assert block is not None
    return [step.strip() for step in block[1].split(" && ")]


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments left out."""
    lines = (REPO / "Dockerfile").read_text(encoding="utf-8").splitlines()
    text = "\n".join(line for line in lines if not line.lstrip().startswith("#"))
    joined = re.sub(r"\\\n", " ", text)
    return [
        (line.split(None, 1)[0].upper(), " ".join(line.split()[1:]))
        for line in joined.splitlines()
        if line.strip()
    ]


def exec_form(arguments: str) -> list[str]:
    words = json.loads(arguments)
    assert isinstance(words, list) and all(isinstance(w, str) for w in words)
    return words


def in_directory(command: str, directory: PurePosixPath) -> list[str]:
    """A README command's words with its relative paths (.venv/...) made absolute."""
    return [str(directory / w) if w.startswith(".venv/") else w for w in shlex.split(command)]


def test_the_dockerfile_installs_and_runs_as_the_readme_says() -> None:
    """The install as the README's; the README's `init` the entry point runs at a first start
    (below), then the bot."""
    *install, init, run = readme_install_and_run()
    assert f"{run} init" == init
    instructions = dockerfile()
    workdir = PurePosixPath("/")
    installed_in = None
    for instruction, arguments in instructions:
        if instruction == "WORKDIR":
            workdir = workdir / arguments
        if instruction == "RUN" and "venv" in arguments:
            assert arguments == " && ".join(install)
            installed_in = workdir
    assert installed_in is not None, "no RUN with the README's install command"
    # container_entry.py runs `python -m bot` with the Python that runs it (tested below).
    python, *module = in_directory(run, installed_in)
    assert module == ["-m", "bot"]
    [entrypoint] = [exec_form(a) for i, a in instructions if i == "ENTRYPOINT"]
    assert entrypoint == [python, str(installed_in / ENTRY.name)]
    assert ("COPY", f"{ENTRY.relative_to(REPO)} ./") in instructions
    assert not [a for i, a in instructions if i == "CMD"]  # arguments go to `python -m bot`


def test_the_image_runs_unprivileged_with_the_database_on_a_volume() -> None:
    instructions = dockerfile()
    names = [i for i, _ in instructions]
    [user] = [a for i, a in instructions if i == "USER"]
    assert user not in ("root", "0") and names.index("USER") < names.index("ENTRYPOINT")
    assert ("VOLUME", "/data") in instructions
    workdirs = [a for i, a in instructions if i == "WORKDIR"]
    assert workdirs[-1] == "/data"  # the default relative bredon.sqlite3 lands on the volume
    assert instructions[0][0] == "FROM" and "-slim" in instructions[0][1]


def test_the_health_check_and_the_copied_files_exist() -> None:
    instructions = dockerfile()
    [check] = [a for i, a in instructions if i == "HEALTHCHECK"]
    command = exec_form(check.split(" CMD ", 1)[1])
    assert command[1:] == ["-m", "bot", "health"]
    assert entry.parse_args(command[3:]).action == "health"
    env = " ".join(a for i, a in instructions if i == "ENV")
    assert "BREDON_HEALTH_PORT=8080" in env  # the endpoint the check asks is on in the image

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    packages = {p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = {a.split()[0] for i, a in instructions if i == "COPY"}
    assert packages <= copied and {"pyproject.toml", project["project"]["readme"]} <= {
        w for a in (a for i, a in instructions if i == "COPY") for w in a.split()[:-1]
    }
    allowed = {
        line.removeprefix("!")
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    }
    # Never .env or a database.
    assert allowed == packages | {
        "pyproject.toml",
        "setup.py",  # the build of the compiled engine
        "README.md",
        str(ENTRY.relative_to(REPO)),
    }


def test_compose_uses_the_image_with_a_volume_and_the_env_file() -> None:
    compose = (REPO / "compose.yaml").read_text(encoding="utf-8")
    live = "\n".join(line for line in compose.splitlines() if not line.strip().startswith("#"))
    assert "build: ." in live and "env_file: .env" in live
    assert re.search(r"^\s+- bredon-data:/data$", live, re.M)
    assert "BREDON_DATABASE: /data/bredon.sqlite3" in live
    # .env may blank the image's setting; the health check needs the endpoint on.
    assert 'BREDON_HEALTH_PORT: "8080"' in live
    # Back after a reboot too (`on-failure` is not, in some Docker versions); the entry point,
    # not overridden, is what keeps an exit that needs a person from restarting it.
    assert re.search(r"^    restart: unless-stopped$", live, re.M)
    assert "entrypoint:" not in live


def test_the_systemd_unit_runs_the_readme_command_and_restarts_wisely() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(REPO / "deploy" / "bredon.service")
    service = unit["Service"]
    *_, run = readme_install_and_run()
    install_dir = PurePosixPath(service["ExecStart"].split("/.venv/")[0])
    assert shlex.split(service["ExecStart"]) == in_directory(run, install_dir)
    assert service["User"] not in ("root", "0") and service["Restart"] == "on-failure"
    assert service["EnvironmentFile"].startswith("/etc/")
    kept = {int(s) for s in service["RestartPreventExitStatus"].split()}
    assert kept == {entry.EXIT_CONFIG, entry.EXIT_LOGIN, entry.EXIT_DATABASE}
    assert kept == container_entry().NEEDS_A_PERSON  # the container's entry point holds these
    assert entry.EXIT_NETWORK not in kept and entry.EXIT_UPGRADED not in kept
    assert service["WorkingDirectory"] == "/var/lib/" + service["StateDirectory"]


async def python(cwd: Path, *argv: str, **env: str) -> asyncio.subprocess.Process:
    """Python running `argv` in `cwd`, without the settings of the environment the tests run in."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *argv,
        cwd=cwd,
        env={**base, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


@pytest.fixture
async def endpoint(db_path: Path) -> AsyncIterator[tuple[int, dict[str, Gateway]]]:
    services = await Services.open(db_path)
    gateway = {"now": Gateway(True, 0.05)}
    served = HealthEndpoint(services.db, lambda: gateway["now"], CommandTimings())
    port = await served.start("127.0.0.1", 0)
    yield port, gateway
    await served.stop()
    await services.close()


async def health_command(cwd: Path, **env: str) -> tuple[int, str, str]:
    process = await python(cwd, "-m", "bot", "health", PYTHONPATH=str(REPO), **env)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_health_command_is_what_docker_asks(
    tmp_path: Path, endpoint: tuple[int, dict[str, Gateway]]
) -> None:
    port, gateway = endpoint
    status, out, _ = await health_command(tmp_path, BREDON_HEALTH_PORT=str(port))
    assert status == 0 and json.loads(out)["status"] == "ok"
    gateway["now"] = Gateway(False, float("nan"))
    status, _, err = await health_command(tmp_path, BREDON_HEALTH_PORT=str(port))
    assert status == entry.EXIT_UNHEALTHY and '"gateway_connected": false' in err
    status, _, err = await health_command(tmp_path)
    assert status == entry.EXIT_CONFIG and "BREDON_HEALTH_PORT is not set" in err


def test_the_systemd_unit_keeps_the_bot_to_what_it_needs() -> None:
    """Files it makes readable by its own user only (the database, its backups), no capability,
    no new privileges, kernel, namespaces and system calls restricted: what `systemd-analyze
    security` rates 1.2 ("OK"; 7.3 before these lines)."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(REPO / "deploy" / "bredon.service")
    service = unit["Service"]
    assert service["UMask"] == "0077"
    assert service["CapabilityBoundingSet"] == "" and service["AmbientCapabilities"] == ""
    yes = ("NoNewPrivileges", "PrivateUsers", "ProtectKernelModules", "ProtectKernelLogs")
    yes += ("ProtectClock", "RestrictNamespaces", "LockPersonality", "MemoryDenyWriteExecute")
    assert [name for name in yes if service.get(name) != "yes"] == []
    assert set(service["RestrictAddressFamilies"].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert service["SystemCallArchitectures"] == "native"
    assert service["ReadWritePaths"] == "/var/lib/" + service["StateDirectory"]


async def read_until(stream: asyncio.StreamReader, text: str) -> str:
    """What the process wrote up to the line containing `text` (fails if it never comes)."""
    seen = ""
    while text not in seen:
        line = await asyncio.wait_for(stream.readline(), 60)
        assert line, f"ended without {text!r}: {seen}"
        seen += line.decode()
    return seen


async def test_the_container_waits_after_an_exit_that_needs_a_person(tmp_path: Path) -> None:
    """The real bot without a token exits 2: the entry point then waits for `docker stop`
    instead of exiting (which Docker would answer with a restart), and exits 2 when stopped."""
    process = await python(tmp_path, str(ENTRY), PYTHONPATH=str(REPO))
    assert process.stderr is not None
    said = await read_until(process.stderr, "this container waits instead of restarting")
    assert "DISCORD_TOKEN is not set" in said and "exit status 2" in said
    await asyncio.sleep(0.5)
    assert process.returncode is None  # still waiting
    process.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(process.wait(), 10) == entry.EXIT_CONFIG


async def test_the_container_creates_its_own_database_at_its_first_start_only(
    tmp_path: Path,
) -> None:
    """The image's database, missing: `init` first, said; any other, or one there: never."""
    first_start = container_entry().first_start
    image_database = container_entry().IMAGE_DATABASE
    assert image_database == dict(
        line.split("=", 1) for _, a in dockerfile() if _ == "ENV" for line in a.split()
    ).get("BREDON_DATABASE")
    assert "BREDON_DATABASE: /data/bredon.sqlite3" in (REPO / "compose.yaml").read_text()
    missing = not Path(image_database).exists()
    assert first_start([], image_database) == missing
    # docs/operations.md's first command in a new container: it opens the database too.
    assert first_start(["sync"], image_database) == missing
    assert "docker compose run --rm bredon sync " in (REPO / "docs/operations.md").read_text()
    assert not first_start(["check"], image_database)
    assert not first_start(["migrate"], image_database)
    assert not first_start([], str(tmp_path / "typo.sqlite3"))
    assert not first_start([], None)


def running(bot: str) -> tuple[str, str]:
    """The arguments for Python to run container_entry.run(holding) on the program `bot`."""
    command = [sys.executable, "-c", bot]
    return "-c", f"import sys, container_entry; sys.exit(container_entry.run({command!r}, True))"


async def test_the_container_passes_actions_and_other_exits_on(tmp_path: Path) -> None:
    """An action (`check` of a missing file: 4) ends as `python -m bot` does; so does the bot
    itself with a status the restart policy should see: 5 (Discord unreachable), a crash (1)."""
    process = await python(tmp_path, str(ENTRY), "check", "none.sqlite3", PYTHONPATH=str(REPO))
    _, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == entry.EXIT_DATABASE and b"waits" not in err
    for status in (entry.EXIT_NETWORK, 1, 0):
        bot = running(f"raise SystemExit({status})")
        process = await python(tmp_path, *bot, PYTHONPATH=str(ENTRY.parent))
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert (process.returncode, err) == (status, b"")


async def test_the_container_passes_a_stop_on_to_the_bot(tmp_path: Path) -> None:
    """`docker stop` signals the entry point (PID 1): the bot gets the signal and its exit status
    is the container's (0, a clean stop); a stop that came before an exit that needs a person
    is not waited for again."""
    for status in (0, entry.EXIT_LOGIN):
        bot = running(
            "import signal, sys, time\n"
            f"signal.signal(signal.SIGTERM, lambda *_: sys.exit({status}))\n"
            "print('ready', flush=True)\n"
            "time.sleep(60)"
        )
        process = await python(tmp_path, *bot, PYTHONPATH=str(ENTRY.parent))
        assert process.stdout is not None
        await read_until(process.stdout, "ready")
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == status


FAKE_DOCKER = """#!/bin/sh
# A docker that answers as $FAKE says: info, inspect (the base image is here), pull, build, version,
# the engine (compiled, or pure).
echo "$*" >> "$CALLS"
case "$1" in
    info) case "$FAKE" in *info*) exit 0;; esac; exit 1;;
    image) [ "$2" = inspect ] || exit 0; case "$FAKE" in *inspect*) exit 0;; esac; exit 1;;
    pull) case "$FAKE" in *pull*) exit 0;; esac; echo "dial tcp: no such host" >&2; exit 1;;
    build) case "$FAKE" in *build*) exit 0;; esac; echo "pip install failed" >&2; exit 1;;
    run) case "$*" in *--version*) echo "Bredon ${VERSION}";; *"tak build"*)
        case "$FAKE" in *pure*) echo "pure Python: no C compiler (cc) was found";;
        *) echo "compiled (mypyc): tak.moves";; esac;; esac; exit 0;;
esac
exit 0
"""


@pytest.mark.parametrize(
    ("fake", "version", "status", "said"),
    [
        ("", "", 0, "skipped: docker cannot reach a daemon"),
        (
            "info",
            "",
            0,
            "skipped: the base image python:3.11-slim is not here and cannot be pulled: dial tcp",
        ),
        ("info pull", "", 1, ""),  # pulled, then the build fails
        ("info inspect", "", 1, ""),  # the build fails
        ("info inspect build", "0.0.1", 1, ""),  # the image says another version
        ("info inspect build pure", "{version}", 1, ""),  # its engine is not compiled
        ("info inspect build", "{version}", 0, "its engine: compiled (mypyc)"),
    ],
)
def test_ci_builds_the_image_where_it_can(
    tmp_path: Path, fake: str, version: str, status: int, said: str
) -> None:
    """.ci/build-image skips, with why, only without a daemon or a base image to build on."""
    (tmp_path / "docker").write_text(FAKE_DOCKER)
    (tmp_path / "docker").chmod(0o755)
    release = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    calls = tmp_path / "calls"
    done = subprocess.run(
        [REPO / ".ci" / "build-image"],
        env={
            "PATH": f"{tmp_path}:/usr/bin:/bin",
            "FAKE": fake,
            "VERSION": version.format(version=release),
            "CALLS": str(calls),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == status, done.stderr
    assert said in done.stdout and len(done.stdout.splitlines()) == (status == 0)
    ran = calls.read_text().splitlines()
    base_image_here = "inspect" in fake or "pull" in fake
    assert any(call.startswith("build ") for call in ran) == base_image_here
    checked = [call for call in ran if call.endswith(" check")]
    assert len(checked) == (status == 0 and "build" in fake)
    if checked:  # on the volume the database was made in, by the image's `init`
        [volume] = re.findall(r"--volume (bredon-ci-\d+:/data) ", checked[0])
        assert any(re.search(f"--volume {volume} bredon-bot:ci-\\d+ init$", c) for c in ran), ran


def files_messages_name() -> set[str]:
    """The files of Bredon's source (`*.md`, `.env.example`) named in the strings of bot/ and
    cogs/, docstrings left out: what the messages people see point them to."""
    named: set[str] = set()
    for path in [*(REPO / "bot").rglob("*.py"), *(REPO / "cogs").rglob("*.py")]:
        for text in string_literals(ast.parse(path.read_text(encoding="utf-8"))):
            named |= set(re.findall(r"[\w./-]*\.md\b|\.env\.example", text))
    return named


def test_the_wheel_carries_what_its_messages_point_to(tmp_path: Path) -> None:
    """Every file a message names is in the wheel, and the installed wheel's messages give the
    path of its copy (here the missing token's: .env.example and docs/discord-setup.md)."""
    named = files_messages_name()
    assert {".env.example", "docs/discord-setup.md"} <= named  # what is checked below
    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    wheels = tmp_path / "wheels"
    # Pure Python: what is checked here does not depend on the engine's build, a minute shorter.
    pure = {**os.environ, "BREDON_COMPILE": "0"}
    subprocess.run([*pip, "wheel", "--no-deps", "--wheel-dir", wheels, REPO], check=True, env=pure)
    [wheel] = wheels.glob("bredon_bot-*.whl")
    with zipfile.ZipFile(wheel) as contents:
        carried = {
            PurePosixPath(name).name
            for name in contents.namelist()
            if PurePosixPath(name).parent.match(f"*.data/data/{SHIPPED}")
        }
    assert {PurePosixPath(name).name for name in named} <= carried

    # Installed in a virtualenv of its own (pip --prefix would uninstall this one's), which
    # borrows the dependencies from this one (a path line in a .pth: its .pth files stay unread).
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([*pip, "--python", python, "install", "--no-deps", wheel], check=True)
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    (tmp_path / "run").mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "BREDON_"))}
    done = subprocess.run(
        [python, "-m", "bot"],
        cwd=tmp_path / "run",
        env={k: v for k, v in env.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == entry.EXIT_CONFIG, done.stderr
    pointed = re.findall(r"(/\S+?)(?= to \.env|\.$)", done.stderr.strip())
    assert [Path(p).name for p in pointed] == [".env.example", "discord-setup.md"], done.stderr
    assert all(Path(p).is_file() and Path(p).is_relative_to(venv) for p in pointed)


def test_a_checkout_points_to_its_own_files() -> None:
    """An editable install (these tests) has no wheel's copies: the checkout's, else the name."""
    assert shipped("docs/discord-setup.md") == str(REPO / "docs" / "discord-setup.md")
    assert shipped(".env.example") == str(REPO / ".env.example")
    assert shipped("docs/no-such-guide.md") == "docs/no-such-guide.md"
