"""The compiled Precinct learnt value (``ext/precinct_value.pyx``) against solver/search/precinct_value.py.

Seeded games are played with the Python rules, every seat by :func:`bots.precinct.search.heuristic_action`
(in some games a uniformly random legal action now and then, which reaches reveals, accusations and
other boards), chance drawn by its probabilities from a numpy Generator. On every state a C state is
built and the kernel's 49 features and value must equal :func:`~solver.search.precinct_value.features`
and ``ValueModel.value`` (to 1e-12; the port keeps Python's arithmetic, so they are in fact equal).
Doctored copies force what the games seldom hold: a hidden dirty cop with donuts and cards, one
underground after revealing himself (a ``reveal`` record) and one exposed by an accusation, a good cop
cleared by a wrong accusation. The counts of each are asserted, so a case no longer reached fails.

The kernel cannot see the action records (PState omits them), so the seats that revealed themselves are
passed in, from ``precinct_value._self_revealed`` (solver/_ext/precinct_value.pxd: THE GAP). The compiled
module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1`` when it is built;
they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import importlib
import os
import time
from collections import Counter
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.precinct.search import heuristic_action
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.search import precinct_value as pv

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> tuple[ModuleType | None, ModuleType | None]:
    try:
        return (importlib.import_module("solver._ext.precinct_value"),
                importlib.import_module("solver._ext.precinct_state"))
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None, None


value_mod, state_mod = _import_compiled()
pytestmark = pytest.mark.skipif(
    value_mod is None or state_mod is None,
    reason="solver._ext.precinct_value is not built (pip install -e . needs Cython and a C compiler)",
)

#: (game options, seed, the share of decisions played by a random legal action)
GAMES: tuple[tuple[dict[str, Any], int, float], ...] = (
    ({"players": 4}, 1, 0.0),
    ({"players": 4}, 2, 0.2),
    ({"players": 4, "dirty_cop": True}, 3, 0.0),
    ({"players": 4, "dirty_cop": True}, 4, 0.2),
    ({"players": 5}, 5, 0.0),
    ({"players": 5, "dirty_cop": True}, 6, 0.0),
    ({"players": 5, "dirty_cop": True}, 7, 0.2),
    ({"players": 6, "dirty_cop": True, "dirty_cops": 2}, 8, 0.0),
    ({"players": 6, "dirty_cop": True, "dirty_cops": 2}, 9, 0.2),
    ({"players": 3, "dirty_cop": True}, 10, 0.1),
)
#: states of each kind checked at least this often (about half the counts when this was written): the
#: games' own states (heuristic dirty cops reveal themselves, nobody gathers the donuts to accuse) and
#: the doctored copies (prefix "doctored "), which bring the exposed and cleared seats
MINIMUM = {"states": 3200, "dirty games": 2200, "terminal": 8, "murderer in": 1800, "hidden": 1700,
           "two hidden": 400, "underground": 600, "self revealed": 600, "soon": 1700,
           "doctored states": 1100, "doctored hidden": 500, "doctored two hidden": 80,
           "doctored underground": 800, "doctored exposed": 340, "doctored self revealed": 480,
           "doctored cleared": 450}

I_HIDDEN, I_UNDER, I_EXPOSED, I_SOON, I_CLEARED = (pv.NAMES.index(n) for n in (
    "dirty_hidden", "dirty_underground", "dirty_exposed", "dirty_soon", "good_cleared"))


def _mods() -> tuple[Any, Any]:
    if value_mod is None or state_mod is None:
        raise AssertionError("solver._ext.precinct_value is not built")
    return value_mod, state_mod


def _check(kernel: Any, models: list[tuple[pv.ValueModel, Any]], st: PrecinctState, where: str,
           checked: Counter[str], clock: dict[str, float], tag: str = "") -> None:
    """The C features and values of ``st`` against Python's; counts what ``st`` holds (as ``tag`` + kind)."""
    _, sm = _mods()
    t0 = time.perf_counter()
    want = pv.features(st)
    value = models[0][0].value(st)
    t1 = time.perf_counter()
    shown = pv._self_revealed(st) if any(st.underground) else 0
    cs = sm.PrecinctCState.from_state(st)
    t2 = time.perf_counter()
    got_value = models[0][1].value(cs, shown)
    t3 = time.perf_counter()
    got = kernel.features(cs, shown)
    clock["python"] += t1 - t0
    clock["from_state"] += t2 - t1
    clock["c"] += t3 - t2
    clock["values"] += 1
    for i, name in enumerate(pv.NAMES):
        assert abs(got[i] - want[i]) <= 1e-12, f"{where}: {name} {got[i]!r} != {want[i]!r}"
    assert abs(got_value - value) <= 1e-12, f"{where}: value {got_value!r} != {value!r}"
    checked["bit equal"] += int(got == list(want) and got_value == value)
    for model, cmodel in models[1:]:
        assert abs(cmodel.value(cs, shown) - model.value(st)) <= 1e-12, f"{where}: a prefix model"
    facts = {"states": True, "dirty games": st.game.dirty_cops > 0, "terminal": bool(st.result),
             "murderer in": want[1] > 0, "hidden": want[I_HIDDEN] > 0, "two hidden": want[I_HIDDEN] > 1,
             "underground": want[I_UNDER] > 0, "exposed": want[I_EXPOSED] > 0,
             "self revealed": want[I_UNDER] > want[I_EXPOSED], "cleared": want[I_CLEARED] > 0,
             "soon": want[I_SOON] > 0}
    for kind, holds in facts.items():
        checked[tag + kind] += int(bool(holds))


