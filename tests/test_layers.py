"""The four layers import only the layers before them: `tak` (no dependencies), `rendering`
(Pillow), `bot` (discord.py only where the entry point builds the client), `cogs`. Read from the
sources, so a stray import fails here before anyone has to find it in review."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("tak", "rendering", "bot", "cogs")
# Beyond the standard library and the layers before it, what each layer may import.
THIRD_PARTY = {
    "tak": set(),
    "rendering": {"PIL"},
    # aiohttp: the health endpoint's web server; asyncpg: the PostgreSQL store, check and copy;
    # babel: the languages' message catalogues
    "bot": {"aiosqlite", "asyncpg", "dotenv", "aiohttp", "babel"},
    "cogs": {"discord", "aiohttp"},
}
# The entry point builds the Discord client; no service, rule or storage module may.
DISCORD_IN_BOT = {"bot/app.py", "bot/__main__.py"}


def imported_roots(path: Path) -> set[str]:
    """The top-level package of every absolute import in a module."""
    roots = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def modules(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_the_layers_before_it(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1]) | THIRD_PARTY[layer]
    wrong = {}
    for path in modules(layer):
        name = path.relative_to(ROOT).as_posix()
        extra = imported_roots(path) - allowed - sys.stdlib_module_names
        if name in DISCORD_IN_BOT:
            extra -= {"discord"}
        if extra:
            wrong[name] = sorted(extra)
    assert wrong == {}


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "stray.py"
    module.write_text("import os\nfrom discord import ui\nimport PIL.Image as image\n")
    assert imported_roots(module) - sys.stdlib_module_names == {"discord", "PIL"}
