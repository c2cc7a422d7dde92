"""ISMCTS speed: iterations per second on a 6-player (5-detective) Police 07 position.

The pure-Python reference on the pure simulator, and the compiled kernel on the compiled simulator,
timed in one run. The compiled benchmark also times both twins on the same position, interleaved
(best of three each), and records the ratio (``speedup``, target >= 30) in ``extra_info``. Run with
``python -m pytest bench/bench_ismcts.py --benchmark-only``.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core import Seat, View
from solver.core.rng import SplitMix64
from solver.search.ismcts import Budget, is_compiled_determinizer, kernel_available, run_search

ITERATIONS = {"pure": 300, "compiled": 3000}


def position(role: str) -> View:
    """A decision of ``role`` after Dr. Factor's 5th move, from the first seed that gets there."""
    game = solver.games.load("police07", players=6)
    for seed in range(1000):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            moves = state.view(0).to_json()["factor"]["moves"]
            if moves >= 5 and ((role == "factor" and seat == 0) or (role == "detective" and seat == 1)):
                return state.view(seat)
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    raise RuntimeError(f"no seed reaches a {role} decision after move 5")


def determinizer(view: View, engine: str) -> Any:
    from solver.games.police07 import sim

    tables = sim.SimTables.for_searcher(view.game, view.seat)  # type: ignore[arg-type]
    if engine == "pure":
        return sim.P07Determinizer(view.game, view, tables)  # type: ignore[arg-type]
    return sim.make_determinizer(view.game, view, tables)  # type: ignore[arg-type]


def seconds(det: Any, seat: Seat, engine: str) -> float:
    """Wall time of one search of ``ITERATIONS[engine]`` iterations."""
    start = time.perf_counter()
    run_search(det, seat, Budget(iterations=ITERATIONS[engine]), SplitMix64(0), engine=engine)  # type: ignore[arg-type]
    return time.perf_counter() - start


def rates(view: View, repeats: int = 3) -> tuple[float, float]:
    """Best-of-``repeats`` iterations per second, (pure, compiled), the two searches interleaved so
    that load from other processes falls on both alike."""
    pure_det, compiled_det = determinizer(view, "pure"), determinizer(view, "compiled")
    pure = compiled = float("inf")
    for _ in range(repeats):
        pure = min(pure, seconds(pure_det, view.seat, "pure"))
        compiled = min(compiled, seconds(compiled_det, view.seat, "compiled"))
    return ITERATIONS["pure"] / pure, ITERATIONS["compiled"] / compiled


@pytest.mark.parametrize("role", ["detective", "factor"])
@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_ismcts_iterations(benchmark: Any, engine: str, role: str) -> None:
    view = position(role)
    det = determinizer(view, engine)
    if engine == "compiled" and not (kernel_available() and is_compiled_determinizer(det)):
        pytest.skip("the compiled ISMCTS kernel or Police 07 simulator is not built")
    n = ITERATIONS[engine]
    result = benchmark(run_search, det, view.seat, Budget(iterations=n), SplitMix64(0), engine=engine)
    assert result.engine == engine and result.iterations == n
    mean = benchmark.stats.stats.mean
    benchmark.extra_info["what"] = f"{engine} ISMCTS, {n} iterations, 6 players, {role} to act"
    benchmark.extra_info["iterations_per_s"] = round(n / mean, 1)
    benchmark.extra_info["nodes"] = result.nodes
    if engine == "compiled":
        pure, compiled = rates(view)
        benchmark.extra_info["interleaved_pure_iterations_per_s"] = round(pure, 1)
        benchmark.extra_info["interleaved_compiled_iterations_per_s"] = round(compiled, 1)
        benchmark.extra_info["speedup"] = round(compiled / pure, 1)


def bot_rate(name: str, view: View, iterations: int) -> float:
    """Iterations per second of bot ``name``'s own search setup (determinizer and parameters) on
    ``view``, the determinizer built once, as in a game (its belief is computed once a search)."""
    import bots

    bot = bots.make(view.game, name, seat=view.seat, rng=0)
    det = bot.determinizer(view)  # type: ignore[attr-defined]
    start = time.perf_counter()
    run_search(det, view.seat, Budget(iterations=iterations), SplitMix64(0), bot.params)  # type: ignore[attr-defined]
    return iterations / (time.perf_counter() - start)


@pytest.mark.parametrize("role", ["detective", "factor"])
def test_ismcts_against_nw2012_iterations(benchmark: Any, role: str) -> None:
    """Equal time turns into iterations: each bot's own search settings (ismcts's Dr. Factor merges
    transpositions and does not filter his moves; nw2012 filters them), on one position,
    interleaved best of three; ``ratio`` = ismcts / nw2012."""
    view = position(role)
    if not kernel_available():
        pytest.skip("the compiled ISMCTS kernel is not built")
    n = ITERATIONS["compiled"] * 4
    result = benchmark(bot_rate, "ismcts", view, n)
    ismcts = nw = 0.0
    for _ in range(3):
        ismcts = max(ismcts, bot_rate("ismcts", view, n))
        nw = max(nw, bot_rate("nw2012", view, n))
    assert result > 0 and ismcts > 0 and nw > 0
    benchmark.extra_info["what"] = f"ismcts vs nw2012 search setups, {n} iterations, 6 players, {role} to act"
    benchmark.extra_info["ismcts_iterations_per_s"] = round(ismcts, 1)
    benchmark.extra_info["nw2012_iterations_per_s"] = round(nw, 1)
    benchmark.extra_info["ratio"] = round(ismcts / nw, 3)
