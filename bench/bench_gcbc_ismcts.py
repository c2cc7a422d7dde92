"""Good Cop Bad Cop ISMCTS speed: iterations per second at 6 players, kernel vs pure reference.

GCBC has no compiled simulator: both searches run the Python rules through :class:`GCBCSim`, so the
kernel only takes the tree bookkeeping off Python and the ratio is expected near 1. It is measured
so that the claim stays honest. The pool of determinized worlds is built before timing (it is
drawn once per search; its cost, about ``worlds`` resamples, is timed apart). Run with
``python -m pytest bench/bench_gcbc_ismcts.py --benchmark-only``.
"""

from __future__ import annotations

from typing import Any

import pytest

import bots
from bots.gcbc.ismcts import GCBCISMCTSBot
from solver.core.rng import SplitMix64
from solver.search.ismcts import Budget, kernel_available, run_search
from tests.gcbc_positions import heuristic_position

ITERATIONS = 100


def _bot_and_view(**options: Any) -> tuple[GCBCISMCTSBot, Any]:
    state = heuristic_position(6, 3, 60, announce=True)
    seat = state.current_player()
    bot = bots.make(state.game, "ismcts", seat=seat, rng=0, **options)
    if not isinstance(bot, GCBCISMCTSBot):
        raise TypeError("gcbc ismcts is not the GCBC bot")
    return bot, state.view(seat)


@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_gcbc_ismcts_iterations(benchmark: Any, engine: str) -> None:
    """Iterations/s of one search from a 6-player announcement (``extra_info['iterations_per_s']``)."""
    if engine == "compiled" and not kernel_available():
        pytest.skip("the compiled ISMCTS kernel is not built")
    bot, view = _bot_and_view()
    det = bot.determinizer(view)
    det.sample(SplitMix64(1))  # fills the pool outside the timing

    def search() -> None:
        run_search(det, view.seat, Budget(iterations=ITERATIONS), SplitMix64(2), bot.params, engine=engine)

    benchmark.pedantic(search, rounds=3, iterations=1)
    benchmark.extra_info["iterations_per_s"] = ITERATIONS / benchmark.stats.stats.mean


def test_gcbc_world_pool(benchmark: Any) -> None:
    """Drawing the pool of determinized worlds from the posterior (once per search)."""
    bot, view = _bot_and_view()

    def pool() -> None:
        bot.determinizer(view).sample(SplitMix64(3))

    benchmark.pedantic(pool, rounds=3, iterations=1)
