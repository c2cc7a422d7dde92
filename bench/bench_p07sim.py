"""Police 07 simulator speed: playouts, a single step and a determinization, compiled and pure.

Run with ``python -m pytest bench/bench_p07sim.py --benchmark-only``. Every benchmark runs the pure
twin and the compiled one on the same position in the same run; once both have run, the
compiled/pure ratio goes into the compiled row's ``extra_info`` and is printed. The target of the
issue is at least 100,000 random playouts a second, compiled, from the position just after set-up
of a six-player game (``extra_info["target"]`` and ``["meets_target"]``). On a shared machine add
``--benchmark-timer=time.process_time`` so other processes do not count against us.

Positions are built from fixed seeds, and each benchmark draws from its own SplitMix64, so runs
compare like with like.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core.rng import SplitMix64
from solver.games.police07.sim import Chase, P07Determinizer, P07Sim, SimTables

ENGINES = ["pure", "compiled"]
TARGET_PLAYOUTS_PER_S = 100_000


def _compiled() -> Any:
    try:
        return importlib.import_module("solver._ext.p07sim")
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


def game_root(players: int = 6, seed: int = 0) -> Any:
    """The state just after set-up (start cards dealt by a seeded generator)."""
    game = solver.games.load("police07", players=players)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while state.phase == 0:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return state


def mid_game(players: int = 6, seed: int = 0, factor_moves: int = 10) -> Any:
    """A detective's decision after Dr. Factor's ``factor_moves``-th move (random play)."""
    for attempt in range(1000):
        rng = np.random.default_rng(seed + attempt)
        state = game_root(players, seed + attempt)
        while not state.is_terminal():
            if state.current_player() > 0 and len(state.log) >= factor_moves:
                return state
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
    raise RuntimeError(f"no seed reaches move {factor_moves}")


def make(engine: str, state: Any, tables: SimTables) -> Any:
    if engine == "compiled":
        if COMPILED is None:
            pytest.skip("solver._ext.p07sim is not built (pip install -e . needs Cython and a C compiler)")
        return COMPILED.P07Sim.from_state(state, tables)
    return P07Sim.from_state(state, tables)


def plies_per_playout(root: Any, n: int = 200) -> float:
    rng = SplitMix64(12345)
    total = 0
    for _ in range(n):
        sim = root.copy()
        while not sim.is_terminal():
            sim.apply(sim.default_action(rng))
            total += 1
    return total / n


def record(benchmark: Any, name: str, engine: str, unit: str) -> float:
    """Note the rate in ``extra_info``; with both engines done, the compiled/pure ratio too."""
    mean = benchmark.stats.stats.mean
    rate = 1.0 / mean if mean else 0.0
    benchmark.extra_info["engine"] = engine
    benchmark.extra_info[unit] = round(rate, 1)
    rates = RATES.setdefault(name, {})
    rates[engine] = rate
    if len(rates) == 2 and rates["pure"] > 0:
        ratio = rates["compiled"] / rates["pure"]
        benchmark.extra_info["compiled_over_pure"] = round(ratio, 1)
        RATIO_LINES.append(
            f"p07sim {name}: compiled {rates['compiled']:,.0f} {unit}, pure {rates['pure']:,.0f}, "
            f"ratio {ratio:,.1f}x"
        )
    return rate


def bench_playouts(benchmark: Any, engine: str, name: str, tables: SimTables) -> float:
    root = make(engine, game_root(), tables)
    rng = SplitMix64(1)

    def one() -> None:
        root.copy().playout(rng)

    benchmark(one)
    plies = plies_per_playout(root)
    rate = record(benchmark, name, engine, "playouts_per_s")
    benchmark.extra_info["plies_per_playout"] = round(plies, 1)
    benchmark.extra_info["ns_per_ply"] = round(1e9 / (rate * plies), 1) if rate else None
    return rate


@pytest.mark.parametrize("engine", ENGINES)
def test_random_playouts(benchmark: Any, engine: str) -> None:
    """ε = 1 (uniform among candidates), no move filter: the issue's headline number."""
    tables = SimTables.build(solver.games.load("police07", players=6), epsilon=1.0,
                             filter_factor_moves=False)
    rate = bench_playouts(benchmark, engine, "random playouts (6p, from set-up)", tables)
    if engine == "compiled":
        benchmark.extra_info["target"] = TARGET_PLAYOUTS_PER_S
        benchmark.extra_info["meets_target"] = rate >= TARGET_PLAYOUTS_PER_S
        RATIO_LINES.append(
            f"p07sim random playouts: {rate:,.0f}/s compiled against a target of {TARGET_PLAYOUTS_PER_S:,}/s "
            f"({'met' if rate >= TARGET_PLAYOUTS_PER_S else 'NOT met'})"
        )


@pytest.mark.parametrize("chase", ["true", "belief"])
@pytest.mark.parametrize("engine", ENGINES)
def test_greedy_playouts(benchmark: Any, engine: str, chase: Chase) -> None:
    """The default ε-greedy policy (ε = 0.1, move filter on), detectives chasing ``chase``."""
    tables = SimTables.build(solver.games.load("police07", players=6), chase=chase)
    bench_playouts(benchmark, engine, f"greedy playouts, chase={chase} (6p)", tables)


@pytest.mark.parametrize("engine", ENGINES)
def test_step(benchmark: Any, engine: str) -> None:
    """copy + legal_actions + apply at a mid-game detective decision, through the Python API
    (the compiled per-ply cost inside a playout is ``ns_per_ply`` above)."""
    state = mid_game()
    sim = make(engine, state, SimTables.build(state.game))

    def step() -> None:
        s = sim.copy()
        s.apply(s.legal_actions()[0])

    benchmark(step)
    record(benchmark, "copy + legal_actions + apply (Python API)", engine, "calls_per_s")


@pytest.mark.parametrize("engine", ENGINES)
def test_determinize(benchmark: Any, engine: str) -> None:
    """One determinization from a mid-game detective view (a copy and a drawn stop)."""
    state = mid_game()
    game = state.game
    tables = SimTables.build(game)
    view = state.view(state.current_player())
    if engine == "compiled":
        if COMPILED is None:
            pytest.skip("solver._ext.p07sim is not built")
        det: Any = COMPILED.P07Determinizer(game, view, tables)
    else:
        det = P07Determinizer(game, view, tables)
    rng = SplitMix64(2)
    benchmark(det.sample, rng)
    record(benchmark, "determinizer sample", engine, "calls_per_s")
