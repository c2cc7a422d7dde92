"""Police Precinct world draws (the resampler behind ``ismcts``'s pool) and how a timed pool keeps its time.

* ``resample``/``resample, dirty cop``: one world drawn for the seat to move at a fixed mid-game
  position (a seeded 4-player heuristic game at its 30th major decision), without and with the Dirty Cop.
* ``timed pool``: the 4-world pool of a search whose pool may take 20 ms (the first world always drawn).

As a script it also prints the distribution of one draw over many mid-game positions (median, p90,
p99, max: the tail is the replay's backtracking, :mod:`solver.games.precinct.resample`), and with
``--decisions`` the time ``ismcts --seconds S`` takes per major decision, with the pool's draws cut at
its deadline (now) and run to their end (before: ``timed_resampler`` off).

    python -m pytest bench/bench_precinct_resample.py --benchmark-only
    python bench/bench_precinct_resample.py                      # the draw distribution
    python bench/bench_precinct_resample.py --decisions 0.3      # ismcts decision times at 0.3 s
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

import bots.observer_sim as observer_sim
from bots.observer_sim import ObserverSim, PoolDeterminizer
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from tests.precinct_positions import heuristic_position

PLAIN = PrecinctGame(players=4)
DIRTY = PrecinctGame(players=4, dirty_cop=True)


def _view(game: PrecinctGame, seed: int = 1, majors: int = 30) -> Any:
    st = heuristic_position(game, seed, majors)
    return st.view(st.current_player())


VIEWS: dict[bool, Any] = {}


def view_of(dirty: bool) -> Any:
    """The fixed position's view (built once)."""
    if dirty not in VIEWS:
        VIEWS[dirty] = _view(DIRTY if dirty else PLAIN)
    return VIEWS[dirty]


def draw(dirty: bool = False, seed: int = 1) -> Any:
    """One world at the fixed position."""
    game = DIRTY if dirty else PLAIN
    return game.resample(view_of(dirty), np.random.default_rng(seed))


def timed_pool(seconds: float = 0.02, seed: int = 1) -> int:
    """The worlds a 4-world pool with ``seconds`` for its draws holds at the fixed position."""
    view = view_of(False)
    pool: PoolDeterminizer[ObserverSim] = PoolDeterminizer(PLAIN, view, None, 4, None, ObserverSim)
    end = time.perf_counter() + seconds
    pool.pool_full = lambda: time.perf_counter() >= end
    pool.sample(SplitMix64(seed))
    return len(pool.pool)


def test_resample(benchmark: Any) -> None:
    assert benchmark(draw, False).view(view_of(False).seat) == view_of(False)


def test_resample_dirty(benchmark: Any) -> None:
    assert benchmark(draw, True).view(view_of(True).seat) == view_of(True)


def test_timed_pool(benchmark: Any) -> None:
    assert 1 <= benchmark(timed_pool) <= 4


def _summary(name: str, times: list[float]) -> str:
    t = np.array(times) * 1000
    return (f"{name:28s} n={len(t):4d} median {np.median(t):7.1f} ms  p90 {np.percentile(t, 90):7.1f}  "
            f"p99 {np.percentile(t, 99):7.1f}  max {t.max():7.1f}")


def distribution(seeds: int, draws: int, majors: tuple[int, ...]) -> None:
    """Print one draw's time over ``seeds`` x ``majors`` positions, ``draws`` draws each."""
    for dirty in (False, True):
        game = DIRTY if dirty else PLAIN
        times: list[float] = []
        for seed in range(seeds):
            for m in majors:
                try:
                    view = _view(game, seed, m)
                except AssertionError:  # the game ended first
                    continue
                for k in range(draws):
                    start = time.perf_counter()
                    game.resample(view, np.random.default_rng(k))
                    times.append(time.perf_counter() - start)
        print(_summary("draw, dirty cop" if dirty else "draw", times))


def decisions(seconds: float, seeds: int, majors: tuple[int, ...]) -> None:
    """Print ``ismcts --seconds`` decision times at major decisions, the pool's draws cut or not."""
    from bots.precinct.ismcts import PrecinctISMCTSBot

    real = observer_sim.timed_resampler
    for label, cut in (("draws run to the end (before)", False), ("draws cut at the deadline", True)):
        observer_sim.timed_resampler = real if cut else (lambda game: None)  # type: ignore[assignment]
        for dirty in (False, True):
            game = DIRTY if dirty else PLAIN
            times: list[float] = []
            for seed in range(seeds):
                for m in majors:
                    try:
                        st = heuristic_position(game, seed, m)
                    except AssertionError:
                        continue
                    seat = st.current_player()
                    bot = PrecinctISMCTSBot(game, seat, np.random.default_rng(seed), seconds=seconds)
                    start = time.perf_counter()
                    bot.step(st.view(seat))
                    times.append(time.perf_counter() - start)
            over = sum(t > 1.1 * seconds for t in times)  # a few ms over is the search's own end
            print(_summary(f"{'dirty ' if dirty else ''}{label}", times) + f"  over +10%: {over}")
    observer_sim.timed_resampler = real


def main() -> None:
    """Command line (module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--majors", type=int, nargs="+", default=[10, 20, 30, 40, 50, 60])
    parser.add_argument("--decisions", type=float, default=None, metavar="SECONDS",
                        help="time ismcts decisions at this budget instead of single draws")
    args = parser.parse_args()
    if args.decisions is not None:
        decisions(args.decisions, args.seeds, tuple(args.majors))
    else:
        distribution(args.seeds, args.draws, tuple(args.majors))


if __name__ == "__main__":
    main()
