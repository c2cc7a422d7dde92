"""Good Cop Bad Cop rules speed: random playouts, a replayed history and one step, compiled and pure.

Run with ``python -m pytest bench/bench_gcbc_sim.py --benchmark-only``. Every benchmark runs the
Python rules (``GCBCState`` through :class:`solver.search.sim.StateSim`, the generic simulator a
search uses without the kernel) and the compiled ``GCBCRulesSim`` (``ext/gcbc_sim.pyx``) on the same
position in the same run; once both have run, the compiled/pure ratio goes into the compiled row's
``extra_info`` and is printed. On a shared machine add ``--benchmark-timer=time.process_time``.

The position is fixed: a six-player rulebook game played 120 actions in by a seeded card-biased
random policy (uniform, but a play rather than ``pass`` half the time), then played to the end by
each engine's uniform default policy (chance by its probabilities) drawing from its own SplitMix64.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.gcbc import codec
from solver.games.gcbc.rules import GCBCGame, GCBCState
from solver.search.sim import StateSim

ENGINES = ["pure", "compiled"]


def _compiled() -> Any:
    try:
        return importlib.import_module("solver._ext.gcbc_sim")
    except ImportError:
        return None


COMPILED = _compiled()
#: (benchmark name) -> engine -> calls per second, for the ratio
RATES: dict[str, dict[str, float]] = {}
RATIO_LINES: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _print_ratios(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    if reporter is None or capture is None or not RATIO_LINES:
        return
    with capture.global_and_fixture_disabled():  # teardown output is captured otherwise
        reporter.write_line("")
        for line in RATIO_LINES:
            reporter.write_line(line)


def mid_game(players: int = 6, deck: str = "rulebook", seed: int = 0, actions: int = 120) -> GCBCState:
    """A decision ``actions`` actions into a seeded card-biased random game (the first seed from
    ``seed`` whose game lasts that long)."""
    game = GCBCGame(players, deck)
    for attempt in range(1000):
        rng = np.random.default_rng(seed + attempt)
        state = game.new_initial_state()
        while not state.is_terminal():
            if len(state.history) >= actions and state.current_player() >= 0:
                return state
            if state.current_player() == CHANCE:
                outcomes = state.chance_outcomes()
                state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and legal[0] == codec.PASS and rng.random() < 0.5:
                state.apply(legal[1 + int(rng.integers(len(legal) - 1))])
            else:
                state.apply(legal[int(rng.integers(len(legal)))])
    raise RuntimeError(f"no seed reaches action {actions}")


def make(engine: str, state: GCBCState) -> Any:
    """The engine's simulator of ``state``."""
    if engine == "compiled":
        if COMPILED is None:
            pytest.skip("solver._ext.gcbc_sim is not built (pip install -e . needs Cython and a C compiler)")
        return COMPILED.GCBCRulesSim.from_actions(state.game, state.history)
    return StateSim(state.clone())


def record(benchmark: Any, name: str, engine: str, unit: str) -> float:
    """Note the rate in ``extra_info``; with both engines done, the compiled/pure ratio too."""
    mean = benchmark.stats.stats.mean
    rate = 1.0 / mean if mean else 0.0
    benchmark.extra_info["engine"] = engine
    benchmark.extra_info[unit] = round(rate, 1)
    benchmark.extra_info["us_per_call"] = round(1e6 * mean, 2)
    rates = RATES.setdefault(name, {})
    rates[engine] = rate
    if len(rates) == 2 and rates["pure"] > 0:
        ratio = rates["compiled"] / rates["pure"]
        benchmark.extra_info["compiled_over_pure"] = round(ratio, 1)
        RATIO_LINES.append(
            f"gcbc_sim {name}: compiled {1e6 / rates['compiled']:,.1f} us, "
            f"pure {1e6 / rates['pure']:,.1f} us a call; ratio {ratio:,.1f}x"
        )
    return rate


def playout(sim: Any, rng: SplitMix64) -> int:
    """Play the default policy to the end through the Sim protocol; return the plies."""
    plies = 0
    while not sim.is_terminal():
        sim.apply(sim.default_action(rng))
        plies += 1
    return plies


@pytest.mark.parametrize("engine", ENGINES)
def test_random_playout(benchmark: Any, engine: str) -> None:
    """One uniform random playout from the fixed mid-game state (a copy included)."""
    root = make(engine, mid_game())
    rng = SplitMix64(1)
    if engine == "compiled":
        def one() -> None:
            root.copy().playout(rng)  # the whole playout in one nogil loop
    else:
        def one() -> None:
            playout(root.copy(), rng)

    benchmark(one)
    counter = SplitMix64(7)
    plies = sum(playout(root.copy(), counter) for _ in range(50)) / 50
    benchmark.extra_info["plies_per_playout"] = round(plies, 1)
    record(benchmark, "random playout (6p rulebook, from action 120)", engine, "playouts_per_s")


@pytest.mark.parametrize("engine", ENGINES)
def test_replay_history(benchmark: Any, engine: str) -> None:
    """Rebuild a state from a whole game's history (how the search converts a Python world)."""
    state = mid_game(players=8, actions=400)
    game, history = state.game, list(state.history)
    if engine == "compiled":
        if COMPILED is None:
            pytest.skip("solver._ext.gcbc_sim is not built")
        benchmark(COMPILED.GCBCRulesSim.from_actions, game, history)
    else:
        def replay() -> None:
            st = game.new_initial_state()
            for action in history:
                st.apply_unchecked(action)

        benchmark(replay)
    benchmark.extra_info["actions"] = len(history)
    record(benchmark, f"replay of {len(history)} actions (8p)", engine, "replays_per_s")


@pytest.mark.parametrize("engine", ENGINES)
def test_step(benchmark: Any, engine: str) -> None:
    """copy + legal_actions + apply at the mid-game decision, through the Python API."""
    sim = make(engine, mid_game())

    def step() -> None:
        s = sim.copy()
        s.apply(s.legal_actions()[0])

    benchmark(step)
    record(benchmark, "copy + legal_actions + apply (Python API)", engine, "calls_per_s")
