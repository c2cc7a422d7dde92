"""Police Precinct's compiled simulator against its pure twin, as ratios in one run.

* ``playout``: a 4-turn heuristic playout below the search tree from mid-game states: the kernel's
  nogil loop (``solver._ext.precinct_playout``, from a copy of the C state each time) against
  ``PrecinctSim``'s (a clone, ``prepare()``, then the heuristic and the chance walk step by step).
* ``value``: the learnt value of a state, ``solver._ext.precinct_value`` against
  :meth:`solver.search.precinct_value.ValueModel.value`.

The ``ismcts`` bot's sim plays its lines with the compiled playout (``PrecinctSim.rollout``);
``bench/bench_precinct_search.py`` times the whole search.

    python -m pytest bench/bench_precinct_kernel.py --benchmark-only
    python bench/bench_precinct_kernel.py          # the ratios, no pytest
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the repository importable as under pytest
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bots.precinct.search import PrecinctSim, heuristic_action
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.search.precinct_value import load_value

GAME = PrecinctGame(players=4)
HORIZON = 4
SEED = 17


def roots(seed: int = 3, every: int = 90) -> list[PrecinctState]:
    """Mid-game states of a seeded heuristic game, one every ``every`` actions."""
    st = GAME.new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    out: list[PrecinctState] = []
    steps = 0
    while not st.is_terminal():
        if st.turns and steps % every == 0:
            out.append(st.clone())
        if st.current_player() == CHANCE:
            outcomes = st.chance_outcomes()
            st.apply_unchecked(outcomes[int(rng.choice(len(outcomes), p=[p for _, p in outcomes]))][0])
        else:
            st.apply_unchecked(heuristic_action(st, ties))
        steps += 1
    return out


ROOTS = roots()


def python_playout(st: PrecinctState) -> int:
    """PrecinctSim's 4-turn playout from a clone of ``st``: the actions played."""
    sim = PrecinctSim(st.clone(), horizon=HORIZON)
    sim.prepare()
    rng = SplitMix64(SEED)
    n = 0
    while not sim.is_terminal():
        sim.apply(sim.default_action(rng))
        n += 1
    return n


def kernel() -> tuple[Any, Any, Any] | None:
    """The compiled modules (playout, state, value), or None when they are not built."""
    try:
        from solver._ext import precinct_playout, precinct_state, precinct_value
    except ImportError:
        return None
    return precinct_playout, precinct_state, precinct_value


def ratios(repeat: int = 20) -> dict[str, float]:
    """Seconds per playout and per value, pure and compiled, over :data:`ROOTS`."""
    mods = kernel()
    if mods is None:
        raise SystemExit("the compiled kernels are not built")
    playout, state, value = mods
    cplay = playout.PrecinctCPlayout(GAME)
    cvalue = value.PrecinctCValue(GAME)
    model = load_value()
    py = c = py_v = c_v = 0.0
    for root in ROOTS:
        cs = state.PrecinctCState.from_state(root)
        seconds, _ = cplay.time(cs, SEED, HORIZON, repeat)
        c += seconds / repeat
        start = time.perf_counter()
        for _ in range(repeat):
            python_playout(root)
        py += (time.perf_counter() - start) / repeat
        start = time.perf_counter()
        for _ in range(repeat):
            model.value(root)
        py_v += (time.perf_counter() - start) / repeat
        start = time.perf_counter()
        cvalue.value_repeat(cs, 0, repeat)
        c_v += (time.perf_counter() - start) / repeat
    n = len(ROOTS)
    return {"playout_pure": py / n, "playout_compiled": c / n,
            "value_pure": py_v / n, "value_compiled": c_v / n}


def test_playout_pure(benchmark: Any) -> None:
    benchmark(python_playout, ROOTS[len(ROOTS) // 2])


def test_playout_compiled(benchmark: Any) -> None:
    mods = kernel()
    if mods is None:
        import pytest

        pytest.skip("the compiled kernels are not built")
    playout, state, _ = mods
    cplay = playout.PrecinctCPlayout(GAME)
    cs = state.PrecinctCState.from_state(ROOTS[len(ROOTS) // 2])
    benchmark(cplay.time, cs, SEED, HORIZON, 1)


if __name__ == "__main__":
    r = ratios()
    ratio = r["playout_pure"] / r["playout_compiled"]
    print(f"4-turn playout over {len(ROOTS)} mid-game roots: pure {1e3 * r['playout_pure']:.2f} ms, "
          f"compiled {1e3 * r['playout_compiled']:.3f} ms, ratio {ratio:.0f}")
    print(f"value: pure {1e6 * r['value_pure']:.1f} us, compiled {1e6 * r['value_compiled']:.2f} us "
          f"(called from Python), ratio {r['value_pure'] / r['value_compiled']:.0f}")
