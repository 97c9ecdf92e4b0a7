"""The four layers import only the layers before them: `tak` (no dependencies), `rendering`
(Pillow), `bot` (no discord.py at all), `cogs` (everything that knows discord.py). The one
module above them all is the entry point, `bot/__main__.py`: to run the bot or sync its commands
it hands the settings to `cogs.running`, and nothing else of `cogs`. Read from the sources, so a
stray import fails here before anyone has to find it in review."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("tak", "rendering", "bot", "cogs", "web")
# Beyond the standard library and the layers before it, what each layer may import.
THIRD_PARTY = {
    "tak": set(),
    "rendering": {"PIL"},
    # aiohttp: the health endpoint's web server; asyncpg: the PostgreSQL store, check and copy;
    # babel: the languages' message catalogues
    "bot": {"aiosqlite", "asyncpg", "dotenv", "aiohttp", "babel"},
    "cogs": {"discord", "aiohttp"},
    # web/, the pages, stands beside cogs/: another adapter over bot/, knowing nothing of Discord
    "web": {"aiohttp", "jinja2"},
}
BESIDE = {"web": {"cogs"}}  # layers a layer stands beside, so may not import
# The entry point: what it may import from above its layer (and nothing imports it).
ENTRY_POINT = "bot/__main__.py"
ENTRY_POINT_REACHES = {"cogs.running", "web.app"}


def imported_modules(path: Path) -> set[str]:
    """Every module a module imports absolutely (at its top, in functions or for types alike)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def imported_roots(path: Path) -> set[str]:
    """The top-level package of every absolute import in a module."""
    return {name.split(".")[0] for name in imported_modules(path)}


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_the_layers_before_it(layer: str) -> None:
    allowed = (set(LAYERS[: LAYERS.index(layer) + 1]) - BESIDE.get(layer, set())) | THIRD_PARTY[
        layer
    ]
    wrong = {}
    for path in modules(layer):
        name = path.relative_to(ROOT).as_posix()
        imported = imported_modules(path)
        if name == ENTRY_POINT:
            imported -= ENTRY_POINT_REACHES
        extra = {module.split(".")[0] for module in imported} - allowed - sys.stdlib_module_names
        if extra:
            wrong[name] = sorted(extra)
    assert wrong == {}


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "stray.py"
    module.write_text("import os\nfrom discord import ui\nimport PIL.Image as image\n")
    assert imported_roots(module) - sys.stdlib_module_names == {"discord", "PIL"}


def test_nothing_imports_the_entry_point() -> None:
    importers = [
        path.relative_to(ROOT).as_posix()
        for layer in LAYERS
        for path in modules(layer)
        if any(name.startswith("bot.__main__") for name in imported_modules(path))
    ]
    assert importers == []


def test_no_module_of_bot_knows_discord() -> None:
    """Not even the entry point: it reaches discord.py only through `cogs.running`."""
    knowing = [
        path.relative_to(ROOT).as_posix()
        for path in modules("bot")
        if {"discord", "discord.ext"} & {n.split(".")[0] for n in imported_modules(path)}
    ]
    assert knowing == []


# The parts of the Discord layer, highest first, as docs/architecture.md draws them: each imports
# only its own level and those below it.
DISCORD_LEVELS = (
    ("cogs.running",),
    ("cogs.commands",),
    ("cogs.actions",),
    ("cogs.presenters",),
    ("cogs.components",),
    ("cogs.arguments", "cogs.checks"),
    ("cogs.delivery",),
    ("cogs.client",),
    ("cogs.translation", "cogs.interactions", "cogs.words"),
)


def level_of(module: str) -> int | None:
    for level, parts in enumerate(DISCORD_LEVELS):
        if any(module == part or module.startswith(part + ".") for part in parts):
            return level
    return None


def imports_up(root: Path) -> list[tuple[str, str]]:
    """Every import in `root`'s cogs/ of a part drawn above the importer's."""
    found = []
    for path in sorted((root / "cogs").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        here = level_of(module)
        for name in imported_modules(path):
            there = level_of(name)
            if here is not None and there is not None and there < here:
                found.append((module, name))
    return found


def test_the_discord_layer_s_parts_import_only_downwards() -> None:
    names = [
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in modules("cogs")
    ]
    assert [name for name in names if name != "cogs" and level_of(name) is None] == []
    assert imports_up(ROOT) == []


def test_the_check_sees_a_part_importing_one_above_it(tmp_path: Path) -> None:
    (tmp_path / "cogs" / "delivery").mkdir(parents=True)
    (tmp_path / "cogs" / "delivery" / "table.py").write_text("from cogs.presenters import x\n")
    assert imports_up(tmp_path) == [("cogs.delivery.table", "cogs.presenters")]
