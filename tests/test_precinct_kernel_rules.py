"""The compiled Precinct rules, part one (``ext/precinct_rules.pyx``), step by step against Python.

Seeded games are played with the Python rules (the heuristic for every seat, a uniformly random legal
action one time in four in half of them, chance drawn by its probabilities from a numpy Generator). At
every state whose head task is a kind the kernel ports, a fresh C state is built from the Python state
and: the C actor, legal actions and chance outcomes must equal Python's; the same action is applied to
both; the C state after the action must equal, field for field, the Python state after the same
action. When the kernel's run stops in front of a task kind it does not port yet, the Python side is
compared at the same point: its handler is applied and its bookkeeping run by :func:`_python_apply`,
which is ``tasks.apply`` with ``tasks.run`` stopping in front of the same kinds (the handlers are the
rules' own, looked up in the registry). The counts of checked steps per kind are asserted, so a kind
that silently stops being exercised fails the test.

The compiled module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when it is built; they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.precinct.search import heuristic_action
from solver.core import CHANCE, BadStateError
from solver.core.rng import SplitMix64
from solver.games.precinct import common, tasks, turn
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> tuple[ModuleType | None, ModuleType | None]:
    try:
        return (importlib.import_module("solver._ext.precinct_rules"),
                importlib.import_module("solver._ext.precinct_state"))
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None, None


rules_mod, state_mod = _import_compiled()
pytestmark = pytest.mark.skipif(
    rules_mod is None or state_mod is None,
    reason="solver._ext.precinct_rules is not built (pip install -e . needs Cython and a C compiler)",
)

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "dirty_cop": True},
    {"players": 5, "dirty_cop": True},
    {"players": 2},
    {"players": 3, "support_vehicles": 2},
]
#: the kinds this part of the port covers (the kernel's own list must match it)
PORTED = frozenset({"start", "move", "support", "discard", "deal_police", "first_turn", "turn_start",
                    "after_move", "police_phase", "hand_limit", "end_turn"})
#: ported kinds that are a head (a decision or chance node) and how often each must be checked at least
HEAD_MINIMUM = {"start": 100, "move": 200, "support": 100, "discard": 20, "deal_police": 150}
#: bookkeeping kinds and how often each must have run inside a compared step
AUTO_MINIMUM = {"turn_start": 150, "after_move": 150, "police_phase": 150, "hand_limit": 150,
                "end_turn": 150}


def _mods() -> tuple[Any, Any]:
    if rules_mod is None or state_mod is None:
        raise AssertionError("solver._ext.precinct_rules is not built")
    return rules_mod, state_mod


def _python_apply(st: PrecinctState, action: int, ported: frozenset[str], autos: Counter[str]) -> None:
    """``tasks.apply(st, action)`` whose run stops in front of a task kind not in ``ported``, as the
    kernel's does; the bookkeeping kinds run are counted in ``autos``."""
    task = st.todo.pop(0)
    if task[0] in tasks.CHANCES:
        tasks.CHANCES[task[0]][1](st, task, action)
    else:
        tasks.DECISIONS[task[0]][2](st, task, action)
    _python_run(st, ported, autos)


def _python_run(st: PrecinctState, ported: frozenset[str], autos: Counter[str]) -> None:
    """``tasks.run(st)``, line by line, stopping in front of a task kind not in ``ported``."""
    while st.result == 0 and st.todo:
        task = st.todo[0]
        if task[0] not in ported:
            return
        if task[0] in tasks.AUTOS:
            st.todo.pop(0)
            autos[task[0]] += 1
            tasks.AUTOS[task[0]](st, task)
            continue
        if task[0] in tasks.DECISIONS and not tasks.DECISIONS[task[0]][1](st, task):
            st.todo.pop(0)
            continue
        if task[0] in tasks.CHANCES and not tasks.outcomes(st):
            st.todo.pop(0)
            continue
        return


def _choose(st: PrecinctState, rng: np.random.Generator, ties: SplitMix64, explore: float) -> int:
    if st.current_player() == CHANCE:
        out = st.chance_outcomes()
        return int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0])
    if explore and rng.random() < explore:
        legal = st.legal_actions()
        return int(legal[int(rng.integers(len(legal)))])
    return int(heuristic_action(st, ties))


