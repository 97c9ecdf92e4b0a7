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


def test_every_package_and_cog_is_on_the_map() -> None:
    packages = [p.parent.relative_to(ROOT).as_posix() + "/" for p in ROOT.glob("bot/*/__init__.py")]
    cogs = [p.relative_to(ROOT).as_posix() for p in ROOT.glob("cogs/*.py") if p.stem != "__init__"]
    text = DOC.replace("`cogs/*_messages.py`", "")
    absent = [
        name
        for name in packages + cogs
        if f"`{name}`" not in text and not (name.endswith("_messages.py") and name[5:-3] in text)
    ]
    assert absent == []
