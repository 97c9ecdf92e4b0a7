"""Which Bredon is running and what came with it: the version of the installed distribution, so
that `pyproject.toml` is its one source (`bredon --version`, the start-up line, `/healthz`), and
where the files its messages point people to are (the docs, `.env.example`)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path, PurePosixPath

DISTRIBUTION = "bredon-bot"
# Where a wheel installs docs/*.md and .env.example, under its environment (pyproject.toml's
# data-files): the docs of installed software, which nothing imports.
SHIPPED = "share/doc/bredon-bot"


@cache  # read from the installed metadata once, not on every /healthz
def bredon_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def shipped(source: str) -> str:
    """Where to read `source`, a file of Bredon's source named in a message (`docs/NAME.md`,
    `.env.example`): the copy a wheel installed, else the one in the checkout this runs from (an
    editable install), else `source` as it is (the Docker image: the checkout it was built from)."""
    try:
        files = distribution(DISTRIBUTION).files or []
    except PackageNotFoundError:
        files = []
    wanted = f"{SHIPPED}/{PurePosixPath(source).name}"
    for file in files:
        if file.as_posix().endswith(wanted):
            return str(Path(file.locate()).resolve())
    checkout = Path(__file__).resolve().parents[1] / source
    return str(checkout) if checkout.exists() else source
