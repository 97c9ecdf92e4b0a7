"""Which build `import tak` runs (tak/compiled.py) and what the install leaves for it (setup.py).

A compiled editable install keeps its extensions beside the sources, where Python prefers them:
after an edit to a compiled source they must not run. The copies of tak/ here hold unreadable
files named as this Python's extensions: importing one fails loudly, so an import that succeeds
shows the sources ran. Real builds are checked by CI (.ci/run), which installs compiled."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tak.compiled import MANIFEST, Build, inspect

REPO = Path(__file__).resolve().parents[2]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_modules() -> list[str]:
    """setup.py's COMPILED, read without running setup.py."""
    namespace: dict[str, object] = {}
    text = (REPO / "setup.py").read_text(encoding="utf-8")
    start = text.index("COMPILED = [")
    exec(text[start : text.index("]", start) + 1], namespace)
    return [Path(source).stem for source in namespace["COMPILED"]]  # type: ignore[attr-defined]


def built_copy(root: Path, *, record: bool = True) -> Path:
    """A copy of tak/ as an install compiled it: "extensions" and their sources' hashes."""
    package = root / "tak"
    shutil.copytree(REPO / "tak", package, ignore=shutil.ignore_patterns("*.so", "*.pyd", MANIFEST))
    hashes = {}
    for module in compiled_modules():
        (package / f"{module}{SUFFIX}").write_bytes(b"not an extension")
        hashes[module] = hashlib.sha256((package / f"{module}.py").read_bytes()).hexdigest()
    if record:
        (package / MANIFEST).write_text(json.dumps({"built": hashes}), encoding="utf-8")
    return package


def run_tak(root: Path, **environment: str) -> subprocess.CompletedProcess[str]:
    """Import the copy's tak, play a move and say where tak.position came from."""
    code = (
        "import tak, tak.position; p = tak.Position(5); p.play('a1'); "
        "print(tak.position.__file__); print(tak.BUILD.describe())"
    )
    env = {k: v for k, v in os.environ.items() if k != "BREDON_COMPILE"}
    env.update(environment, PYTHONPATH=str(root))
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    package = built_copy(tmp_path)
    assert inspect(package, {}) == Build(tuple(sorted(compiled_modules())), None)
    # Importing it really reaches the (unreadable) extension: nothing bypasses a current build.
    done = run_tak(tmp_path)
    assert done.returncode == 1 and "ImportError" in done.stderr and SUFFIX in done.stderr


@pytest.mark.parametrize("changed", ["position", "search"])
def test_an_edited_source_runs_pure_with_a_warning_saying_what_to_run(
    tmp_path: Path, changed: str
) -> None:
    package = built_copy(tmp_path)
    shutil.copy(REPO / "setup.py", tmp_path)  # a checkout: rebuilt by an editable install
    with (package / f"{changed}.py").open("a", encoding="utf-8") as source:
        source.write("\n# edited after the build\n")
    done = run_tak(tmp_path)
    assert done.returncode == 0, done.stderr
    origin, described = done.stdout.splitlines()
    assert origin == str(package / "position.py")
    stale = f"the compiled engine was not built from the current tak/{changed}.py"
    assert described == f"pure Python: {stale}"
    assert f"StaleBuildWarning: {stale}: running the pure Python sources" in done.stderr
    assert f"{sys.executable} -m pip install -e {tmp_path}" in done.stderr
    assert inspect(package, {}).stale == (changed,)


def test_extensions_without_a_record_of_their_sources_are_not_trusted(tmp_path: Path) -> None:
    package = built_copy(tmp_path, record=False)
    done = run_tak(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == str(package / "position.py")
    assert "StaleBuildWarning" in done.stderr
    assert set(inspect(package, {}).stale) == set(compiled_modules())


def test_bredon_compile_0_runs_the_pure_sources_quietly(tmp_path: Path) -> None:
    package = built_copy(tmp_path)
    done = run_tak(tmp_path, BREDON_COMPILE="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        str(package / "position.py"),
        "pure Python: BREDON_COMPILE=0",
    ]
    assert done.stderr == ""


def test_a_pure_install_says_why(tmp_path: Path) -> None:
    package = built_copy(tmp_path)
    for extension in package.glob(f"*{SUFFIX}"):
        extension.unlink()
    assert inspect(package, {}).describe() == (
        "pure Python: compiled for another Python than this one; reinstall to compile it"
    )
    (package / MANIFEST).write_text(json.dumps({"pure": "no C compiler (cc) was found"}))
    described = inspect(package, {}).describe()
    assert described == "pure Python: at install, no C compiler (cc) was found"
    (package / MANIFEST).unlink()
    assert inspect(package, {}).describe() == "pure Python: not compiled"


def install_copy(root: Path) -> Path:
    """What setup.py builds from, with an earlier compiled build's files left in place."""
    for name in ("setup.py", "pyproject.toml", "README.md", ".env.example"):
        shutil.copy(REPO / name, root / name)
    shutil.copytree(REPO / "docs", root / "docs")
    for package in ("rendering", "bot", "cogs"):
        (root / package).mkdir()
        (root / package / "__init__.py").write_text("")
    (root / f"tak__mypyc{SUFFIX}").write_bytes(b"not an extension")
    return built_copy(root)


def setup_py(root: Path, *arguments: str, **environment: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("BREDON_COMPILE", "CC")}
    env.update(environment)
    done = subprocess.run(
        [sys.executable, "setup.py", *arguments],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_a_wheel_without_a_c_compiler_is_pure_and_says_why(tmp_path: Path) -> None:
    install_copy(tmp_path)
    said = setup_py(tmp_path, "-q", "bdist_wheel", "--dist-dir", "out", CC="/nowhere/cc")
    assert (
        "bredon-bot: no C compiler (/nowhere/cc) was found: the engine is pure Python "
        "(README, 'A faster engine')"
    ) in said
    [wheel] = (tmp_path / "out").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        record = json.loads(archive.read(f"tak/{MANIFEST}"))
    assert record == {"pure": "no C compiler (/nowhere/cc) was found"}
    assert "tak/position.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def test_an_editable_install_that_opts_out_removes_the_earlier_build(tmp_path: Path) -> None:
    package = install_copy(tmp_path)
    said = setup_py(tmp_path, "-q", "editable_wheel", "--dist-dir", "out", BREDON_COMPILE="0")
    assert "bredon-bot: BREDON_COMPILE=0 was set: the engine is pure Python" in said
    assert not list(package.glob(f"*{SUFFIX}")) and not list(tmp_path.glob("tak__mypyc*"))
    assert inspect(package, {}).describe() == "pure Python: at install, BREDON_COMPILE=0 was set"