def _games() -> Iterator[tuple[dict[str, Any], int, float]]:
    for config in CONFIGS:
        for seed, explore in ((21, 0.0), (22, 0.25)):
            yield config, seed, explore


def _check_game(config: dict[str, Any], seed: int, explore: float, heads: Counter[str],
                autos: Counter[str], stops: Counter[str], runs: Counter[str] | None = None) -> None:
    m, sm = _mods()
    game = PrecinctGame(**config)
    crules = m.PrecinctCRules(game)
    st = game.new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    steps = 0
    while not st.is_terminal():
        action = _choose(st, rng, ties, explore)
        name = st.todo[0][0]
        if name in PORTED:
            where = f"{config} seed {seed} step {steps} task {st.todo[0]}"
            cs = sm.PrecinctCState.from_state(st)
            assert crules.actor(cs) == st.current_player(), where
            assert crules.legal(cs) == st.legal_actions(), where
            if name in tasks.CHANCES:
                want = st.chance_outcomes()
                got = crules.outcomes(cs)
                assert [a for a, _ in got] == [a for a, _ in want], where
                assert all(abs(p - q) <= 1e-12 for (_, p), (_, q) in zip(got, want, strict=True)), where
            status = crules.apply(cs, action)
            partial = st.clone()
            _python_apply(partial, action, PORTED, autos)
            got_core = cs.to_core()
            want_core = sm.PrecinctCState.from_state(partial).to_core()
            assert got_core == want_core, f"{where} action {action}: {_difference(got_core, want_core)}"
            if status == m.STOPPED:
                stops[crules.stopped_at(cs)] += 1
            heads[name] += 1
        elif runs is not None:
            _check_runs(crules, st, runs, autos, where=f"{config} seed {seed} step {steps}")
        st.apply_unchecked(action)
        steps += 1


#: the bookkeeping kinds a doctored queue starts from (police_phase opens PHASE 3, end_turn the next turn)
RUN_STARTS = ("police_phase", "end_turn")


def _check_runs(crules: Any, st: PrecinctState, runs: Counter[str], autos: Counter[str], where: str) -> None:
    """At a head the kernel does not port, run the queue from its first ``police_phase`` and from its
    ``end_turn`` (the tasks in front dropped) in C and in Python: the bookkeeping of PHASE 3 and of a
    turn's end and the next turn's start, on real positions (riots, stolen cars, escort vans ...)."""
    _, sm = _mods()
    names = [t[0] for t in st.todo]
    for start in RUN_STARTS:
        if start not in names:
            continue
        doctored = st.clone()
        doctored.todo = doctored.todo[names.index(start):]
        cs = sm.PrecinctCState.from_state(doctored)
        crules.run(cs)
        _python_run(doctored, PORTED, autos)
        got, want = cs.to_core(), sm.PrecinctCState.from_state(doctored).to_core()
        assert got == want, f"{where} run from {start}: {_difference(got, want)}"
        runs[start] += 1


def _difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    keys = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    return "; ".join(f"{k}: {a.get(k)!r} != {b.get(k)!r}" for k in keys)


def _registered_by(module: ModuleType) -> set[str]:
    """The task kinds whose handlers ``module`` defines (read off the registry's functions)."""
    fns = [(name, entry[1]) for name, entry in tasks.DECISIONS.items()]
    fns += [(name, entry[0]) for name, entry in tasks.CHANCES.items()]
    fns += list(tasks.AUTOS.items())
    return {name for name, fn in fns if fn.__module__ == module.__name__}


def test_ported_kinds_are_the_listed_ones() -> None:
    """The kernel ports exactly the kinds common.py and turn.py register, less the set-up ones it
    refuses; a kind added to either module fails here until it is ported."""
    m, _ = _mods()
    setup = {"car", "pick", "deal_loyalty", "setup_deal", "setup_punk", "stack_block", "setup_emergency"}
    assert m.PORTED == PORTED
    assert setup == m.SETUP
    assert _registered_by(common) | _registered_by(turn) == PORTED | (setup - {"setup_emergency"})


