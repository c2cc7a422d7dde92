"""Location-tracker speed: one update, compiled against pure Python, and possible_locations.

One update is a Python call into a tracker: ``factor_move`` with a joker (all four lines) on a
large set with five detective stops blocked, or ``strike`` of one stop. Target: at most 1 µs per
update compiled. Updates change the tracker, so each timed round runs one update on each of
``BATCH`` fresh copies made before the clock starts; ns per update is the round's time / BATCH
(the loop's own cost, ~20-30 ns, is included).

    python -m pytest bench/bench_belief.py --benchmark-only    # pytest-benchmark table
    python bench/bench_belief.py                               # ns per update and the ratio

The ratio test times both twins in one run, so the compiled/pure ratio compares like with like.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solver.games
from bench.bench_police07 import mid_game
from solver._accel import load_ext
from solver.belief.categories import category_weights
from solver.belief.location_filter import filtered_belief
from solver.games.police07.bitsets import ALL_LINES, LocationTracker, stop_mask
from solver.games.police07.locations import possible_locations

BATCH = 2000
DETECTIVES = (13, 50, 91, 120, 155)  # five stops blocked, as in a six-player game
START = 100


def tracker_classes() -> dict[str, Any]:
    """Kernel name -> tracker class (the compiled one only when built and not switched off)."""
    classes: dict[str, Any] = {"python": LocationTracker}
    ext = load_ext("p07belief")
    if ext is not None:
        classes["compiled"] = ext.LocationTracker
    return classes


def large_tracker(cls: Any) -> Any:
    """A tracker three hidden jokers away from stop 100: about 80 possible stops."""
    tracker = cls(solver.games.load("police07").board)
    tracker.reset(START)
    for _ in range(3):
        tracker.factor_move(ALL_LINES, stop_mask(DETECTIVES))
    return tracker


UPDATES: dict[str, Callable[[Any, int], Any]] = {
    "joker": lambda t, blocked: t.factor_move(ALL_LINES, blocked),
    "strike": lambda t, blocked: t.strike(DETECTIVES[0] + 1),
}


def run_batch(update: str, copies: list[Any], blocked: int) -> None:
    """One update on every copy (the timed part)."""
    if update == "joker":
        for t in copies:
            t.factor_move(ALL_LINES, blocked)
    else:
        stop = DETECTIVES[0] + 1
        for t in copies:
            t.strike(stop)


def ns_per_update(cls: Any, update: str, rounds: int = 15) -> float:
    """Best of ``rounds`` batches, in ns per update."""
    base = large_tracker(cls)
    blocked = stop_mask(DETECTIVES)
    best = float("inf")
    for _ in range(rounds):
        copies = [base.copy() for _ in range(BATCH)]
        start = time.perf_counter_ns()
        run_batch(update, copies, blocked)
        best = min(best, (time.perf_counter_ns() - start) / BATCH)
    return best


@pytest.mark.parametrize("update", list(UPDATES))
@pytest.mark.parametrize("kernel", ["python", "compiled"])
def test_update(benchmark: Any, kernel: str, update: str) -> None:
    classes = tracker_classes()
    if kernel not in classes:
        pytest.skip("compiled kernels not built or COPSOLVER_PUREPYTHON=1")
    base = large_tracker(classes[kernel])
    blocked = stop_mask(DETECTIVES)

    def setup() -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (update, [base.copy() for _ in range(BATCH)], blocked), {}

    benchmark.pedantic(run_batch, setup=setup, rounds=30, iterations=1)
    benchmark.extra_info["what"] = f"{kernel} {update} update on a set of {base.count()} stops"
    benchmark.extra_info["ns_per_update"] = round(benchmark.stats.stats.mean / BATCH * 1e9, 1)


def test_update_ratio(benchmark: Any) -> None:
    """Both twins in one run: ns per update each and the pure/compiled ratio."""
    classes = tracker_classes()
    if "compiled" not in classes:
        pytest.skip("compiled kernels not built or COPSOLVER_PUREPYTHON=1")
    table = ratio_table()
    benchmark.pedantic(run_batch, setup=lambda: (("strike", [large_tracker(classes["compiled"])], 0), {}),
                       rounds=1, iterations=1)
    benchmark.extra_info.update(table)


def ratio_table() -> dict[str, float]:
    """ns per update of each twin and the ratio, for each update."""
    classes = tracker_classes()
    out: dict[str, float] = {}
    for update in UPDATES:
        pure = ns_per_update(classes["python"], update)
        out[f"{update}_python_ns"] = round(pure, 1)
        if "compiled" in classes:
            fast = ns_per_update(classes["compiled"], update)
            out[f"{update}_compiled_ns"] = round(fast, 1)
            out[f"{update}_ratio"] = round(pure / fast, 1)
    return out


@pytest.mark.parametrize("config", [{"players": 2}, {"players": 4}], ids=["2p", "4p"])
def test_possible_locations(benchmark: Any, config: dict[str, Any]) -> None:
    game = solver.games.load("police07", **config)
    state = mid_game(game, moves=12)
    view = state.view(state.current_player()).to_json()
    stops = benchmark(possible_locations, game, view)
    benchmark.extra_info["set_size"] = len(stops)
    benchmark.extra_info["what"] = "possible_locations from a mid-game detective view (view text parsed)"
    benchmark.extra_info["compiled_tracker"] = load_ext("p07belief") is not None


@pytest.mark.parametrize("belief", ["filter", "categories"])
def test_location_belief(benchmark: Any, belief: str) -> None:
    """The weights a detective search draws Dr. Factor's stop from, 4 players after his 12th move:
    the location filter (his moves followed with the learnt model) or the location categories."""
    game = solver.games.load("police07", players=4)
    state = mid_game(game, moves=12)
    view = state.view(state.current_player()).to_json()
    weigh = filtered_belief if belief == "filter" else category_weights
    probs = benchmark(weigh, game, view)
    benchmark.extra_info["set_size"] = len(probs)
    benchmark.extra_info["what"] = f"{belief} belief from a mid-game detective view (view text parsed)"


def main() -> None:
    """Print ns per update for both twins and the ratio, and possible_locations per call."""
    size = large_tracker(LocationTracker).count()
    print(f"one update on a set of {size} stops, {len(DETECTIVES)} detective stops blocked")
    for key, value in ratio_table().items():
        print(f"  {key:22s} {value:10.1f}")
    for players in (2, 4):
        game = solver.games.load("police07", players=players)
        state = mid_game(game, moves=12)
        view = state.view(state.current_player()).to_json()
        n = 2000
        start = time.perf_counter_ns()
        for _ in range(n):
            stops = possible_locations(game, view)
        each = (time.perf_counter_ns() - start) / n / 1000
        print(f"  possible_locations {players}p mid-game ({len(stops)} stops): {each:.1f} µs")
        for name, weigh in (("filtered_belief", filtered_belief), ("category_weights", category_weights)):
            start = time.perf_counter_ns()
            for _ in range(200):
                weigh(game, view)
            print(f"  {name} {players}p mid-game: {(time.perf_counter_ns() - start) / 200 / 1e6:.2f} ms")


if __name__ == "__main__":
    main()
