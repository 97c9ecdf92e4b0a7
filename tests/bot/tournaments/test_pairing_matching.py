"""The largest-matching routine the Swiss search prunes with, against exhaustive search."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from bot.tournaments.pairing import _matching_size


def largest_by_search(vertices: list[int], edges: list[int]) -> int:
    if not vertices:
        return 0
    first, rest = vertices[0], vertices[1:]
    best = largest_by_search(rest, edges)
    for partner in rest:
        if edges[first] >> partner & 1:
            others = [v for v in rest if v != partner]
            best = max(best, 1 + largest_by_search(others, edges))
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    size = draw(st.integers(min_value=0, max_value=11))
    pairs = list(combinations(range(size), 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    edges = [0] * size
    for a, b in chosen:
        edges[a] |= 1 << b
        edges[b] |= 1 << a
    vertices = draw(st.lists(st.sampled_from(range(size)), unique=True)) if size else []
    return sorted(vertices), edges


@given(graphs())
def test_matching_size_is_the_largest(graph: tuple[list[int], list[int]]) -> None:
    vertices, edges = graph
    assert _matching_size(vertices, edges) == largest_by_search(vertices, edges)