def test_every_ported_step_equals_python() -> None:
    """Every ported head of seeded games: the same actor, legal actions, outcomes and next state."""
    heads: Counter[str] = Counter()
    autos: Counter[str] = Counter()
    stops: Counter[str] = Counter()
    runs: Counter[str] = Counter()
    for config, seed, explore in _games():
        _check_game(config, seed, explore, heads, autos, stops, runs)
    print(f"\nchecked heads {dict(heads)}\nruns from {dict(runs)}\nbookkeeping run {dict(autos)}"
          f"\nstopped at {dict(stops)}")
    for name, least in HEAD_MINIMUM.items():
        assert heads[name] >= least, (name, heads[name])
    for name, least in AUTO_MINIMUM.items():
        assert autos[name] >= least, (name, autos[name])
    assert set(HEAD_MINIMUM) | set(AUTO_MINIMUM) | {"first_turn"} == PORTED


def test_unported_and_setup_heads_raise() -> None:
    """A head of procedures.py / eventcards.py is refused with the kind's name; set-up likewise."""
    m, sm = _mods()
    game = PrecinctGame(players=4)
    crules = m.PrecinctCRules(game)
    st = game.new_initial_state()
    with pytest.raises(BadStateError, match="set-up task pick"):
        crules.legal(sm.PrecinctCState.from_state(st))
    ties = SplitMix64(3)
    rng = np.random.default_rng(3)
    while st.todo[0][0] != "action":
        st.apply_unchecked(_choose(st, rng, ties, 0.0))
    cs = sm.PrecinctCState.from_state(st)
    before = cs.to_core()
    with pytest.raises(BadStateError, match="task action not ported yet"):
        crules.legal(cs)
    with pytest.raises(BadStateError, match="task action not ported yet"):
        crules.apply(cs, st.legal_actions()[0])
    assert cs.to_core() == before  # nothing was changed


def test_illegal_action_is_an_error() -> None:
    """An action outside the head's options is refused (a move to a street out of reach)."""
    m, sm = _mods()
    game = PrecinctGame(players=4)
    crules = m.PrecinctCRules(game)
    st = game.new_initial_state()
    ties = SplitMix64(5)
    rng = np.random.default_rng(5)
    while st.todo[0][0] != "move":
        st.apply_unchecked(_choose(st, rng, ties, 0.0))
    cs = sm.PrecinctCState.from_state(st)
    legal = set(crules.legal(cs))
    far = next(a for a in range(32, 32 + len(game.city.streets)) if a not in legal)
    with pytest.raises(BadStateError, match="cannot take action"):
        crules.apply(cs, far)
    with pytest.raises(BadStateError, match="cannot take action"):
        crules.apply(sm.PrecinctCState.from_state(st), 32 + 64)


def test_hand_bound_is_an_error_not_an_overflow() -> None:
    """A deal into a hand at the layout's bound reports the bound instead of writing past it."""
    m, sm = _mods()
    game = PrecinctGame(players=4)
    crules = m.PrecinctCRules(game)
    st = game.new_initial_state()
    ties = SplitMix64(7)
    rng = np.random.default_rng(7)
    while st.todo[0][0] != "deal_police" or not st.order or st.turns == 0:
        st.apply_unchecked(_choose(st, rng, ties, 0.0))
    cop = st.cops[st.todo[0][1]]
    bound = state_mod.BOUNDS["PS_MAX_HAND"] if state_mod else 0
    kind = next(k for k, c in enumerate(st.police) if c)
    cop.hand = [kind] * bound
    cop.fresh = [False] * bound
    cs = sm.PrecinctCState.from_state(st)
    with pytest.raises(BadStateError, match="bound"):
        crules.apply(cs, crules.outcomes(cs)[0][0])


