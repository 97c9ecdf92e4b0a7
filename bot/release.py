"""Which Bredon is running: the version of the installed distribution, so that `pyproject.toml`
is its one source (`bredon --version`, the start-up line, `/healthz`)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "bredon-bot"


@cache  # read from the installed metadata once, not on every /healthz
def bredon_version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"
