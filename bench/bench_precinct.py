"""Police Precinct simulator speed: whole uniformly random games, and one resample of a view.

* ``random game``: a seeded 4-player game (no Dirty Cop) from set-up to its end, every decision
  uniform among the legal actions and chance drawn by its probabilities (the referee's loop).
* ``random game, dirty cop``: the same with the Dirty Cop.
* ``resample``: one world drawn for seat 0 from its view, 120 actions into a seeded game.

    python -m pytest bench/bench_precinct.py --benchmark-only
    python bench/bench_precinct.py                 # games per second, no pytest
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from solver.core import State, make_rng
from solver.core.referee import play_out
from solver.games import load

PLAIN = load("precinct", players=4)
DIRTY = load("precinct", players=4, dirty_cop=True)


def random_game(game: Any = PLAIN, seed: int = 1) -> State:
    """One game played by uniform random decisions."""
    rng = make_rng(seed)

    def act(state: State, seat: int) -> int:
        legal = state.legal_actions()
        return int(legal[int(rng.integers(len(legal)))])

    return play_out(game.new_initial_state(), act, rng)


def _position(steps: int = 120) -> State:
    state = PLAIN.new_initial_state()
    rng = np.random.default_rng(7)
    for _ in range(steps):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.choice(len(outcomes), p=[p for _, p in outcomes]))][0])
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    return state


VIEW = _position().view(0)


def resample(seed: int = 1) -> State:
    """One world consistent with seat 0's view."""
    return PLAIN.resample(VIEW, np.random.default_rng(seed))


def test_random_game(benchmark: Any) -> None:
    assert benchmark(random_game).is_terminal()


def test_random_game_dirty(benchmark: Any) -> None:
    assert benchmark(random_game, DIRTY).is_terminal()


def test_resample(benchmark: Any) -> None:
    assert benchmark(resample).view(0) == VIEW


if __name__ == "__main__":
    for name, fn, n in (("random game", random_game, 200), ("random game, dirty cop",
                        lambda: random_game(DIRTY), 200), ("resample (120 actions)", resample, 50)):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        per = (time.perf_counter() - start) / n
        print(f"{name:24s} {per * 1000:8.2f} ms   {1 / per:8.1f} per second")
