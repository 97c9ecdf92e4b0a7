"""The Docker image's entry point: `python -m bot` with the same arguments and exit status, except
that a bot that stops for what only a person can fix (a setting: 2, a rejected token: 3, a
database it must not use: 4) is not restarted again and again.

Docker's restart policies cannot tell exit statuses apart: `unless-stopped` (which also brings
the bot back after a reboot) would run a bot with a bad token once a minute for ever, and
`on-failure` would as well, since these exits are failures. So, when running the bot (no
arguments), this waits after such an exit, until the container is stopped, and then exits with
the bot's status; the bot's sentence saying what to do stays the last thing in the log, and the
health check shows the container unhealthy. Every other exit (0, a crash, a lost network: 5, a
database another process upgraded: 6) is passed on at once for the restart policy, and the
actions (`sync`, `check`, `init`, `migrate`, `backup`, `health`) run exactly as `python -m bot`
does. SIGTERM and SIGINT go to the bot, which stops cleanly.

The bot creates no database (`python -m bot init` does): at the container's first start, when
the database is the image's own (:data:`IMAGE_DATABASE`, BREDON_DATABASE as the Dockerfile and
compose.yaml set it) and is not there yet, this runs `init` first and says so (also before
`sync`, the first command the Compose instructions run). Any other database
is created only when asked for: `docker compose run --rm bredon init`.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

# bot/__main__.py's EXIT_CONFIG, EXIT_LOGIN, EXIT_DATABASE; deploy/bredon.service's
# RestartPreventExitStatus (tests/bot/test_deployment.py checks that the three agree).
NEEDS_A_PERSON = frozenset({2, 3, 4})
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
IMAGE_DATABASE = "/data/bredon.sqlite3"  # the Dockerfile's BREDON_DATABASE, on the volume

WAITING = (
    "Bredon stopped with exit status {status}, which needs a person (the line above says what "
    "to do), so this container waits instead of restarting. Once it is fixed, start it again: "
    'docker compose up -d --force-recreate (docs/operations.md, "Install with Docker").'
)


def run(command: Sequence[str], hold: bool) -> int:
    """Run `command`, passing SIGTERM and SIGINT on to it; its exit status, after waiting for
    one of those signals first when `hold` and the status is one that needs a person."""
    received: list[int] = []
    bot = subprocess.Popen(command)

    def forward(number: int, _frame: object) -> None:
        received.append(number)
        bot.send_signal(number)  # does nothing once it has exited

    for number in STOP_SIGNALS:
        signal.signal(number, forward)
    status = bot.wait()
    if not hold or status not in NEEDS_A_PERSON:
        return status
    # Blocked, a stop signal that comes from now on waits for sigwait; one that came before was
    # recorded by `forward`.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    if not received:
        print(WAITING.format(status=status), file=sys.stderr, flush=True)
        signal.sigwait(STOP_SIGNALS)
    return status


def first_start(arguments: Sequence[str], database: str | None) -> bool:
    """Whether to create the image's database before running the bot, or before `sync` (which
    opens it too, and is the first command docs/operations.md runs in a new container)."""
    return (
        list(arguments[:1]) in ([], ["sync"])
        and database == IMAGE_DATABASE
        and not Path(database).exists()
    )


if __name__ == "__main__":
    arguments = sys.argv[1:]
    bot = [sys.executable, "-m", "bot"]
    if first_start(arguments, os.environ.get("BREDON_DATABASE")):
        print(f"First start: creating the database {IMAGE_DATABASE}.", file=sys.stderr, flush=True)
        created = run([*bot, "init"], hold=not arguments)
        if created:
            sys.exit(created)
    sys.exit(run([*bot, *arguments], hold=not arguments))
