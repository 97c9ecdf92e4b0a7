"""docs/architecture.md names real places: every path it gives exists, and every package and
command module of bot/ and cogs/ appears in it, so a move or a new module cannot leave the map
behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PATH = re.compile(r"`((?:tak|rendering|bot|cogs|tests|docs|benchmarks)/[\w/.*]*)`")


def test_every_path_the_map_names_exists() -> None:
    named = PATH.findall(DOC)
    assert len(named) > 50
    missing = [path for path in named if not list(ROOT.glob(path.rstrip("/")))]
    assert missing == []


def on_the_map(path: Path) -> bool:
    """Named by its path, or, in a package's row, by its name alone (`tak.py` in the row of
    `cogs/commands/`, `game_messages` in that of `cogs/words/`)."""
    relative = path.relative_to(ROOT).as_posix()
    if f"`{relative}`" in DOC:
        return True
    package = path.parent.relative_to(ROOT).as_posix() + "/"
    rows = [line for line in DOC.splitlines() if line.startswith(f"| `{package}`")]
    return any(f"`{path.name}`" in row or f"`{path.stem}`" in row for row in rows)


def test_every_package_and_module_of_the_discord_layer_is_on_the_map() -> None:
    packages = [p.parent.relative_to(ROOT).as_posix() + "/" for p in ROOT.glob("bot/*/__init__.py")]
    packages += [
        p.parent.relative_to(ROOT).as_posix() + "/" for p in ROOT.glob("cogs/*/__init__.py")
    ]
    absent = [name for name in packages if f"`{name}`" not in DOC]
    absent += [
        path.relative_to(ROOT).as_posix()
        for path in ROOT.glob("cogs/**/*.py")
        if path.stem != "__init__" and not on_the_map(path)
    ]
    assert absent == []
