"""The Police Precinct state in C (``ext/precinct_state.pyx``) holds exactly the Python state.

Every state of seeded games (1, 2, 4, 5 and 6 players, with and without dirty cops, plus the largest
set-up the options allow) is converted into the C struct and back with ``to_core()``, and compared,
types included, with a canonical dict built here straight from the Python objects: every attribute of
:class:`~solver.games.precinct.state.PrecinctState` but the text and records, every dataclass field of
its cops, slots and stacks, seat sets as sorted tuples. The builder reads the objects generically, so a
field added to the Python state and not to the C layout fails here. Half the games are the heuristic's
(as the search plays them), half take a uniformly random legal action one time in four, which reaches
accusations and other paths the heuristic avoids. Doctored states check that each bound of the layout
raises :class:`BadStateError` instead of overflowing.

The compiled module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when it is built; they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.precinct.search import heuristic_action
from solver.core import CHANCE, BadStateError
from solver.core.rng import SplitMix64
from solver.games.precinct import tasks
from solver.games.precinct.board import Slot
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> ModuleType | None:
    try:
        return importlib.import_module("solver._ext.precinct_state")
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None


compiled = _import_compiled()
pytestmark = pytest.mark.skipif(
    compiled is None,
    reason="solver._ext.precinct_state is not built (pip install -e . needs Cython and a C compiler)",
)

#: PrecinctState attributes that only serve text and records (the C state leaves them out)
OMITTED = frozenset({"game", "reason", "history", "events", "records", "marks"})

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "dirty_cop": True},
    {"players": 5, "dirty_cop": True},
    {"players": 6, "dirty_cop": True, "dirty_cops": 2},
    {"players": 2},
    {"players": 1},
]
#: the largest set-up: 8 seats, 7 cards each, 6 emergencies, both support vehicles
LARGEST: dict[str, Any] = {"players": 8, "dirty_cop": True, "dirty_cops": 3, "cards_dealt": 7,
                           "events_at_start": 6, "support_vehicles": 2, "start_donuts": 3}


# --- the canonical form, built from the Python objects ---------------------------------------------
def _plain(x: Any) -> Any:
    """``x`` as plain data: dataclasses as dicts of all their fields, seat sets as sorted tuples."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: _plain(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, (set, frozenset)):
        return tuple(sorted(x))
    if isinstance(x, list):
        return [_plain(v) for v in x]
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def canonical(st: PrecinctState) -> dict[str, Any]:
    """Every game-relevant attribute of ``st``, as plain data."""
    return {name: _plain(value) for name, value in vars(st).items() if name not in OMITTED}


