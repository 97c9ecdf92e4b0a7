"""A player's conditional moves as a tree: pure logic, no storage, no rules of Tak.

A *line* is a list of plies that starts with the opponent's reply and alternates: their move,
my answer, their move, my answer... The lines of one player in one game form a tree keyed by
the opponent's moves: each of their moves leads to exactly one answer of mine and, below it, the
lines that go on from there. A line that gives another answer to the same opponent's move
replaces the branch it contradicts (the newest wish wins); lines that differ at an opponent's move
live side by side. Moves are compared as text, so callers hand in canonical PTN.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Branch:
    """My answer to one opponent's move, and the lines that go on after it."""

    answer: str
    then: ConditionTree


@dataclass(slots=True)
class ConditionTree:
    """The lines that start at one position where the opponent is to move."""

    branches: dict[str, Branch] = field(default_factory=dict)

    @classmethod
    def of(cls, lines: list[list[str]]) -> ConditionTree:
        tree = cls()
        for line in lines:
            tree.add(line)
        return tree

    def add(self, line: list[str]) -> bool:
        """Merge `line` (opponent's move first, then mine, alternating; an even, non-zero
        number of plies) into the tree; True if it replaced a branch that gave another answer
        to one of the opponent's moves."""
        if not line or len(line) % 2:
            raise ValueError("a line alternates the opponent's move and the answer, in pairs")
        node, replaced = self, False
        for at in range(0, len(line), 2):
            theirs, mine = line[at], line[at + 1]
            branch = node.branches.get(theirs)
            if branch is None or branch.answer != mine:
                replaced = replaced or branch is not None
                branch = node.branches[theirs] = Branch(mine, ConditionTree())
            node = branch.then
        return replaced

    def answer(self, theirs: str) -> tuple[str, ConditionTree] | None:
        """My answer to the opponent's move `theirs` and the lines that go on after it, or None
        when no line foresaw it (then every line is void)."""
        branch = self.branches.get(theirs)
        return None if branch is None else (branch.answer, branch.then)

    def lines(self) -> list[list[str]]:
        """Every line from here to a leaf, in the order the branches were made."""
        found: list[list[str]] = []
        for theirs, branch in self.branches.items():
            below = branch.then.lines()
            stem = [theirs, branch.answer]
            found.extend([stem + rest for rest in below] if below else [stem])
        return found

    def __bool__(self) -> bool:
        return bool(self.branches)


def encode(tree: ConditionTree) -> str:
    """The tree as stored: its lines, one a text line, plies separated by spaces."""
    return "\n".join(" ".join(line) for line in tree.lines())


def decode(text: str) -> ConditionTree:
    """The stored tree; a row that is not a line in pairs (not written by :func:`encode`, e.g.
    edited by hand) is left out rather than stopping the game's moves."""
    rows = [row.split() for row in text.splitlines()]
    return ConditionTree.of([row for row in rows if row and len(row) % 2 == 0])
