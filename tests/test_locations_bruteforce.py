"""Possible-location sets against a brute force through the rules engine (issue 19: the cornered rule).

A stop from which Dr. Factor has no legal move cannot be his at a point where the rules would then
have ended the game (his turn start, between the two moves of a double) and the game went on.
:mod:`tests.p07_bruteforce` enumerates his paths on engine states only, sharing no code with the
tracker; these tests compare the two at every decision point, and check that ``game.resample``
and ``game.view_from_json`` then behave: a live view resamples to a live state with the same view,
and a genuine view is accepted.

The fast tests are the issue's reproducer and a handful of games, most of them seeds on which the
tracker kept a cornered stop before the fix; ``-m slow`` runs the thorough version, and
``bench/locations_bruteforce.py`` the long run recorded in ``bench/results/locations-bruteforce.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import solver.games
from solver.games.police07.locations import possible_locations
from solver.games.police07.sim import SimTables, determinizer_base
from tests.p07_bruteforce import (
    CORNERED,
    POLICIES,
    REPRODUCER,
    FactorPaths,
    board_files,
    checkpoint_kind,
    game_for,
    play_and_compare,
    run,
)


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every board the project ships as a file, and the boards the tests write to one."""
    return board_files(tmp_path_factory.mktemp("boards"))


def reproducer_view() -> tuple[Any, Any]:
    game = solver.games.load("police07", players=4)
    state = game.new_initial_state()
    for action in REPRODUCER:
        state.apply(action)
    return game, state


def test_reproducer_drops_the_cornered_stop() -> None:
    game, state = reproducer_view()
    assert checkpoint_kind(state) == "factor turn start"
    assert set(game.board.neighbours[0][CORNERED]) == {130, 138} <= set(state.pos[1:])
    view = state.view(1)
    data = view.to_json()
    got = possible_locations(game, data)
    paths = FactorPaths(game)
    paths.feed(data["history"])
    assert got == paths.stops(1, data)
    assert CORNERED not in got and state.pos[0] in got


def test_reproducer_resamples_live_states_only() -> None:
    """Every stop of the set resamples to a live state with the same view; the cornered stop, asked
    for by the belief, is never drawn (the belief falls back to uniform), and the view is accepted."""
    game, state = reproducer_view()
    view = state.view(1)
    data = view.to_json()
    rng = np.random.default_rng(19)
    for stop in sorted(possible_locations(game, data)):
        drawn = game.resample(view, rng, belief={stop: 1.0})
        assert not drawn.is_terminal() and drawn.pos[0] == stop
        assert drawn.view(1).to_json() == data
    for _ in range(30):
        drawn = game.resample(view, rng, belief={CORNERED: 1.0})
        assert not drawn.is_terminal() and drawn.pos[0] != CORNERED
    assert game.view_from_json(data).to_json() == data
    tables = SimTables.build(game)
    assert CORNERED not in determinizer_base(game, view, tables).stops


#: (board, game number) of :func:`tests.p07_bruteforce.game_for`: games on which the tracker kept
#: a cornered stop before the fix, with random, heuristic and mixed seats (on the mini board at his
#: turn start and after a double, the voluntary show's double in game 183; on Budapest with one
#: detective piece, whose few spent tickets leave him lines he cannot ride).
FAST_GAMES = [("mini", g) for g in (48, 52, 57, 72, 104, 146, 183, 210)] + [
    ("budapest", g) for g in (12, 22, 32)
]


@pytest.mark.parametrize(("board", "g"), FAST_GAMES, ids=[f"{b}-{g}" for b, g in FAST_GAMES])
def test_sets_match_brute_force(boards: dict[str, str], board: str, g: int) -> None:
    game, policy = game_for(board, boards[board], g, POLICIES)
    tally = play_and_compare(game, g, policy, resample_every=3, sweep_every=4)
    assert tally.mismatches == []
    assert tally.counts["factor turn start"] > 0 and tally.counts["detective"] > 0


@pytest.mark.parametrize("g", [52, 57, 183, 210])
def test_merging_branches_drops_no_path(boards: dict[str, str], g: int) -> None:
    """The brute force merges branches with equal engine fields; following every path apart gives
    the same sets while the paths stay countable (mini-board games that corner him: here the
    paths are followed apart through the whole game)."""
    game, policy = game_for("mini", boards["mini"], g, POLICIES)
    tally = play_and_compare(game, g, policy, resample_every=0, unmerged_up_to=300)
    assert tally.mismatches == []
    assert tally.counts["paths merged"] > 0  # paths did meet, so merging was put to the test


@pytest.mark.slow
@pytest.mark.parametrize("board", ["budapest", "mini", "random255"])
def test_sets_match_brute_force_thoroughly(boards: dict[str, str], board: str) -> None:
    """Hundreds of games per board, every policy, resample and view_from_json checked on the way."""
    games = {"budapest": 150, "mini": 600, "random255": 60}[board]
    tally = run(board, boards[board], games, first_seed=1000, resample_every=4, sweep_every=10)
    assert tally.mismatches == []
    assert tally.counts["games"] == games
