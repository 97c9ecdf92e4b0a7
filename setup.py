"""Build hook for the compiled engine: mypyc compiles the engine's hot modules (COMPILED) into C
extensions wherever it can, `pip install -e .` in place next to the sources, a wheel inside it.
Without a C compiler, after a failed build, or with `BREDON_COMPILE=0` in the environment the
install is pure Python, said in one line. Next to the extensions it records a hash of each source
they were built from (tak/compiled.json): `tak` runs the pure sources instead of extensions that
no longer match them (tak/compiled.py). See README, "A faster engine"."""

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

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
GROUP = "tak"  # mypyc's shared library: tak__mypyc.<suffix> beside the package
MANIFEST = "compiled.json"  # tak/compiled.py reads it; the name is repeated there
HERE = Path(__file__).resolve().parent


def say(line: str) -> None:
    """The one line an install prints about the engine (pip shows it with -v)."""
    print(f"bredon-bot: {line}", file=sys.stderr, flush=True)


def compiler() -> str:
    """The C compiler's program: $CC, else the one Python was built with."""
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]


def missing_compiler() -> str | None:
    return None if shutil.which(compiler()) else f"no C compiler ({compiler()}) was found"


def source_hashes() -> dict[str, str]:
    return {
        Path(source).stem: hashlib.sha256((HERE / source).read_bytes()).hexdigest()
        for source in COMPILED
    }


def record(package: Path, outcome: dict[str, object]) -> None:
    """What tak/compiled.py reads: {"built": {module: source hash}} or {"pure": why}."""
    (package / MANIFEST).write_text(json.dumps(outcome, indent=1) + "\n", encoding="utf-8")


def remove_compiled(root: Path) -> None:
    """Take away an earlier build's extensions and record under `root`, so that a build that ends
    pure Python leaves none of them to be imported."""
    for path in [*root.glob(f"{GROUP}__mypyc.*"), *(root / "tak").glob("*.so")]:
        path.unlink()
    for path in [*(root / "tak").glob("*.pyd"), root / "tak" / MANIFEST]:
        path.unlink(missing_ok=True)


class BuildPy(build_py):
    """Starts from no compiled files (in place for an editable install, else in build/) and, when
    the engine stays pure Python, records why."""

    def run(self) -> None:
        root = HERE if self.editable_mode else Path(self.build_lib)
        remove_compiled(root)
        super().run()
        if PURE_BECAUSE is not None:
            record(root / "tak", {"pure": PURE_BECAUSE})


class BuildExt(build_ext):
    """Builds the extensions and records their sources' hashes beside them; when the C compiler
    fails, removes what it left and records and says that the engine is pure Python."""

    def run(self) -> None:
        package = Path(self.get_ext_fullpath("tak.position")).parent
        try:
            super().run()
        except Exception as error:  # the compiler's failures have no common class
            for extension in self.extensions:
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            # Its command and output are long: `pip install -v` shows them.
            because = f"the C compiler ({compiler()}) failed ({type(error).__name__})"
            record(package, {"pure": because})
            say(f"{because}; the engine is pure Python")
            return
        record(package, {"built": source_hashes()})
        say("built the compiled engine (mypyc): " + ", ".join(Path(s).stem for s in COMPILED))


def extensions() -> tuple[list, str | None]:
    """mypyc's extensions, or none and why."""
    if os.environ.get("BREDON_COMPILE") == "0":
        return [], "BREDON_COMPILE=0 was set"
    because = missing_compiler()
    if because is not None:
        return [], because
    try:
        from mypyc.build import mypycify  # mypy: a build requirement in pyproject.toml
    except ImportError:
        return [], "mypy (mypyc) was not in the build environment"
    try:
        return mypycify(COMPILED, opt_level="3", group_name=GROUP), None
    except (Exception, SystemExit) as error:  # mypy exits on a type error
        # mypy prints the errors, which `pip install -v` shows.
        return [], f"mypyc could not compile the engine ({type(error).__name__})"


EXTENSIONS, PURE_BECAUSE = extensions()
if PURE_BECAUSE is not None:
    say(f"{PURE_BECAUSE}: the engine is pure Python (README, 'A faster engine')")
setup(ext_modules=EXTENSIONS, cmdclass={"build_py": BuildPy, "build_ext": BuildExt})
