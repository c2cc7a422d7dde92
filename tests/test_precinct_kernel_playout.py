"""The compiled search playout (``ext/precinct_playout.pyx``) against PrecinctSim's, from mid-game states.

Seeded games are played with the Python rules (the heuristic for every seat, chance from a numpy
Generator). From states along them, Python plays PrecinctSim's playout below the tree (a
``PrecinctSim`` of a clone with ``horizon`` H, ``prepare()``, then ``while not sim.is_terminal():
sim.apply(sim.default_action(rng))`` with a SplitMix64): the heuristic for the seat to act
(search.heuristic_action), chance by StateSim.default_action's walk. The kernel plays the same from
``PrecinctCState.from_state`` of the same state with the same SplitMix64 state, in one nogil call.
Both must play the same actions, reach the same final state (``to_core``) and leave the SplitMix64 in
the same state, for horizons 1, 4 and 0 (to the game's end). The numbers of playouts and actions
compared are asserted, and so is that cut lines and finished games both occur.

The compiled modules are imported directly, so this runs even under ``COPSOLVER_PUREPYTHON=1`` when
they are built; it skips when they are not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.precinct.search import PrecinctSim, heuristic_action, turns_begun
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.precinct import tasks
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.search.sim import StateSim

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> tuple[ModuleType | None, ModuleType | None]:
    try:
        return (importlib.import_module("solver._ext.precinct_playout"),
                importlib.import_module("solver._ext.precinct_state"))
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None, None


playout_mod, state_mod = _import_compiled()
pytestmark = pytest.mark.skipif(
    playout_mod is None or state_mod is None,
    reason="solver._ext.precinct_playout is not built (pip install -e . needs Cython and a C compiler)",
)

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "dirty_cop": True},
    {"players": 5, "dirty_cop": True},
    {"players": 2},
]
HORIZONS = (1, 4, 0)
#: a mid-game state every this many actions of a seeded game is a playout's root
EVERY = 90


def _mods() -> tuple[Any, Any]:
    if playout_mod is None or state_mod is None:
        raise AssertionError("solver._ext.precinct_playout is not built")
    return playout_mod, state_mod


def _python_playout(st: PrecinctState, horizon: int, seed: int) -> tuple[list[int], PrecinctState, int]:
    """PrecinctSim's playout from a clone of ``st``: (the actions, the final state, the SplitMix64 state)."""
    sim = PrecinctSim(st.clone(), horizon=horizon)
    sim.prepare()
    rng = SplitMix64(seed)
    actions: list[int] = []
    while not sim.is_terminal():
        action = sim.default_action(rng)
        sim.apply(action)
        actions.append(int(action))
    return actions, sim.state, rng.state


def _roots(config: dict[str, Any], seed: int) -> list[PrecinctState]:
    """Mid-game states of one seeded heuristic game (chance from a numpy Generator)."""
    game = PrecinctGame(**config)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    roots: list[PrecinctState] = []
    steps = 0
    while not st.is_terminal():
        if st.turns and steps % EVERY == 0:
            roots.append(st.clone())
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            action = out[int(rng.choice(len(out), p=[p for _, p in out]))][0]
        else:
            action = heuristic_action(st, ties)
        st.apply_unchecked(action)
        steps += 1
    return roots


def test_playouts_equal_precinct_sim() -> None:
    """From mid-game states (4 players, 4 and 5 with the Dirty Cop, 2 players) and horizons 1, 4 and 0,
    the nogil playout plays PrecinctSim's actions to its final state and SplitMix64 state."""
    m, sm = _mods()
    played = actions = 0
    statuses: Counter[int] = Counter()
    for config in CONFIGS:
        game = PrecinctGame(**config)
        cplay = m.PrecinctCPlayout(game)
        for root in _roots(config, 7):
            for horizon in HORIZONS:
                seed = 1000 * played + horizon + 1
                cs = sm.PrecinctCState.from_state(root)
                assert cplay.turns_begun(cs) == turns_begun(root)
                stop_at = turns_begun(root) + horizon if horizon > 0 else None
                got, got_rng, status = cplay.play(cs, seed, stop_at)
                want, end, want_rng = _python_playout(root, horizon, seed)
                where = f"{config} turn {root.turns} horizon {horizon}"
                assert got == want, where
                assert cs.to_core() == sm.PrecinctCState.from_state(end).to_core(), where
                assert got_rng == want_rng, where
                assert status == (m.END if end.is_terminal() else m.CUT), where
                if horizon > 0 and not end.is_terminal():
                    assert turns_begun(end) == stop_at, where
                statuses[status] += 1
                played += 1
                actions += len(got)
    print(f"\nplayouts {played}, actions {actions}, statuses {dict(statuses)}")
    assert played >= 60, played
    assert actions >= 5000, actions
    assert statuses[m.END] >= 10 and statuses[m.CUT] >= 30, statuses


def test_chance_walk_is_state_sims() -> None:
    """The Python side's chance draw is StateSim.default_action's walk over tasks.outcomes (the twin
    the kernel copies), and a heuristic decision: checked on one game's nodes so a change to either
    Python side shows here."""
    root = _roots({"players": 4}, 3)[1]
    sim = PrecinctSim(root.clone(), horizon=2)
    sim.prepare()
    rng, twin = SplitMix64(5), SplitMix64(5)
    chances = 0
    while not sim.is_terminal():
        st = sim.state
        if st.current_player() == CHANCE:
            assert st.chance_outcomes() == tasks.outcomes(st)
            want = StateSim(st).default_action(twin)
            chances += 1
        else:
            want = heuristic_action(st, twin)
        action = sim.default_action(rng)
        assert action == want and rng.state == twin.state
        sim.apply(action)
    assert chances >= 3


def test_the_timing_loop_replays_the_same_line() -> None:
    """``PrecinctCPlayout.time`` (the bench's loop, bench/bench_precinct_kernel.py) replays the very
    line PrecinctSim plays, from a copy each time: its action count is the line's times the repeats."""
    m, sm = _mods()
    runs = 0
    for config in CONFIGS:
        cplay = m.PrecinctCPlayout(PrecinctGame(**config))
        for root in _roots(config, 11)[:2]:
            cs = sm.PrecinctCState.from_state(root)
            _, n = cplay.time(cs, 17, 4, 5)
            got, _, _ = _python_playout(root, 4, 17)
            assert n == 5 * len(got)
            runs += 1
    assert runs >= 6
