"""The ``ismcts`` bot of Police Precinct searches the same with the compiled playout as with the Python one.

``PrecinctSim.rollout`` plays the line below the tree in C (``solver._ext.precinct_playout``) and
scores a cut with the C value when it can, and in Python otherwise (a watched dirty seat, a stand-in
evaluation, a ``reveal`` in the line). The same seeded search, at mid-game positions of seeded
heuristic games (4 players; 4 with the Dirty Cop, searched by a good seat, also once the dirty cop
has revealed himself; 5 with the Dirty Cop; and with the ``even`` value and a horizon of 0), must
give the same :class:`SearchResult` (choice, visits, availability and value per root action,
exactly) with the compiled rollout and with ``bots.precinct.search.COMPILED`` set to None (the
Python loop). The compiled run is also checked to have played compiled lines, so an unused kernel
cannot pass for an equal one.

Skips when the kernels are not built (an error under ``COPSOLVER_REQUIRE_COMPILED=1``) or when
``COPSOLVER_PUREPYTHON=1`` asks for the Python loop.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import bots.precinct.search as psearch
from bots.precinct.ismcts import PrecinctISMCTSBot
from solver._accel import PURE_REQUESTED
from solver.games.precinct.rules import PrecinctGame
from solver.search.ismcts import SearchResult
from tests.precinct_positions import heuristic_position

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")

# CI's pure-Python run keeps COPSOLVER_REQUIRE_COMPILED=1 from its compiled run; there the Python
# loop is what is asked for, and this module skips
if psearch.COMPILED is None and REQUIRE_COMPILED and not PURE_REQUESTED:
    raise ImportError("COPSOLVER_REQUIRE_COMPILED=1 but the Precinct kernels are not in use")

pytestmark = pytest.mark.skipif(psearch.COMPILED is None, reason="the Precinct kernels are not built")

GAME4 = PrecinctGame(players=4)
DIRTY4 = PrecinctGame(players=4, dirty_cop=True)
DIRTY5 = PrecinctGame(players=5, dirty_cop=True)

#: (game, seed, majors, good_seat_only, options)
CASES: list[tuple[PrecinctGame, int, int, bool, dict[str, Any]]] = [
    (GAME4, 1, 12, False, {}),
    (GAME4, 4, 20, False, {}),
    (DIRTY4, 2, 10, True, {}),
    (DIRTY4, 5, 16, True, {}),
    (DIRTY4, 4, 16, True, {}),  # the dirty cop revealed himself: the value reads the self-revealed seats
    (DIRTY4, 7, 12, True, {}),
    (DIRTY5, 3, 12, False, {}),
    (GAME4, 6, 8, False, {"value": "even"}),
    (GAME4, 7, 30, False, {"horizon": 0}),
]


def _position(game: PrecinctGame, seed: int, majors: int, good: bool) -> Any:
    """A heuristic game's ``majors``-th major decision (with ``good``, of a good seat)."""
    if not good:
        return heuristic_position(game, seed, majors)
    probe = heuristic_position(game, seed, 1)  # the deal is fixed by the seed: find a good seat
    seat = next(s for s in range(game.num_players) if not probe.loyalty[s])
    return heuristic_position(game, seed, majors, seat=seat)


def _search(game: PrecinctGame, st: Any, options: dict[str, Any], iterations: int) -> SearchResult:
    me = st.current_player()
    bot = PrecinctISMCTSBot(game, me, np.random.default_rng(11), iterations=iterations, worlds=2, **options)
    return bot.search(st.view(me))


def _key(r: SearchResult) -> tuple[Any, ...]:
    return (r.action, r.iterations, r.nodes, tuple((s.action, s.visits, s.availability, s.value)
                                                   for s in r.stats))


@pytest.mark.parametrize("case", range(len(CASES)))
def test_compiled_rollout_searches_as_the_python_one(case: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game, seed, majors, good, options = CASES[case]
    st = _position(game, seed, majors, good)
    iterations = 8 if options.get("horizon") == 0 else 40
    lines = []
    real = psearch.PrecinctSim._compiled_returns

    def counted(self: psearch.PrecinctSim, start: Any, line: tuple[Any, Any]) -> list[float]:
        lines.append(1)
        return real(self, start, line)

    monkeypatch.setattr(psearch.PrecinctSim, "_compiled_returns", counted)
    compiled = _search(game, st, options, iterations)
    used = len(lines)
    monkeypatch.setattr(psearch, "COMPILED", None)
    pure = _search(game, st, options, iterations)
    assert len(lines) == used  # the forced run played no compiled line
    if not st.loyalty[st.current_player()]:  # a good searcher watches no one: his lines may be compiled
        assert used > iterations // 2  # most lines compiled (a reveal in a line falls back to Python)
    assert compiled.iterations == pure.iterations == iterations
    assert _key(compiled) == _key(pure)
    assert sum(s.visits for s in compiled.stats) == iterations


def test_a_timed_line_runs_in_c_until_the_time_is_up() -> None:
    from bots.precinct.search import PrecinctSim
    from solver.core.rng import SplitMix64
    from solver.search.precinct_value import load_value

    st = _position(GAME4, 3, 20, False)
    evaluate = load_value().value
    pure = PrecinctSim(st.clone(), horizon=4, evaluate=evaluate)
    pure.prepare()
    rng = SplitMix64(5)
    steps = 0
    while not pure.is_terminal():
        pure.apply(pure.default_action(rng))
        steps += 1
    timed = PrecinctSim(st.clone(), horizon=4, evaluate=evaluate)
    timed.prepare()
    timed.expired = lambda: False  # a timed search, its time not up
    crng = SplitMix64(5)
    assert timed.rollout(crng, 10_000) == steps and crng.state == rng.state
    assert timed._cline is not None and timed.returns() == pure.returns()
    late, loop = (PrecinctSim(st.clone(), horizon=4, evaluate=evaluate) for _ in range(2))
    for sim in (late, loop):
        sim.prepare()
        sim.expired = lambda: True  # the time is up: the Python loop and its cut-off play the line
    lrng = SplitMix64(5)
    cut = 0
    while not loop.is_terminal():
        loop.apply(loop.default_action(lrng))
        cut += 1
    assert late.rollout(SplitMix64(5), 10_000) == cut and late._cline is None
    assert late.returns() == loop.returns()
