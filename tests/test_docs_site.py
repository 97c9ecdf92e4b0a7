"""The front door and the docs site: the README stays short, every link in it leads to a file and
heading that exist, a heading's anchor is the same on GitHub and on the site, and the site builds
with MkDocs in strict mode, where a broken link or anchor in docs/ fails the build."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from markdown.extensions.toc import slugify_unicode

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)#*$")


def prose(path: Path) -> list[str]:
    """The lines of a Markdown file outside its fenced code blocks."""
    kept, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return kept


def headings(path: Path) -> list[str]:
    return [m[1].strip() for line in prose(path) if (m := HEADING.match(line))]


def github_anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen."""
    text = heading.replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def site_anchor(heading: str) -> str:
    """The site's anchor, as mkdocs.yml has MkDocs make it (the toc extension's slugify_unicode)."""
    return slugify_unicode(heading.replace("`", ""), "-")


def test_the_readme_is_a_front_door_not_a_manual() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 160, f"README.md has {len(lines)} lines: move the details to docs/"


def test_every_link_in_the_readme_leads_to_a_file_and_heading_that_exist() -> None:
    links = [link for line in prose(README) for link in LINK.findall(line)]
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(local) >= 10  # the read-next table alone has more
    broken = []
    for link in local:
        path, _, anchor = link.partition("#")
        target = (README.parent / path) if path else README
        found = target.is_file() and (
            not anchor or anchor in {github_anchor(h) for h in headings(target)}
        )
        if not found:
            broken.append(link)
    assert broken == []


def test_a_headings_anchor_is_the_same_on_github_and_on_the_site() -> None:
    """A link to `players.md#clocks` is checked by the strict build against the site's anchors;
    the same link read on GitHub must find the same heading."""
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    differing = [
        (page.name, heading)
        for page in pages
        for heading in headings(page)
        if github_anchor(heading) != site_anchor(heading)
    ]
    assert differing == []


def test_the_site_builds_strictly_with_every_link_and_anchor_resolved(tmp_path: Path) -> None:
    """MkDocs comes with the tests' tools (tests/requirements.txt): without it this fails."""
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    built = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*")}
    assert {"index.html", "players/index.html", "board.png"} <= built


def test_the_site_lists_every_page_of_the_docs() -> None:
    """A page left out of mkdocs.yml's nav would be on the site but reachable from no menu."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    named = set(re.findall(r"^\s+- [^:]+: ([\w-]+\.md)$", config, re.M))
    assert named == {p.name for p in (ROOT / "docs").glob("*.md")}
