"""Imported first thing by a worker process in a test: its priority while it imports."""

from __future__ import annotations

import os

AT_IMPORT = os.nice(0)


def priorities() -> tuple[int, int]:
    """The worker's niceness while it imported its modules, and now, as it works."""
    return AT_IMPORT, os.nice(0)
