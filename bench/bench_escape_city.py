"""Escape Plan city speed: the Travel step's reachable set and placement legality, per call.

* ``reachable``: :func:`~solver.games.escape.city.search_reachable` (no memo) from every Location of
  a seeded full 14-tile stand-in city in turn, at 3 MP, and at 4 MP with a helipad flight and a sewer
  ride (the largest search a Travel with a gas can and two contacts asks for).
* ``reachable memo``: :func:`~solver.games.escape.city.reachable` once the layout has the answer.
* ``layout``: building the movement graph of the full city (once per City phase).
* ``legal placements``: every (cell, rotation) for the last tile on a 13-tile city; ``is legal``: one
  (cell, rotation) check.

    python -m pytest bench/bench_escape_city.py --benchmark-only
    python bench/bench_escape_city.py                  # microseconds per call, no pytest
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

from solver.games.escape.city import (
    City,
    Layout,
    is_legal_placement,
    legal_placements,
    load_city,
    reachable,
    search_reachable,
    start_layout,
)

CITY = load_city()


def full_city(city: City, seed: int = 11) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """A seeded legal 14-tile city as the placements in order (start tiles first)."""
    rng = np.random.default_rng(seed)
    placed = start_layout(city, city.start_tiles[0], 0)
    order = list(placed.items())
    rest = [t for t in range(len(city.tiles)) if t not in city.start_tiles]
    rng.shuffle(rest)
    for t in rest:
        options = legal_placements(city, placed, t)
        cell, k = options[int(rng.integers(len(options)))]
        placed[cell] = (t, k)
        order.append((cell, (t, k)))
    return order


ORDER = full_city(CITY)
PLACED = dict(ORDER)
LAYOUT = Layout.of(CITY, PLACED)
STARTS = itertools.cycle(LAYOUT.locations)
ALMOST = dict(ORDER[:-1])
LAST_CELL, (LAST_TILE, LAST_ROT) = ORDER[-1]


def search_3() -> int:
    return len(search_reachable(LAYOUT, next(STARTS), 3, None, 0, 0))


def search_4_extras() -> int:
    return len(search_reachable(LAYOUT, next(STARTS), 4, None, 1, 1))


def memo() -> int:
    return len(reachable(LAYOUT, LAYOUT.locations[0], 3))


def layout() -> Layout:
    return Layout.of(CITY, PLACED)


def placements() -> int:
    return len(legal_placements(CITY, ALMOST, LAST_TILE))


def is_legal() -> bool:
    return is_legal_placement(CITY, ALMOST, LAST_TILE, LAST_CELL, LAST_ROT)


def test_reachable_3mp(benchmark: Any) -> None:
    assert benchmark(search_3) > 0


def test_reachable_4mp_flight_sewer(benchmark: Any) -> None:
    assert benchmark(search_4_extras) > 0


def test_reachable_memo(benchmark: Any) -> None:
    assert benchmark(memo) > 0


def test_layout_build(benchmark: Any) -> None:
    assert len(benchmark(layout).locations) == len(CITY.locations)


def test_legal_placements(benchmark: Any) -> None:
    assert benchmark(placements) > 0


def test_is_legal_placement(benchmark: Any) -> None:
    assert benchmark(is_legal)


if __name__ == "__main__":
    for name, fn, n in (("reachable 3 MP", search_3, 300),
                        ("reachable 4 MP + flight + sewer", search_4_extras, 100),
                        ("reachable (memo)", memo, 10000), ("layout build", layout, 200),
                        ("legal placements", placements, 1000), ("is legal", is_legal, 20000)):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        print(f"{name}: {(time.perf_counter() - t0) / n * 1e6:.1f} us")
