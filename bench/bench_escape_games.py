"""Escape Plan speed: whole random games, and move generation per call.

* ``random game``: one uniformly random game to the end (chance by its probabilities), at 2, 3 and 5
  players; games per second is the inverse.
* ``legal actions``: ``State.legal_actions`` at the decision states of seeded random 3-player games,
  in turn (the Travel step's options, placements, visits and executive windows among them).
* ``apply``: one decision applied to a clone (the clone's cost is reported alone as ``clone``).

    python -m pytest bench/bench_escape_games.py --benchmark-only
    python bench/bench_escape_games.py             # per call and games per second, no pytest
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from solver.core import CHANCE
from solver.core.referee import draw_chance
from solver.games import load
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

GAMES: dict[int, EscapeGame] = {n: load("escape", players=n) for n in (2, 3, 5)}  # type: ignore[misc]


def random_game(players: int, seed: int) -> EscapeState:
    """One seeded random game to its end."""
    rng = np.random.default_rng(seed)
    st = GAMES[players].new_initial_state()
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.apply(draw_chance(st, rng))
        else:
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
    return st


def decision_states(players: int = 3, games: int = 4, every: int = 5) -> list[EscapeState]:
    """Every ``every``-th decision state of seeded random games (clones)."""
    out: list[EscapeState] = []
    for seed in range(games):
        rng = np.random.default_rng(1000 + seed)
        st = GAMES[players].new_initial_state()
        seen = 0
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply(draw_chance(st, rng))
                continue
            if seen % every == 0:
                out.append(st.clone())
            seen += 1
            legal = st.legal_actions()
            st.apply(legal[int(rng.integers(len(legal)))])
    return out


STATES = decision_states()
CYCLE = itertools.cycle(STATES)
SEEDS = itertools.count()


def legal() -> int:
    return len(next(CYCLE).legal_actions())


def clone() -> EscapeState:
    return next(CYCLE).clone()


def apply_one() -> EscapeState:
    st = next(CYCLE).clone()
    st.apply(st.legal_actions()[0])
    return st


def game(players: int) -> EscapeState:
    return random_game(players, next(SEEDS))


def test_random_game_2p(benchmark: Any) -> None:
    assert benchmark(game, 2).is_terminal()


def test_random_game_3p(benchmark: Any) -> None:
    assert benchmark(game, 3).is_terminal()


def test_random_game_5p(benchmark: Any) -> None:
    assert benchmark(game, 5).is_terminal()


def test_legal_actions(benchmark: Any) -> None:
    assert benchmark(legal) > 0


def test_clone(benchmark: Any) -> None:
    assert benchmark(clone) is not None


def test_apply(benchmark: Any) -> None:
    assert benchmark(apply_one) is not None


if __name__ == "__main__":
    for players in (2, 3, 5):
        t0 = time.perf_counter()
        n = 20
        for seed in range(n):
            random_game(players, seed)
        took = time.perf_counter() - t0
        print(f"random game {players}p: {1000 * took / n:8.1f} ms  ({n / took:.1f} games/s)")
    for name, fn, n in (("legal actions", legal, 3000), ("clone", clone, 3000),
                        ("apply (with clone)", apply_one, 3000)):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        print(f"{name:22s} {1e6 * (time.perf_counter() - t0) / n:8.1f} us  ({len(STATES)} states in turn)")