def _doctored(st: PrecinctState, k: int) -> list[PrecinctState]:
    """Copies of ``st`` with the Dirty Cop's rare cases: the first dirty seat exposed (underground, out,
    no reveal record) or self-revealed (with one), and a good seat cleared by a wrong accusation."""
    out = []
    dirty = [p for p in range(st.n) if st.loyalty[p] and not st.underground[p]]
    if dirty:
        for reveal in (False, True):
            d = st.clone()
            seat = dirty[k % len(dirty)]
            d.revealed[seat] = d.underground[seat] = True
            for cop in d.cops:
                if cop.seat == seat:
                    cop.out = True
                    cop.donuts += reveal
            if reveal:
                d.records.append((seat, "reveal", None, "reveal"))
            out.append(d)
    good = [p for p in range(st.n) if not st.loyalty[p] and not st.revealed[p]]
    if good:
        d = st.clone()
        d.revealed[good[k % len(good)]] = True
        out.append(d)
    return out


def test_features_and_value_equal_python() -> None:
    """Every state of seeded heuristic games, and doctored copies: the same features and value."""
    m, sm = _mods()
    full = pv.load_value()
    # a base-only model (a prefix of the features: the kernel reads only its weights)
    base = pv.ValueModel(pv.BASE, full.weights[: len(pv.BASE)], full.bias)
    checked: Counter[str] = Counter()
    clock = dict.fromkeys(("python", "from_state", "c", "values"), 0.0)
    for config, seed, explore in GAMES:
        game = PrecinctGame(**config)
        kernel = m.PrecinctCValue(game)
        models = [(full, kernel), (base, m.PrecinctCValue(game, base))]
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        stream = SplitMix64(seed)
        steps = 0
        while True:
            where = f"{config} seed {seed} step {steps}"
            _check(kernel, models, st, where, checked, clock)
            if st.is_terminal():
                break
            if steps % 5 == 0 and game.dirty_cops:
                for d in _doctored(st, steps):
                    _check(kernel, models, d, where + " doctored", checked, clock, "doctored ")
            if st.current_player() == CHANCE:
                out = st.chance_outcomes()
                action = int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0])
            elif explore and rng.random() < explore:
                legal = st.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
            else:
                action = heuristic_action(st, stream)
            st.apply_unchecked(action)
            steps += 1
    n = int(clock["values"])
    print(f"\nprecinct value: {dict(sorted(checked.items()))}; per value: python features + value "
          f"{1e6 * clock['python'] / n:.1f} us, C value {1e6 * clock['c'] / n:.2f} us with the call "
          f"(+ from_state {1e6 * clock['from_state'] / n:.1f} us)")
    for kind, least in MINIMUM.items():
        assert checked[kind] >= least, (kind, checked)


def test_value_in_c_alone_and_its_cost() -> None:
    """pv_value in a nogil loop gives the call's value; reports its cost against ValueModel.value."""
    m, sm = _mods()
    game = PrecinctGame(players=4, dirty_cop=True)
    kernel = m.PrecinctCValue(game)
    model = pv.load_value()
    st = game.new_initial_state()
    rng = np.random.default_rng(11)
    stream = SplitMix64(11)
    while st.turn_track < game.content.murderer_turn and not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            st.apply_unchecked(int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0]))
        else:
            st.apply_unchecked(heuristic_action(st, stream))
    assert not st.is_terminal()
    cs = sm.PrecinctCState.from_state(st)
    reps = 20000
    t0 = time.perf_counter()
    for _ in range(2000):
        want = model.value(st)
    t1 = time.perf_counter()
    got = kernel.value_repeat(cs, 0, reps)
    t2 = time.perf_counter()
    assert got == kernel.value(cs, 0)
    assert abs(got - want) <= 1e-12
    print(f"\nprecinct value per call: python {1e6 * (t1 - t0) / 2000:.1f} us, C (nogil loop) "
          f"{1e9 * (t2 - t1) / reps:.0f} ns")
