"""`bot/`'s packages stand in layers: no two of them import each other, however indirectly, and
inside a package no file imports one that imports it back. Every import counts, those under
``TYPE_CHECKING`` and inside functions too, so the order holds for a reader as well as at run time.
Read from the sources, like `tests/test_layers.py`."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

Graph = dict[str, set[str]]


def module_name(path: Path, root: Path) -> str:
    """``bot/games/model.py`` → ``bot.games.model``; a package's ``__init__.py`` is the package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path, known: set[str]) -> set[str]:
    """The modules of the tree a file imports, anywhere in it: ``from bot.games import storage``
    imports ``bot.games.storage`` when that is a module, else ``bot.games``."""
    package = module_name(path, root)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                whole = f"{base}.{alias.name}"
                found.add(whole if whole in known else base)
    return {name for name in found if name in known}


def file_graph(root: Path, top: str = "bot") -> Graph:
    """Each module of `top` and the modules of `top` it imports."""
    paths = sorted((root / top).rglob("*.py"))
    known = {module_name(path, root) for path in paths}
    return {
        module_name(path, root): imported_modules(path, root, known) - {module_name(path, root)}
        for path in paths
    }


def unit(module: str) -> str:
    """The node a module belongs to: its subpackage of `bot`, or a top-level module itself."""
    return ".".join(module.split(".")[:2])


def package_graph(files: Graph, packages: set[str]) -> Graph:
    """Files folded into their packages: `bot`'s subpackages, each top-level module on its own."""
    graph: Graph = defaultdict(set)
    for source, targets in files.items():
        if source == "bot":
            continue
        here = unit(source) if unit(source) in packages else source
        graph[here]
        for target in targets:
            there = unit(target) if unit(target) in packages else target
            if there not in (here, "bot"):
                graph[here].add(there)
    return dict(graph)


def loops(graph: Graph) -> list[set[str]]:
    """The strongly connected sets of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            members = set()
            while True:
                member = stack.pop()
                members.add(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(members)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def packages_of(root: Path, top: str = "bot") -> set[str]:
    return {f"{top}.{path.parent.name}" for path in (root / top).glob("*/__init__.py")}


def package_loops(root: Path) -> list[set[str]]:
    return loops(package_graph(file_graph(root), packages_of(root)))


def file_circles(root: Path) -> list[set[str]]:
    """Circles between the files of one package (imports that leave it are left out)."""
    files = file_graph(root)
    inside = {
        source: {target for target in targets if unit(target) == unit(source)}
        for source, targets in files.items()
    }
    return loops(inside)


def test_no_two_bot_packages_import_each_other() -> None:
    assert package_loops(ROOT) == []


def test_no_circle_between_the_files_of_a_package() -> None:
    assert file_circles(ROOT) == []


def test_the_checks_see_a_loop_and_a_circle(tmp_path: Path) -> None:
    modules = {
        "bot/__init__.py": "",
        "bot/errors.py": "",
        "bot/low/__init__.py": "import bot.errors\n",
        "bot/games/__init__.py": "",
        "bot/games/model.py": "from bot.low import thing\n",
        # An import inside a function closes the loop between two packages.
        "bot/games/service.py": "def f():\n    from bot.tournaments import rounds\n",
        "bot/tournaments/__init__.py": "",
        "bot/tournaments/rounds.py": "from bot.games import model\n",
        # An import under TYPE_CHECKING closes a circle between two files of one package.
        "bot/store/__init__.py": "",
        "bot/store/base.py": "if TYPE_CHECKING:\n    from bot.store.sqlite import Engine\n",
        "bot/store/sqlite.py": "from bot.store.base import Database\n",
    }
    for name, text in modules.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert package_loops(tmp_path) == [{"bot.games", "bot.tournaments"}]
    assert file_circles(tmp_path) == [{"bot.store.base", "bot.store.sqlite"}]