def test_every_character_moves_and_limits_as_in_python() -> None:
    """The character's powers the turn reads (fast, motorcycle through blocked crossings, big hand at
    the hand limit) on real positions: at every move head, and at every PHASE 3 deal (with two cards
    added to the hand so that the limits of 7 and 9 both bite), the cop is given each character in
    turn, and the legal actions and the state after the same action are compared."""
    m, sm = _mods()
    game = PrecinctGame(players=4, dirty_cop=True, support_vehicles=1)
    crules = m.PrecinctCRules(game)
    autos: Counter[str] = Counter()
    through = 0  # moves where the motorcycle reaches more than the same car would
    limited: Counter[bool] = Counter()  # PHASE 3 deals followed by a discard, by big hand
    checked = 0
    for seed in (31, 32):
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        ties = SplitMix64(seed)
        while not st.is_terminal():
            action = _choose(st, rng, ties, 0.25)
            names = [t[0] for t in st.todo]
            phase3 = names[0] == "deal_police" and names[1:2] == ["hand_limit"]
            if names[0] == "move" or phase3:
                cop_i = st.todo[0][1]
                for char in range(len(game.content.characters)):
                    doctored = st.clone()
                    cop = doctored.cops[cop_i]
                    cop.char = char
                    if phase3:
                        extra = cop.hand[:2]
                        cop.hand = cop.hand + extra
                        cop.fresh = cop.fresh + [False] * len(extra)
                    cs = sm.PrecinctCState.from_state(doctored)
                    legal = doctored.legal_actions()
                    assert crules.legal(cs) == legal
                    if "motorcycle" in game.content.characters[char].powers and names[0] == "move":
                        plain = doctored.clone()
                        plain.cops[cop_i].char = st.cops[cop_i].char
                        through += len(legal) > len(plain.legal_actions()) and bool(st.blocked())
                    move = action if phase3 else legal[int(rng.integers(len(legal)))]
                    crules.apply(cs, move)
                    _python_apply(doctored, move, PORTED, autos)
                    got, want = cs.to_core(), sm.PrecinctCState.from_state(doctored).to_core()
                    assert got == want, f"seed {seed} char {char}: {_difference(got, want)}"
                    if phase3:
                        limited[doctored.has(cop, "big_hand")] += doctored.todo[0][0] == "discard"
                    checked += 1
            st.apply_unchecked(action)
    assert checked >= 500 and through >= 1 and autos["hand_limit"] >= 100, (checked, through, autos)
    # the big hand discards less often than the others (one character against seven)
    assert limited[False] > 7 * limited[True] >= 1, limited


def test_hospital_equals_python() -> None:
    """common.hospital (called by procedures and eventcards, not by part one's tasks): every cop of
    real positions is sent there in C and in Python; small hands go face up, larger ones queue two
    discards, the tough character keeps his cards."""
    m, sm = _mods()
    game = PrecinctGame(players=5, dirty_cop=True)
    crules = m.PrecinctCRules(game)
    shapes: Counter[str] = Counter()
    st = game.new_initial_state()
    rng = np.random.default_rng(51)
    ties = SplitMix64(51)
    while not st.is_terminal():
        action = _choose(st, rng, ties, 0.25)
        if st.todo[0][0] == "start":
            for i, cop in enumerate(st.cops):
                for char in range(len(game.content.characters)):
                    py = st.clone()
                    py.cops[i].char = char
                    cs = sm.PrecinctCState.from_state(py)
                    crules.hospital(cs, i)
                    common.hospital(py, i)
                    got, want = cs.to_core(), sm.PrecinctCState.from_state(py).to_core()
                    assert got == want, _difference(got, want)
                    shapes["tough" if py.has(py.cops[i], "tough") else
                           "face up" if len(cop.hand) <= 2 else "discards"] += 1
        st.apply_unchecked(action)
    assert min(shapes["tough"], shapes["face up"], shapes["discards"]) >= 20, shapes


def test_first_turn_equals_python() -> None:
    """first_turn (the last set-up task) on every configuration's first position: the queue rebuilt
    from it alone runs to the first player's start in C as in Python."""
    m, sm = _mods()
    autos: Counter[str] = Counter()
    for config in CONFIGS:
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(61)
        ties = SplitMix64(61)
        while st.turns == 0:
            st.apply_unchecked(_choose(st, rng, ties, 0.0))
        st.todo = [("first_turn",)]
        st.at = len(st.order) - 1
        cs = sm.PrecinctCState.from_state(st)
        assert crules.run(cs) == m.OK
        _python_run(st, PORTED, autos)
        assert cs.to_core() == sm.PrecinctCState.from_state(st).to_core()
        assert st.todo[0] == ("start", st.order[0])
    assert autos["first_turn"] == len(CONFIGS)
