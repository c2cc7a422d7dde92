"""The compiled Precinct rules (``ext/precinct_rules.pyx``, every kind of play), step by step against Python.

Seeded games are played with the Python rules (the heuristic for every seat, a uniformly random legal
action one time in four in half of them, chance drawn by its probabilities from a numpy Generator). At
every state whose head task is a kind the kernel ports, a fresh C state is built from the Python state
and: the C actor, legal actions and chance outcomes must equal Python's; the same action is applied to
both; the C state after the action must equal, field for field, the Python state after the same
action. When the kernel's run stops in front of a task kind it does not port yet, the Python side is
compared at the same point: its handler is applied and its bookkeeping run by :func:`_python_apply`,
which is ``tasks.apply`` with ``tasks.run`` stopping in front of the same kinds (the handlers are the
rules' own, looked up in the registry); after the set-up it never stops now that every kind of play is
ported. The counts of checked steps per kind are asserted, so a kind that silently stops being
exercised fails the test. Rare heads are pushed at real positions (test_every_action_in_lockstep,
test_pushed_heads_in_lockstep, test_every_event_card_resolves_as_in_python), and whole games are played
to their end from mid-game states in C alone and in Python alone with the same choosing rule
(test_whole_playouts_equal_python).

The compiled module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when it is built; they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import importlib
import os
import time
from collections import Counter
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.precinct.search import heuristic_action
from solver.core import CHANCE, TERMINAL, BadStateError
from solver.core.rng import SplitMix64
from solver.games.precinct import common, eventcards, procedures, tasks, turn
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
TURN_KINDS = frozenset({"start", "move", "support", "discard", "deal_police", "first_turn", "turn_start",
                        "after_move", "police_phase", "hand_limit", "end_turn"})
#: the kinds of procedures.py ported so far
PROCEDURE_KINDS = frozenset({
    "action", "inv_draw", "claim", "inv_done", "deck", "look", "order", "officers", "swat", "donuts", "help",
    "sabotage", "fed", "second", "arrest_roll", "em_roll", "unknown", "reward", "take_reward", "upgrade",
    "donate", "accused", "loyalty", "hood", "dispatch", "tow", "target"})
#: the kinds of eventcards.py ported so far
EVENTCARD_KINDS = frozenset({"van", "event_phase", "event_draw", "resolve", "event_look", "peek_event",
                             "place_roll", "punk_roll", "special_roll", "gang", "gas", "gas_fixed", "drive",
                             "escape"})
PORTED = TURN_KINDS | PROCEDURE_KINDS | EVENTCARD_KINDS
#: ported kinds that are a head (a decision or chance node) and how often each must be checked at least
HEAD_MINIMUM = {"start": 100, "move": 200, "support": 100, "discard": 20, "deal_police": 150,
                "action": 200, "help": 500, "inv_draw": 30, "claim": 30, "dispatch": 30, "unknown": 40,
                "em_roll": 80, "fed": 50, "reward": 50, "officers": 5, "arrest_roll": 25, "donuts": 100,
                "hood": 25, "tow": 10, "upgrade": 3, "deck": 20, "look": 20, "order": 10, "swat": 3,
                "target": 2, "sabotage": 2, "loyalty": 2, "donate": 10, "van": 3, "event_draw": 200,
                "place_roll": 30, "punk_roll": 50, "gas": 30, "special_roll": 10, "drive": 15,
                "peek_event": 5, "event_look": 5, "gang": 8}
#: bookkeeping kinds and how often each must have run inside a compared step
AUTO_MINIMUM = {"turn_start": 150, "after_move": 150, "police_phase": 150, "hand_limit": 150,
                "end_turn": 150, "inv_done": 30, "take_reward": 100, "accused": 3, "event_phase": 150,
                "resolve": 150, "escape": 10}
#: ported kinds the seeded games never reach: checked by test_every_action_in_lockstep and
#: test_pushed_heads_in_lockstep instead
RARE = frozenset({"second", "gas_fixed"})


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
    refuses, and every kind of procedures.py; a kind added to one of them fails here until it is
    ported."""
    m, _ = _mods()
    setup = {"car", "pick", "deal_loyalty", "setup_deal", "setup_punk", "stack_block", "setup_emergency"}
    assert m.PORTED == PORTED
    assert setup == m.SETUP
    assert _registered_by(common) | _registered_by(turn) == TURN_KINDS | (setup - {"setup_emergency"})
    assert _registered_by(procedures) == PROCEDURE_KINDS
    assert _registered_by(eventcards) == EVENTCARD_KINDS | {"setup_emergency"}


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
    assert set(HEAD_MINIMUM) | set(AUTO_MINIMUM) | {"first_turn"} | RARE == PORTED
    assert set(stops) <= rules_mod.SETUP if rules_mod else False  # only in the set-up: play never stops


