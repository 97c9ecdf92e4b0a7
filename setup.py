"""Build hook for the optional compiled engine: with `BREDON_COMPILE=1` in the environment,
mypyc compiles the engine's core modules into C extensions (see README, "A faster engine").
Without it the build is pure Python, and so is `tak` whenever the extensions are missing."""

import os

from setuptools import setup

# The modules that make, unmake and generate moves, and the search (1.3x faster compiled than with
# only the others compiled); the rest gains little from compiling.
COMPILED = [
    "tak/evaluation.py",
    "tak/moves.py",
    "tak/position.py",
    "tak/results.py",
    "tak/search.py",
    "tak/tps.py",
]


def extensions() -> list:
    if os.environ.get("BREDON_COMPILE") != "1":
        return []
    from mypyc.build import mypycify  # from the `compile` extra: mypy

    return mypycify(COMPILED, opt_level="3", group_name="tak")


setup(ext_modules=extensions())