def _typed(x: Any) -> Any:
    """``x`` with every leaf tagged by its type, so that True and 1 differ."""
    if isinstance(x, dict):
        return ("dict", sorted((k, _typed(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [_typed(v) for v in x])
    return (type(x).__name__, x)


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where ``a`` and ``b`` first differ, for the failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: present in only one"
            if _typed(a[k]) != _typed(b[k]):
                return _first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (u, v) in enumerate(zip(a, b, strict=True)):
            if _typed(u) != _typed(v):
                return _first_difference(u, v, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"


def _module() -> Any:
    if compiled is None:
        raise AssertionError("solver._ext.precinct_state is not built")
    return compiled


def _states(config: dict[str, Any], seed: int, explore: float) -> Iterator[PrecinctState]:
    """Every state of one seeded game: the heuristic for every seat, a random legal action with
    chance ``explore``, chance outcomes drawn by their probabilities."""
    st = PrecinctGame(**config).new_initial_state()
    rng = np.random.default_rng(seed)
    ties = SplitMix64(seed)
    while not st.is_terminal():
        yield st
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            action = out[int(rng.choice(len(out), p=[p for _, p in out]))][0]
        elif explore and rng.random() < explore:
            legal = st.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = heuristic_action(st, ties)
        st.apply_unchecked(action)
    yield st


def _check(st: PrecinctState) -> dict[str, Any]:
    m = _module()
    core = m.PrecinctCState.from_state(st).to_core()
    want = canonical(st)
    if _typed(core) != _typed(want):
        raise AssertionError(f"C state differs from Python: {_first_difference(core, want)}")
    return core


# --- round trips ---------------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_round_trip_equals_python_state(config: dict[str, Any]) -> None:
    """Every state of a heuristic game and of a partly random one comes back field for field."""
    seen_tasks: set[str] = set()
    seen_ctx: set[str] = set()
    longest = 0
    for seed, explore in ((11, 0.0), (12, 0.25)):
        for st in _states(config, seed, explore):
            _check(st)
            seen_tasks.update(t[0] for t in st.todo)
            seen_ctx.add(st.ctx.get("kind", ""))
            longest = max(longest, len(st.todo))
    assert len(seen_tasks) >= 35, sorted(seen_tasks)  # the games reach most of the queue's kinds
    assert {"investigate", "arrest", "emergency"} <= seen_ctx
    assert longest <= _module().BOUNDS["PS_MAX_TODO"]


def test_every_ctx_kind_and_most_tasks_round_trip() -> None:
    """Across random-heavy dirty-cop games the rarer shapes (accusations, hidden evidence, looks,
    rewards tuples) come back too."""
    seen_tasks: set[str] = set()
    seen_ctx: set[str] = set()
    for seed in range(3):
        for st in _states({"players": 5, "dirty_cop": True}, 100 + seed, 0.5):
            _check(st)
            seen_tasks.update(t[0] for t in st.todo)
            seen_ctx.add(st.ctx.get("kind", ""))
    assert "accuse" in seen_ctx
    assert len(seen_tasks) >= 40, sorted(seen_tasks)


def test_largest_setup_fits() -> None:
    """The longest queue the options allow (8 seats dealt 7 cards each, 6 emergencies) converts; its
    length, counted here from the rules' set-up, stays inside the bound."""
    longest = 0
    for i, st in enumerate(_states(LARGEST, 5, 0.0)):
        _check(st)
        longest = max(longest, len(st.todo))
        if i > 400:
            break
    # set-up pushes 8 * 7 deals in front of 6 punks, 2 stacks, 6 emergencies and the first turn
    assert longest >= 8 * 7 + 6 + 2 + 6 + 1 - 1
    assert longest <= _module().BOUNDS["PS_MAX_TODO"]


def test_copy_is_equal_and_independent() -> None:
    """copy() gives the same state in a new object; the original is untouched by converting another."""
    m = _module()
    states = []
    for i, st in enumerate(_states({"players": 4, "dirty_cop": True}, 3, 0.0)):
        if i in (40, 400):
            states.append((st.clone(), m.PrecinctCState.from_state(st)))
        if i > 400:
            break
    (st_a, a), (st_b, b) = states
    a2 = a.copy()
    assert a2 is not a and a2.to_core() == a.to_core() == canonical(st_a)
    assert b.copy().to_core() == canonical(st_b) != canonical(st_a)


#: one task of every kind, written from the rules' push calls, with every string an arg can take (some
#: kinds, like "resolve", run before any decision and so never show in a played state's queue)
EVERY_TASK: list[tuple[Any, ...]] = [
    ("car", 1), ("start", 2), ("move", 3), ("support", 0, 1), ("discard", 1, "limit"),
    ("discard", 2, "hospital"), ("discard", 3, "gas"), ("action", 0), ("claim", 1), ("officers", 2),
    ("swat", 3), ("donuts", 0), ("help", 7), ("fed", 1, (0, 4)), ("fed", 2, ()), ("second", 1),
    ("reward", 0, (1, 3)), ("reward", 0, (2,)), ("deck", 0, "look2"), ("deck", 1, "insider"),
    ("deck", 2, "fresh"), ("order", 1, 3, 2, "look2"), ("order", 0, 0, 3, "fresh"), ("upgrade", 2),
    ("donate", 3), ("hood", 0, "outreach"), ("hood", 1, "incite"), ("hood", 2, "officer"),
    ("dispatch", 1), ("tow", 2), ("target", 3), ("event_look", 0), ("van", 1, 15, 63),
    ("pick", 7), ("sabotage", 4), ("loyalty", 5),
    ("deal_loyalty", 6), ("setup_punk",), ("stack_block", "interview"), ("stack_block", "weapon"),
    ("deal_police", 2, 0), ("deal_police", 3, 1), ("setup_emergency",), ("event_draw", 1),
    ("peek_event", 2), ("place_roll", 63, "apartment", 1), ("place_roll", 5, "warehouse", 0),
    ("place_roll", 6, "hood", 0), ("punk_roll", 1), ("special_roll", 30, "riot"),
    ("special_roll", 31, "down"), ("special_roll", 32, "theft"), ("gang", 6), ("gas", 15),
    ("drive", 3), ("inv_draw", 0), ("look", 1, 3, 2, "insider"), ("arrest_roll", 2), ("em_roll", 3),
    ("unknown", 9),
    ("setup_deal",), ("first_turn",), ("turn_start", 3, 1), ("turn_start", 0, 0), ("after_move", 1),
    ("police_phase", 2), ("hand_limit", 3), ("end_turn", 0), ("event_phase", 1),
    ("resolve", -1, 20, 1), ("resolve", 2, 36, 0), ("gas_fixed", 1, 4), ("escape", 5),
    ("inv_done", 2), ("take_reward", 3, 4), ("accused", 0),
]


def test_every_task_kind_round_trips() -> None:
    """Each task kind, with each string its args take, comes back as the same tuple, in queue order."""
    registered = set(tasks.DECISIONS) | set(tasks.CHANCES) | set(tasks.AUTOS)
    assert {t[0] for t in EVERY_TASK} == registered
    st = _midgame()
    st.todo = list(EVERY_TASK)
    core = _module().PrecinctCState.from_state(st).to_core()
    assert _typed(core["todo"]) == _typed(EVERY_TASK)


def test_task_table_matches_the_rules() -> None:
    """The C task kinds are exactly the registered ones, decisions by cop, by seat, chances, autos in
    their ranges."""
    names = _module().TASK_NAMES
    assert names[0] == "" and len(set(names)) == len(names) == 60
    registered = set(tasks.DECISIONS) | set(tasks.CHANCES) | set(tasks.AUTOS)
    assert set(names[1:]) == registered
    kinds = [("cop" if n in tasks.DECISIONS and tasks.DECISIONS[n][0] == "cop" else
              "seat" if n in tasks.DECISIONS else "chance" if n in tasks.CHANCES else "auto")
             for n in names[1:]]
    assert kinds == sorted(kinds, key=["cop", "seat", "chance", "auto"].index)


# --- bounds --------------------------------------------------------------------------------------
def _midgame() -> PrecinctState:
    for i, st in enumerate(_states({"players": 4}, 7, 0.0)):
        if i == 120:
            return st.clone()
    raise AssertionError("the game ended too soon")


def test_bounds_raise_bad_state_not_overflow() -> None:
    """One past each bound raises BadStateError; exactly at the bound converts."""
    m = _module()
    b = m.BOUNDS

    st = _midgame()
    cop = st.cops[0]
    cop.hand, cop.fresh = [0] * b["PS_MAX_HAND"], [False] * b["PS_MAX_HAND"]
    assert m.PrecinctCState.from_state(st).to_core()["cops"][0]["hand"] == [0] * b["PS_MAX_HAND"]
    cop.hand.append(1)
    cop.fresh.append(True)
    with pytest.raises(BadStateError, match="hand"):
        m.PrecinctCState.from_state(st)

    st = _midgame()
    st.todo = [("end_turn", 0)] * b["PS_MAX_TODO"]
    assert m.PrecinctCState.from_state(st).todo_len == b["PS_MAX_TODO"]
    st.todo.append(("end_turn", 0))
    with pytest.raises(BadStateError, match="queue"):
        m.PrecinctCState.from_state(st)

    st = _midgame()
    st.event_bottom = [(0, frozenset({1}))] * (b["PS_MAX_EVENT_BOTTOM"] + 1)
    with pytest.raises(BadStateError, match="event_bottom"):
        m.PrecinctCState.from_state(st)

    st = _midgame()
    st.stacks[0].top = [(True, frozenset({0}))] * (b["PS_MAX_KNOWN"] + 1)
    with pytest.raises(BadStateError, match="known top"):
        m.PrecinctCState.from_state(st)

    st = _midgame()
    st.gang_pool = list(range(b["PS_MAX_GANGS"] + 1))
    with pytest.raises(BadStateError, match="gang"):
        m.PrecinctCState.from_state(st)


@pytest.mark.parametrize("doctor", [
    lambda st: st.todo.insert(0, ("no_such_task", 0)),
    lambda st: st.todo.insert(0, ("discard", 0, "bored")),
    lambda st: st.todo.insert(0, ("move", True)),
    lambda st: st.todo.insert(0, ("move", 0, 1)),
    lambda st: st.ctx.update(kind="emergency", cop=0, slot=0, n=3, sym=0, extra=1),
    lambda st: st.ctx.update(kind="investigate", cop=0, deck=0, n=3, sym=0, size=4),
    lambda st: setattr(st.cops[0], "donuts", 40000),
    lambda st: setattr(st.cops[0], "marked", 1),
    lambda st: st.slots.__setitem__(0, Slot(0, 0, 3, building="Nowhere")),
    lambda st: st.peeks[0].add(9),
], ids=["task-kind", "task-string", "task-bool", "task-arity", "ctx-key", "ctx-partial-draw",
        "int16-range", "bool-type", "building", "seat-range"])
def test_shapes_the_rules_never_make_are_refused(doctor: Any) -> None:
    st = _midgame()
    st.ctx = {}
    doctor(st)
    with pytest.raises(BadStateError):
        _module().PrecinctCState.from_state(st)