def test_setup_heads_raise() -> None:
    """A set-up head is refused with the kind's name, and nothing is changed."""
    m, sm = _mods()
    game = PrecinctGame(players=4)
    crules = m.PrecinctCRules(game)
    st = game.new_initial_state()
    with pytest.raises(BadStateError, match="set-up task pick"):
        crules.legal(sm.PrecinctCState.from_state(st))
    ties = SplitMix64(3)
    rng = np.random.default_rng(3)
    while st.todo[0][0] != "setup_emergency":
        st.apply_unchecked(_choose(st, rng, ties, 0.0))
    cs = sm.PrecinctCState.from_state(st)
    before = cs.to_core()
    with pytest.raises(BadStateError, match="set-up task setup_emergency"):
        crules.legal(cs)
    with pytest.raises(BadStateError, match="set-up task setup_emergency"):
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
    """common.hospital (called by procedures and eventcards): every cop of
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


def _lockstep(crules: Any, st: PrecinctState, first: int, rng: np.random.Generator, heads: Counter[str],
              chosen: Counter[tuple[str, int]], limit: int = 80) -> None:
    """Apply ``first`` at ``st``'s head, then uniformly random legal actions (chance by its
    probabilities) to one C state and to ``st`` side by side, comparing actor, legal actions, outcomes
    and the whole state at every step, until the head is a kind not ported or the game ends."""
    _, sm = _mods()
    autos: Counter[str] = Counter()
    cs = sm.PrecinctCState.from_state(st)
    action = first
    for step in range(limit):
        if st.result or not st.todo or st.todo[0][0] not in PORTED:
            return
        name = st.todo[0][0]
        where = f"step {step} task {st.todo[0]}"
        assert crules.actor(cs) == st.current_player(), where
        legal = st.legal_actions()
        assert crules.legal(cs) == legal, where
        if name in tasks.CHANCES:
            want = st.chance_outcomes()
            got = crules.outcomes(cs)
            assert [a for a, _ in got] == [a for a, _ in want], where
            assert all(abs(p - q) <= 1e-12 for (_, p), (_, q) in zip(got, want, strict=True)), where
            if step:
                action = int(want[int(rng.choice(len(want), p=[p for _, p in want]))][0])
        elif step:
            action = int(legal[int(rng.integers(len(legal)))])
        crules.apply(cs, action)
        _python_apply(st, action, PORTED, autos)
        got_core, want_core = cs.to_core(), sm.PrecinctCState.from_state(st).to_core()
        assert got_core == want_core, f"{where} action {action}: {_difference(got_core, want_core)}"
        heads[name] += 1
        chosen[name, action] += 1


def test_every_action_in_lockstep() -> None:
    """At the action heads of seeded games, every legal action is taken (by a cop given SWAT tokens, a
    Federal Agent token and donuts, so that each step has choices) and its whole procedure played on
    with random choices in C and in Python side by side: every branch of the action, the help and
    sabotage windows, the rolls' outcomes, rewards, the Federal Agent's second emergency, looks and
    orders, upgrades, reveals and accusations."""
    m, _ = _mods()
    heads: Counter[str] = Counter()
    chosen: Counter[tuple[str, int]] = Counter()
    for config in CONFIGS[:3]:
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(71)
        ties = SplitMix64(71)
        while not st.is_terminal():
            action = _choose(st, rng, ties, 0.25)
            if st.todo[0][0] == "action":
                for first in st.legal_actions():
                    doctored = st.clone()
                    cop = doctored.cops[doctored.todo[0][1]]
                    cop.swat, cop.fed = 2, 1
                    cop.donuts += 2
                    if doctored.game.dirty_cops and rng.random() < 0.5:
                        other = (cop.seat + 1) % doctored.n  # a dirty cop underground: sabotage windows
                        doctored.underground[other] = True
                        for c in doctored.cops:
                            c.donuts += 2 * (c.seat == other)
                    _lockstep(crules, doctored, first, rng, heads, chosen)
            st.apply_unchecked(action)
    print(f"\nchecked heads {dict(heads)}")
    pushed = {"second", "dispatch", "target", "tow", "loyalty"}  # test_pushed_heads_in_lockstep's
    for name in PROCEDURE_KINDS - {"take_reward", "inv_done", "accused"} - pushed:
        assert heads[name] >= 3, (name, heads)
    # choices that change the state, not only the default one
    for name, start in (("swat", 316 + 1), ("officers", 308 + 1), ("donuts", 288 + 1), ("fed", 1)):
        assert sum(n for (k, a), n in chosen.items() if k == name and a >= start) >= 3, (name, chosen)


def test_pushed_heads_in_lockstep() -> None:
    """The decisions that text cards, rewards, the Federal Agent and event cards push (some rare in
    play): at the action heads of seeded games each is pushed in front of the queue, every one of its
    legal actions taken, and the rest played on side by side as in test_every_action_in_lockstep."""
    m, _ = _mods()
    heads: Counter[str] = Counter()
    chosen: Counter[tuple[str, int]] = Counter()
    for config in (CONFIGS[1], CONFIGS[4]):
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(81)
        ties = SplitMix64(81)
        while not st.is_terminal():
            action = _choose(st, rng, ties, 0.25)
            if st.todo[0][0] == "action":
                cop_i = st.todo[0][1]
                seat = st.cops[cop_i].seat
                pushed: list[tuple[Any, ...]] = [
                    ("second", cop_i), ("dispatch", cop_i), ("hood", cop_i, "outreach"),
                    ("hood", cop_i, "incite"), ("tow", cop_i), ("target", cop_i), ("loyalty", seat),
                    ("deck", cop_i, "look2"), ("deck", cop_i, "insider"), ("deck", cop_i, "fresh"),
                    ("upgrade", cop_i), ("reward", cop_i, (0, 2)), ("fed", cop_i, (1, 3))]
                if st.patrol_stock:
                    pushed.append(("hood", cop_i, "officer"))
                pushed += [("van", cop_i, e, slot.where) for e, slot in enumerate(st.slots)
                           if slot is not None and game.content.events[slot.card].special == "escort_van"]
                pushed += [("event_draw", cop_i), ("peek_event", cop_i)]
                for task in pushed:
                    doctored = st.clone()
                    doctored.cops[cop_i].donuts += 1
                    doctored.cops[cop_i].fed = 1
                    doctored.todo.insert(0, task)
                    if task[0] == "peek_event":  # the look that follows a peek (an event look reward)
                        doctored.todo.insert(1, ("event_look", cop_i))
                    for first in doctored.legal_actions():
                        _lockstep(crules, doctored.clone(), first, rng, heads, chosen, limit=30)
            st.apply_unchecked(action)
    print(f"\nchecked heads {dict(heads)}")
    for name in ("second", "dispatch", "hood", "tow", "target", "loyalty", "deck", "look", "order",
                 "upgrade", "reward", "fed", "van", "event_draw", "peek_event", "event_look"):
        assert heads[name] >= 10, (name, heads)
    assert sum(n for (k, a), n in chosen.items() if k == "event_look" and a == 11) >= 5, chosen  # BOTTOM
    assert sum(n for (k, a), n in chosen.items() if k == "van" and a == 1) >= 5, chosen  # YES: it moves
    assert sum(n for (k, a), n in chosen.items() if k == "second" and a != 0) >= 3, chosen


def _run_then_lockstep(crules: Any, st: PrecinctState, rng: np.random.Generator, heads: Counter[str],
                       chosen: Counter[tuple[str, int]], autos: Counter[str]) -> None:
    """Run ``st``'s queue (a bookkeeping task pushed at its head) in C and in Python, compare, then play
    on side by side from the next head as :func:`_lockstep` does."""
    m, sm = _mods()
    cs = sm.PrecinctCState.from_state(st)
    assert crules.run(cs) == m.OK
    _python_run(st, PORTED, autos)
    got, want = cs.to_core(), sm.PrecinctCState.from_state(st).to_core()
    assert got == want, _difference(got, want)
    if st.result or not st.todo:
        return
    legal = st.legal_actions()
    if st.current_player() == CHANCE:
        out = st.chance_outcomes()
        first = int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0])
    else:
        first = int(legal[int(rng.integers(len(legal)))])
    _lockstep(crules, st, first, rng, heads, chosen, limit=30)


def test_every_event_card_resolves_as_in_python() -> None:
    """Every event card of the content resolved at real positions (its resolve task pushed at the action
    heads of seeded games, the Urgent! token, the punks and gangs, the special's placement and effect),
    and the specials that wait on the board acted on (a gas leak fixed, the jail breakers' escape, the
    stolen car's drive), then played on side by side in C and in Python."""
    m, _ = _mods()
    heads: Counter[str] = Counter()
    chosen: Counter[tuple[str, int]] = Counter()
    autos: Counter[str] = Counter()
    specials: Counter[str] = Counter()
    for config in (CONFIGS[0], CONFIGS[1]):
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        events = game.content.events
        st = game.new_initial_state()
        rng = np.random.default_rng(91)
        ties = SplitMix64(91)
        steps = 0
        while not st.is_terminal():
            action = _choose(st, rng, ties, 0.25)
            if st.todo[0][0] == "action" and steps % 3 == 0:
                cop_i = st.todo[0][1]
                pushed: list[tuple[Any, ...]] = [("resolve", cop_i, k, 0) for k in range(len(events))]
                for e, slot in enumerate(st.slots):
                    special = "" if slot is None else events[slot.card].special
                    if special == "gas_leak":
                        pushed += [("gas_fixed", cop_i, e), ("gas", e)]
                    elif special == "jail_break":
                        pushed.append(("escape", e))
                    elif special == "car_theft":
                        pushed.append(("drive", e))
                for task in pushed:
                    doctored = st.clone()
                    doctored.todo.insert(0, task)
                    if task[0] == "resolve":
                        specials[events[task[2]].special or "emergency"] += 1
                    if task[0] in tasks.AUTOS:
                        _run_then_lockstep(crules, doctored, rng, heads, chosen, autos)
                    else:
                        _lockstep(crules, doctored, doctored.legal_actions()[0], rng, heads, chosen, limit=30)
            st.apply_unchecked(action)
            steps += 1
    print(f"\nchecked heads {dict(heads)}\nbookkeeping run {dict(autos)}\nresolved {dict(specials)}")
    kinds = {e.special for e in PrecinctGame(**CONFIGS[0]).content.events} - {""}
    assert all(specials[k] >= 10 for k in kinds), specials
    for name in ("resolve", "gas_fixed"):  # escape and event_phase: test_every_ported_step_equals_python
        assert autos[name] >= 3, (name, autos)
    for name in ("special_roll", "place_roll", "punk_roll", "gang", "gas", "drive", "hood", "target"):
        assert heads[name] >= 3, (name, heads)


#: the configurations whose games are played to their end in C and in Python from mid-game states
PLAYOUT_CONFIGS = CONFIGS[:4]


def _pick(rng: np.random.Generator, actions: list[int], probs: list[float] | None = None) -> int:
    """The shared choosing rule of the playouts: a seeded uniform index into the legal actions, chance
    by its probabilities."""
    if probs is None:
        return int(actions[int(rng.integers(len(actions)))])
    return int(actions[int(rng.choice(len(actions), p=probs))])


def _python_playout(st: PrecinctState, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            action = _pick(rng, [a for a, _ in out], [p for _, p in out])
        else:
            action = _pick(rng, st.legal_actions())
        st.apply_unchecked(action)
        actions.append(action)
    return actions


def _c_playout(crules: Any, cs: Any, seed: int) -> list[int]:
    m, _ = _mods()
    rng = np.random.default_rng(seed)
    actions: list[int] = []
    while crules.actor(cs) != TERMINAL:
        if crules.actor(cs) == CHANCE:
            out = crules.outcomes(cs)
            action = _pick(rng, [a for a, _ in out], [p for _, p in out])
        else:
            action = _pick(rng, crules.legal(cs))
        assert crules.apply(cs, action) == m.OK  # never STOPPED: every kind of play is ported
        actions.append(action)
    return actions


def test_whole_playouts_equal_python() -> None:
    """From mid-game states of seeded games (4 players, 4 and 5 with the Dirty Cop, 2 players) the
    kernel plays to the end of the game alone, and Python alone, both choosing by the same seeded
    rule over their own legal actions and chance outcomes: the same actions, the same final state and
    the same result."""
    m, sm = _mods()
    played = 0
    results: Counter[int] = Counter()
    for config in PLAYOUT_CONFIGS:
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(101)
        ties = SplitMix64(101)
        steps = 0
        while not st.is_terminal():
            if st.turns and steps % 120 == 0:
                for seed in (1, 2):
                    py = st.clone()
                    cs = sm.PrecinctCState.from_state(py)
                    want = _python_playout(py, seed)
                    got = _c_playout(crules, cs, seed)
                    where = f"{config} step {steps} seed {seed}"
                    assert got == want, where
                    got_core, want_core = cs.to_core(), sm.PrecinctCState.from_state(py).to_core()
                    assert got_core == want_core, f"{where}: {_difference(got_core, want_core)}"
                    assert py.result != 0 and got_core["result"] == py.result, where
                    results[py.result] += 1
                    played += 1
            st.apply_unchecked(_choose(st, rng, ties, 0.0))
            steps += 1
    print(f"\nwhole playouts {played}, results {dict(results)}")
    assert played >= 20, played


def _python_random_playout(st: PrecinctState, seed: int) -> list[int]:
    """The choosing rule of ``PrecinctCRules.random_playout`` in Python: a decision takes
    legal[below(n)], chance the first outcome whose running sum of probabilities passes uniform()."""
    rng = SplitMix64(seed)
    actions: list[int] = []
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            u, acc, action = rng.uniform(), 0.0, out[-1][0]
            for a, p in out:
                acc += p
                if u < acc:
                    action = a
                    break
        else:
            legal = st.legal_actions()
            action = legal[rng.below(len(legal))]
        st.apply_unchecked(action)
        actions.append(int(action))
    return actions


def test_nogil_playouts_equal_python() -> None:
    """The nogil loop (no Python between steps) from mid-game states of seeded games plays the same
    actions to the same final state and result as its Python twin; prints the time of both."""
    m, sm = _mods()
    played = moves = 0
    c_time = py_time = 0.0
    for config in PLAYOUT_CONFIGS:
        game = PrecinctGame(**config)
        crules = m.PrecinctCRules(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(111)
        ties = SplitMix64(111)
        steps = 0
        while not st.is_terminal():
            if st.turns and steps % 150 == 0:
                for seed in (3, 4):
                    py = st.clone()
                    cs = sm.PrecinctCState.from_state(py)
                    t0 = time.perf_counter()
                    want = _python_random_playout(py, seed)
                    t1 = time.perf_counter()
                    got = crules.random_playout(cs, seed)
                    t2 = time.perf_counter()
                    py_time += t1 - t0
                    c_time += t2 - t1
                    where = f"{config} step {steps} seed {seed}"
                    assert got == want, where
                    got_core, want_core = cs.to_core(), sm.PrecinctCState.from_state(py).to_core()
                    assert got_core == want_core, f"{where}: {_difference(got_core, want_core)}"
                    played += 1
                    moves += len(got)
            st.apply_unchecked(_choose(st, rng, ties, 0.0))
            steps += 1
    print(f"\nnogil playouts {played} ({moves} actions): C {1e3 * c_time / played:.3f} ms, "
          f"Python {1e3 * py_time / played:.1f} ms a playout")
    assert played >= 20, played
