"""The league's pure rules: the standings against a scoring written independently here, board
by board from the games' results; seats, colours and the default lineup."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from bot.leagues.scoring import (
    MatchScore,
    Seat,
    board_halves,
    default_lineup,
    home_plays_white,
    seat,
    standings,
)

# A board's result from the home side: a win, a draw or a loss.
RESULTS = st.sampled_from(["1-0", "½-½", "0-1"])


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, int, list[str]]]]:
    """Teams and decided matches between two different teams, each a list of board results."""
    teams = draw(st.lists(st.integers(1, 50), min_size=2, max_size=7, unique=True))
    boards = draw(st.integers(1, 4))
    pairs = st.tuples(st.sampled_from(teams), st.sampled_from(teams)).filter(lambda p: p[0] != p[1])
    matches = draw(
        st.lists(st.tuples(pairs, st.lists(RESULTS, min_size=boards, max_size=boards)), max_size=12)
    )
    return teams, [(home, away, results) for (home, away), results in matches]


def expected_table(
    teams: list[int], matches: list[tuple[int, int, list[str]]]
) -> list[tuple[int, int, Fraction]]:
    """(place, match points, game points) for each team, ranked: the match goes to the side
    with more game points, 2 points a win and 1 a draw; ties on both share the higher place."""
    game = {team: Fraction(0) for team in teams}
    match = dict.fromkeys(teams, 0)
    value = {"1-0": (Fraction(1), Fraction(0)), "½-½": (Fraction(1, 2),) * 2}
    value["0-1"] = (Fraction(0), Fraction(1))
    for home, away, results in matches:
        home_points = sum((value[r][0] for r in results), Fraction(0))
        away_points = sum((value[r][1] for r in results), Fraction(0))
        game[home] += home_points
        game[away] += away_points
        if home_points == away_points:
            match[home] += 1
            match[away] += 1
        else:
            match[home if home_points > away_points else away] += 2
    keys = {team: (match[team], game[team]) for team in teams}
    ranked = sorted(teams, key=lambda t: keys[t], reverse=True)
    return [
        (1 + sum(keys[other] > keys[team] for other in teams), match[team], game[team])
        for team in ranked
    ]


def score(home: int, away: int, results: list[str]) -> MatchScore:
    halves = [board_halves({"1-0": True, "½-½": None, "0-1": False}[r]) for r in results]
    return MatchScore(home, away, sum(h for h, _ in halves), sum(a for _, a in halves))


@given(leagues())
def test_standings_rank_by_match_points_then_game_points(league) -> None:
    teams, matches = league
    table = standings(teams, [score(*m) for m in matches])
    got = [(row.place, row.match_points, Fraction(row.game_halves, 2)) for row in table]
    assert got == expected_table(teams, matches)
    assert sorted(row.team for row in table) == sorted(teams)
    for row in table:
        assert row.played == row.won + row.drawn + row.lost
        assert row.match_points == 2 * row.won + row.drawn
        assert row.played == sum(row.team in (home, away) for home, away, _ in matches)


def test_level_teams_share_a_place_in_the_order_given() -> None:
    table = standings([3, 1, 2], [MatchScore(1, 2, 2, 2), MatchScore(3, 1, 1, 3)])
    assert [(row.place, row.team) for row in table] == [(1, 1), (2, 2), (3, 3)]
    level = standings([5, 4], [MatchScore(4, 5, 2, 2)])
    assert [(row.place, row.team, row.match_points) for row in level] == [(1, 5, 1), (1, 4, 1)]


def test_colours_alternate_and_a_missing_player_forfeits_the_board() -> None:
    assert [home_plays_white(b) for b in (1, 2, 3, 4)] == [True, False, True, False]
    seats = seat(3, [11, 12, 13], [21])
    assert seats == [Seat(1, 11, 21), Seat(2, 12, None), Seat(3, 13, None)]
    assert [s.forfeit_halves for s in seats] == [None, (2, 0), (2, 0)]
    assert Seat(1, None, None).forfeit_halves == (0, 0)


def test_the_default_lineup_is_the_best_rated_in_roster_order_when_level() -> None:
    roster = [(1, 1500.0), (2, 1600.0), (3, 1500.0), (4, 1700.0)]
    assert default_lineup(roster, 3) == [4, 2, 1]
    assert default_lineup(roster[:1], 2) == [1]
