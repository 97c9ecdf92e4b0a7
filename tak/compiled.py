"""Which build of the engine runs: the compiled one (mypyc's extensions beside the sources, built
at install by setup.py) or the pure Python sources.

An editable install keeps its extensions next to the sources, and Python imports an extension
before a source of the same name: after an edit to tak/position.py it would go on running the old
code. So the install records a hash of each source it compiled (compiled.json), and `import tak`
compares them: when any differs, or the record is missing, every compiled module is imported from
its source instead (they call each other natively, so it is all or none), with a warning saying
what to run. `BREDON_COMPILE=0` in the environment does the same without a warning: the pure
build on demand. Only documented import hooks are used (a meta path finder returning a spec for
the source file)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
MANIFEST = "compiled.json"  # written by setup.py, which names it too


class StaleBuildWarning(RuntimeWarning):
    """The compiled engine was built from other sources than those beside it."""


@dataclass(frozen=True)
class Build:
    """What `import tak` runs: `modules` compiled (none when pure) and, when pure, why."""

    modules: tuple[str, ...]
    pure_because: str | None
    stale: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.modules:
            return "compiled (mypyc): " + ", ".join(f"tak.{m}" for m in self.modules)
        return f"pure Python: {self.pure_because}"


def extension_modules(package: Path) -> list[str]:
    """The modules of `package` that this Python would import from an extension."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return sorted(
        entry.name[: -len(suffix)]
        for entry in package.iterdir()
        for suffix in suffixes
        if entry.name.endswith(suffix) and "." not in entry.name[: -len(suffix)]
    )


def source_hash(package: Path, module: str) -> str | None:
    import hashlib  # here: only a compiled install needs it, and `python -m tak` starts faster

    try:
        return hashlib.sha256((package / f"{module}.py").read_bytes()).hexdigest()
    except OSError:
        return None


def inspect(package: Path, environment: Mapping[str, str]) -> Build:
    """The build that `package` (a checkout's or an installed tak/) runs in `environment`."""
    try:
        record = json.loads((package / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = {}
    present = extension_modules(package)
    if not present:
        if "pure" in record:
            return Build((), f"at install, {record['pure']}")
        if "built" in record:
            return Build((), "compiled for another Python than this one; reinstall to compile it")
        return Build((), "not compiled")
    if environment.get("BREDON_COMPILE") == "0":
        return Build((), "BREDON_COMPILE=0")
    built = record.get("built", {})
    stale = tuple(m for m in present if built.get(m) is None or built[m] != source_hash(package, m))
    if stale:
        changed = ", ".join(f"tak/{m}.py" for m in stale)
        return Build((), f"the compiled engine was not built from the current {changed}", stale)
    return Build(tuple(present), None)


def rebuild_command(package: Path) -> str:
    root = package.parent
    if (root / "setup.py").is_file():
        return f"{sys.executable} -m pip install -e {root}"
    return f"{sys.executable} -m pip install --force-reinstall --no-deps bredon-bot"


class PureSources:
    """Finds `tak.<module>` in its .py file for the given modules, ahead of their extensions: a
    meta path finder (an object with `find_spec`; importlib.abc's base class would cost every
    start of `python -m tak` the import of importlib.resources)."""

    def __init__(self, package: Path, modules: Sequence[str]) -> None:
        self.package = package
        self.names = {f"{__package__}.{m}": m for m in modules}

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        module = self.names.get(fullname)
        if module is None:
            return None
        import importlib.util  # here: only a stale compiled install needs it

        return importlib.util.spec_from_file_location(fullname, self.package / f"{module}.py")


def choose() -> Build:
    """The pure sources wherever the extensions must not run; before any of them is imported."""
    build = inspect(PACKAGE, os.environ)
    bypassed = extension_modules(PACKAGE) if not build.modules else []
    if bypassed:
        sys.meta_path.insert(0, PureSources(PACKAGE, bypassed))
    if build.stale:
        warnings.warn(
            f"{build.pure_because}: running the pure Python sources, slower; to compile them "
            f"again, run `{rebuild_command(PACKAGE)}`",
            StaleBuildWarning,
            stacklevel=2,
        )
    return build


BUILD = choose()
