"""LineUp planner speed: one plan solve, and one playout of two planner bots (plan already solved).

* ``solve``: :class:`~solver.plan.lineup_plan.Plan` for the shipped board and decks at memory
  ``adult`` (enumerate ~168k states, value iteration to 1e-12).
* ``exact P(correct)``: one :func:`~solver.belief.lineup_memory.p_correct` table (every lineup
  size) at a retention not cached yet.
* ``playout``: a seeded 2-player game of two ``planner`` bots (adult), chance drawn by a generator.

    python -m pytest bench/bench_lineup.py --benchmark-only
    python bench/bench_lineup.py                  # seconds per call, no pytest
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots
from solver.belief.lineup_memory import p_correct
from solver.core import make_rng, spawn
from solver.core.referee import play_out
from solver.games import load
from solver.plan.lineup_plan import Plan, cached_plan

GAME = load("lineup", players=2)
_fresh = itertools.count(1)


def solve() -> Plan:
    """A fresh plan solve (not the process cache)."""
    return Plan(GAME, "adult")


def exact_table() -> float:
    """P(correct) at a retention never asked before (so the enumeration runs)."""
    s = 0.5 + next(_fresh) * 1e-7
    return p_correct(GAME.suspects, "bakery", s, 4)


def playout(seed: int = 1) -> Any:
    """One game of two adult planner bots."""
    state = GAME.new_initial_state()
    rngs = spawn(make_rng(seed), 3)
    seats = [bots.make(GAME, "planner", seat=s, rng=rngs[s], memory="adult") for s in range(2)]
    for s, bot in enumerate(seats):
        bot.restart(state.view(s))
    return play_out(state, lambda st, seat: seats[seat].step(st.view(seat)), rngs[2])


def test_plan_solve(benchmark: Any) -> None:
    plan = benchmark.pedantic(solve, rounds=3, iterations=1)
    assert plan.value(plan.start()) > 0


def test_exact_p_correct(benchmark: Any) -> None:
    assert 0 < benchmark(exact_table) <= 1


def test_planner_playout(benchmark: Any) -> None:
    cached_plan(GAME, "adult")  # solved once, outside the timing
    state = benchmark(playout)
    assert state.is_terminal()


if __name__ == "__main__":
    for name, fn, n in (("solve", solve, 2), ("exact P(correct)", exact_table, 20), ("playout", playout, 20)):
        fn()  # warm up (the playout's plan solve)
        start = time.perf_counter()
        for _ in range(n):
            fn()
        print(f"{name:18s} {(time.perf_counter() - start) / n * 1000:9.1f} ms")
