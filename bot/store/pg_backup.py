"""`python -m bot backup FILE` for a PostgreSQL database: PostgreSQL's own ``pg_dump`` in its
custom format (one consistent snapshot, taken while the bot runs), then read back with
``pg_restore --list`` before it is called a backup. Restoring is ``pg_restore`` into an empty
database (docs/operations.md).

The password, if the URL has one, goes to the tools in their environment (``PGPASSWORD``), not
on their command line, where other users of the machine could read it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from bot.store.base import StoreError, private_new_file, shown_location

DUMP_TIMEOUT = 3600.0  # seconds: a large database on a slow disk


class ToolMissing(StoreError):
    """pg_dump or pg_restore is not installed where Bredon runs."""


def _without_password(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, and the environment that gives the password instead."""
    parts = urlsplit(url)
    if parts.password is None:
        return url, {}
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    # The URL keeps the password percent-encoded (as libpq and asyncpg decode it): give it plain.
    password = unquote(parts.password)
    return urlunsplit(parts._replace(netloc=f"{user}@{host}")), {"PGPASSWORD": password}


def _run(command: list[str], environment: dict[str, str]) -> str:
    try:
        done = subprocess.run(
            command,
            env={**os.environ, **environment},
            capture_output=True,
            text=True,
            timeout=DUMP_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise StoreError(f"{command[0]} did not finish within {DUMP_TIMEOUT:g} s.") from None
    if done.returncode != 0:
        problem = " ".join(done.stderr.split()) or f"exit status {done.returncode}"
        raise StoreError(f"{Path(command[0]).name} failed: {problem}")
    return done.stdout


def dump_postgres(url: str, target: Path) -> int:
    """Dump the database at `url` into the new file `target`, check that pg_restore reads it
    and that it holds Bredon's tables, and return its schema version. Raises
    :class:`StoreError` with what to do; a dump that failed is never left behind."""
    if target.exists():
        raise StoreError(f"{target} already exists: name a new file for the backup.")
    pg_dump, pg_restore = shutil.which("pg_dump"), shutil.which("pg_restore")
    if pg_dump is None or pg_restore is None:
        raise ToolMissing(
            "Backing up PostgreSQL needs pg_dump and pg_restore on PATH (Debian and Ubuntu: "
            "apt install postgresql-client, of the server's major version or newer)."
        )
    address, environment = _without_password(url)
    private_new_file(target)  # pg_dump writes into it, keeping its mode: the owner's only
    try:
        _run([pg_dump, "--format=custom", f"--file={target}", f"--dbname={address}"], environment)
        contents = _run([pg_restore, "--list", str(target)], environment)
        if not re.search(r"TABLE DATA \S+ bredon_schema ", contents):
            raise StoreError(
                f"{shown_location(url)} holds no Bredon database (no bredon_schema table): "
                "check BREDON_DATABASE."
            )
        data = _run(
            [pg_restore, "--data-only", "--table=bredon_schema", "--file=-", str(target)],
            environment,
        )
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    version = re.search(
        r"^COPY \S*bredon_schema \(version, single\) FROM stdin;\n(\d+)\t", data, re.M
    )
    if version is None:
        target.unlink(missing_ok=True)
        raise StoreError(f"The dump of {shown_location(url)} holds no schema version.")
    return int(version[1])
