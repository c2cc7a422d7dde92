"""The compiled Precinct playout heuristic (``ext/precinct_policy.pyx``) against the Python bot.

Seeded games are played with the Python rules, every seat by :func:`bots.precinct.search.heuristic_action`
(ties broken by one SplitMix64 stream; in a third of the games a uniformly random legal action three
times in ten), chance drawn by its probabilities from a numpy Generator. At every decision with a
choice (every rule of :func:`bots.precinct.heuristic.score`: pick, move, support, the PHASE 2 action,
claim, help, donuts, sabotage, loyalty and the smaller decisions of ``_other``) a C state is built from
the Python state and the kernel's score of each legal action must equal ``score`` on the seat's
:func:`~solver.games.precinct.view.policy_data` (to 1e-9; the port keeps Python's arithmetic, so they
are in fact equal), and the kernel's choice, from the same SplitMix64 state, must equal
``heuristic_action``'s, leaving the stream in the same state. The counts of checked decisions are
asserted per rule (and per task for ``_other``), so a decision that silently stops being exercised
fails the test; doctored positions cover the rules the games seldom reach.

The compiled module is imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when it is built; they skip when it is not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
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

from bots.precinct.heuristic import HIDE_THRESHOLD, score
from bots.precinct.search import heuristic_action
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.precinct import codec
from solver.games.precinct.content import UNKNOWN
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.games.precinct.view import policy_data

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> tuple[ModuleType | None, ModuleType | None]:
    try:
        return (importlib.import_module("solver._ext.precinct_policy"),
                importlib.import_module("solver._ext.precinct_state"))
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None, None


policy_mod, state_mod = _import_compiled()
pytestmark = pytest.mark.skipif(
    policy_mod is None or state_mod is None,
    reason="solver._ext.precinct_policy is not built (pip install -e . needs Cython and a C compiler)",
)

CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "dirty_cop": True},
    {"players": 5, "dirty_cop": True},
    {"players": 3, "dirty_cop": True, "support_vehicles": 2},  # the support vehicles' decision
]
#: (seed, the share of decisions played by a uniformly random legal action instead of the heuristic:
#: random picks give the characters the heuristic's team balance never picks, random moves other boards)
GAMES = ((31, 0.0), (32, 0.0), (33, 0.0), (34, 0.0), (41, 0.3), (42, 0.3))
#: games whose characters are picked in this order (Brody: fast, motorcycle; Costello: canvasser ...):
#: the heuristic's own picks leave some powers out; (config, seed, character indices)
CASTS: tuple[tuple[dict[str, Any], int, tuple[int, ...]], ...] = (
    ({"players": 4, "dirty_cop": True}, 51, (6, 0, 5, 7)),
    ({"players": 5, "dirty_cop": True}, 52, (0, 6, 1, 2, 3)),
    ({"players": 4}, 53, (6, 4, 0, 3)),
)
#: decisions of each kind (heuristic.score's rule; "other T": _other at task T) checked at least this often
#: over the 24 games (about two thirds of the counts when this was written: a kind no longer exercised fails)
MINIMUM = {"move": 700, "action": 700, "pick": 80, "support": 300, "claim": 15, "claim dirty": 15,
           "help": 1800, "donuts": 400, "sabotage": 40, "loyalty": 25, "other": 2000,
           "other car": 70, "other start": 1000, "other reward": 200, "other hood": 100, "other deck": 50,
           "other order": 40, "other discard": 120, "other event_look": 12, "other dispatch": 180,
           "other van": 10, "other officers": 25, "other upgrade": 8, "other tow": 8, "other swat": 5,
           "other fed": 2, "other target": 10, "other donate": 40}
#: ... and this many of them with a tie broken by a draw (both sides must draw the same way)
MINIMUM_TIES = {"move": 80, "help": 100, "other": 150, "pick": 10, "support": 30}


def _mods() -> tuple[Any, Any]:
    if policy_mod is None or state_mod is None:
        raise AssertionError("solver._ext.precinct_policy is not built")
    return policy_mod, state_mod


def _python_dispatch(st: PrecinctState, legal: list[int]) -> str:
    """Which of heuristic.score's rules scores ``legal`` (it reads the decision off the blocks, in this
    order; the help window needs a roll under way, the view's ``roll``: the state's ctx)."""
    blocks = {codec.block_of(a)[0] for a in legal}
    for block, kind in ((codec.PICK, "pick"), (codec.MOVE, "move"), (codec.SUPPORT, "support"),
                        (codec.NO_ACTION, "action"), (codec.PLACE, "claim")):
        if block in blocks:
            return kind
    if st.ctx and blocks & {codec.HELP, codec.PLAY}:
        return "help"
    for block, kind in ((codec.DONUTS, "donuts"), (codec.SABOTAGE, "sabotage"), (codec.LOYALTY, "loyalty")):
        if block in blocks:
            return kind
    return "other"


def _play(config: dict[str, Any], seed: int, explore: float, checked: Counter[str], ties: Counter[str],
          clock: Counter[str], cast: tuple[int, ...] = ()) -> None:
    m, sm = _mods()
    game = PrecinctGame(**config)
    policy = m.PrecinctCPolicy(game)
    st: PrecinctState = game.new_initial_state()
    rng = np.random.default_rng(seed)
    stream = SplitMix64(seed)
    steps = 0
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            st.apply_unchecked(int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0]))
            continue
        legal = st.legal_actions()
        task = st.todo[0][0]
        if len(legal) > 1:
            kind = _python_dispatch(st, legal)
            where = f"{config} seed {seed} step {steps} task {st.todo[0]} ({kind})"
            t0 = time.perf_counter()
            want = score(game, policy_data(st, st.current_player()), legal, HIDE_THRESHOLD)
            t1 = time.perf_counter()
            cs = sm.PrecinctCState.from_state(st)
            t2 = time.perf_counter()
            got = policy.scores(cs, legal)
            t3 = time.perf_counter()
            clock["python"] += t1 - t0
            clock["from_state"] += t2 - t1
            clock["c"] += t3 - t2
            clock["decisions"] += 1
            assert got is not None, where
            for (a, s, why), g in zip(want, got, strict=True):
                assert abs(s - g) <= 1e-9, f"{where} action {game.action_to_str(a)}: {g} != {s} ({why})"
            checked[kind] += 1
            if kind == "other":
                checked[f"other {task}"] += 1
            if kind == "claim" and st.loyalty[st.current_player()]:  # the hide rule, not "a good cop places"
                checked["claim dirty"] += 1
                checked["claim hide"] += any(a == codec.HIDE and s > 0.5 for a, s, _ in want)
            top = max(s for _, s, _ in want)
            if sum(s >= top - 1e-9 for _, s, _ in want) > 1:
                ties[kind] += 1
            if kind == "pick" and cast:  # the cast's pick, not the heuristic's (the stream is not drawn)
                action = next(codec.PICK + c for c in cast if codec.PICK + c in legal)
            else:
                before = stream.state
                choice, after = policy.choose(cs, legal, before)
                action = heuristic_action(st, stream)
                assert (choice, after) == (action, stream.state), where
        else:
            action = legal[0]
        if explore and rng.random() < explore:  # off the heuristic's path: other characters, other boards
            action = legal[int(rng.integers(len(legal)))]
        st.apply_unchecked(action)
        steps += 1


def test_scores_and_choices_equal_python() -> None:
    """Every decision with a choice of seeded heuristic games: the same scores, the same choice."""
    checked: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    clock: Counter[str] = Counter()
    for config in CONFIGS:
        for seed, explore in GAMES:
            _play(config, seed, explore, checked, ties, clock)
    for config, seed, cast in CASTS:
        _play(config, seed, 0.0, checked, ties, clock, cast)
    print(f"\nchecked {dict(sorted(checked.items()))}, ties {dict(sorted(ties.items()))}")
    for kind, least in MINIMUM.items():
        assert checked[kind] >= least, (kind, checked)
    for kind, least in MINIMUM_TIES.items():
        assert ties[kind] >= least, (kind, ties)
    n = clock["decisions"]
    print(f"\nprecinct policy: {dict(checked)} checked, ties {dict(ties)}; per decision: python score "
          f"{1e6 * clock['python'] / n:.0f} us (policy_data included), C scores "
          f"{1e6 * clock['c'] / n:.1f} us (+ from_state {1e6 * clock['from_state'] / n:.1f} us)")


def test_best_at_equals_python_on_every_street() -> None:
    """Reader.best_at for every street at the first move decisions of a dirty-cop game."""
    from bots.precinct.heuristic import Reader

    m, sm = _mods()
    game = PrecinctGame(players=4, dirty_cop=True)
    policy = m.PrecinctCPolicy(game)
    st = game.new_initial_state()
    rng = np.random.default_rng(5)
    stream = SplitMix64(5)
    seen = 0
    while not st.is_terminal() and seen < 40:
        if st.current_player() == CHANCE:
            out = st.chance_outcomes()
            st.apply_unchecked(int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0]))
            continue
        if st.todo[0][0] == "move":
            reader = Reader(game, policy_data(st, st.current_player()))
            cop = reader.acting_cop()
            assert cop == st.todo[0][1]
            cs = sm.PrecinctCState.from_state(st)
            for s in range(len(game.city.streets)):
                assert policy.best_at(cs, s) == reader.best_at(cop, s)[0], (seen, s)
            seen += 1
        st.apply_unchecked(heuristic_action(st, stream))
    assert seen >= 30


def _doctor(st: PrecinctState, variant: int, k: int) -> None:
    """Change ``st`` where seeded games seldom go: every marker slot's Unknown Circumstances marker
    revealed (kind ``k`` onwards: respect, big knife, ...), the suspicion of a dirty cop (three empty
    investigations each, donuts for the team), a hand with one police card of every kind, or with one
    card only (the gas leak needs two)."""
    if variant == 0:
        for e, slot in enumerate(st.slots):
            if slot is not None and st.game.content.events[slot.card].unknown:
                slot.unknown = (k + e) % len(UNKNOWN)
    elif variant == 1:
        for cop in st.cops:
            cop.empty, cop.donuts = 3, 1
    else:
        cop = st.cops[st.todo[0][1]]
        cop.hand = list(range(len(st.game.content.police))) if variant == 2 else [0]
        cop.fresh = [False] * len(cop.hand)


def test_doctored_positions_equal_python() -> None:
    """The rare rules (revealed markers, a suspected dirty cop, every police card's text) on positions
    doctored from seeded games' move and action decisions: the same scores."""
    m, sm = _mods()
    checked: Counter[int] = Counter()
    for config, seed in (({"players": 4, "dirty_cop": True}, 61), ({"players": 5, "dirty_cop": True}, 62)):
        game = PrecinctGame(**config)
        policy = m.PrecinctCPolicy(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        stream = SplitMix64(seed)
        decisions = 0
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                out = st.chance_outcomes()
                st.apply_unchecked(int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0]))
                continue
            if st.todo[0][0] in ("move", "action"):
                for variant in range(4):
                    doctored = st.clone()
                    _doctor(doctored, variant, decisions)
                    legal = doctored.legal_actions()
                    if len(legal) < 2 or _python_dispatch(doctored, legal) != st.todo[0][0]:
                        continue
                    data = policy_data(doctored, doctored.current_player())
                    want = score(game, data, legal, HIDE_THRESHOLD)
                    got = policy.scores(sm.PrecinctCState.from_state(doctored), legal)
                    where = f"{config} seed {seed} decision {decisions} variant {variant}"
                    assert got is not None, where
                    for (a, s, why), g in zip(want, got, strict=True):
                        assert abs(s - g) <= 1e-9, f"{where} {game.action_to_str(a)}: {g} != {s} ({why})"
                    checked[variant] += 1
                decisions += 1
            st.apply_unchecked(heuristic_action(st, stream))
    assert all(checked[v] >= 100 for v in range(4)), checked


def _rare(st: PrecinctState, step: int) -> list[tuple[str, PrecinctState]]:
    """Doctored copies of ``st`` for rules the seeded games seldom or never reach: a dirty cop's claim
    from stacks thinned with useless cards (the hide rule both ways), a help window on an emergency under
    each revealed marker (hostage and bomb cancel the symbols; the roller's car reads respect and
    disrespect), the Federal Agent's second emergency, and the top event card looked at (harmless or
    not) or unseen."""
    game = st.game
    task = st.todo[0]
    out: list[tuple[str, PrecinctState]] = []
    if task[0] == "claim":
        for extra in (0, 2, 5, 9):
            d = st.clone()
            d.stacks[d.ctx["deck"]].useless += extra
            out.append(("claim", d))
    if task[0] == "help" and st.ctx.get("kind") in ("emergency", "officer_down"):
        for u in (UNKNOWN.index("hostage"), UNKNOWN.index("bomb"), UNKNOWN.index("respect"),
                  UNKNOWN.index("disrespect"), UNKNOWN.index("big_knife"), -2):
            d = st.clone()
            slot = d.slots[d.ctx["slot"]]
            if slot is not None:
                slot.unknown = u
                out.append(("help marker", d))
    if task[0] == "move":
        d = st.clone()
        d.todo.insert(0, ("second", task[1]))
        out.append(("other second", d))
        seat = st.cops[task[1]].seat
        events = game.content.events
        harmless = next(k for k, e in enumerate(events) if e.special == "dedicated_officer")
        for kind in (step % len(events), harmless):
            for who in (frozenset({seat}), frozenset()):
                d = st.clone()
                d.event_top = [(kind, who)]
                d.todo.insert(0, ("event_look", task[1]))
                out.append(("other event_look", d))
    return out


def test_doctored_rare_decisions_equal_python() -> None:
    """The rare rules of the smaller decisions on positions doctored from seeded dirty-cop games: the same
    scores as heuristic.score, and the hide rule chosen both ways."""
    m, sm = _mods()
    checked: Counter[str] = Counter()
    for config, seed in (({"players": 4, "dirty_cop": True}, 71), ({"players": 5, "dirty_cop": True}, 72),
                         ({"players": 3, "dirty_cop": True}, 73)):
        game = PrecinctGame(**config)
        policy = m.PrecinctCPolicy(game)
        st = game.new_initial_state()
        rng = np.random.default_rng(seed)
        stream = SplitMix64(seed)
        step = 0
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                out = st.chance_outcomes()
                st.apply_unchecked(int(out[int(rng.choice(len(out), p=[p for _, p in out]))][0]))
                continue
            for what, doctored in _rare(st, step):
                legal = doctored.legal_actions()
                if len(legal) < 2:
                    continue
                data = policy_data(doctored, doctored.current_player())
                want = score(game, data, legal, HIDE_THRESHOLD)
                got = policy.scores(sm.PrecinctCState.from_state(doctored), legal)
                where = f"{config} seed {seed} step {step} {what} {doctored.todo[0]}"
                assert got is not None, where
                for (a, s, why), g in zip(want, got, strict=True):
                    assert abs(s - g) <= 1e-9, f"{where} {game.action_to_str(a)}: {g} != {s} ({why})"
                checked[what] += 1
                if what == "claim":
                    checked["claim hide" if dict((a, s) for a, s, _ in want)[codec.HIDE] > 0.5 else
                            "claim place"] += 1
                if what == "other event_look":
                    checked["keep" if dict((a, s) for a, s, _ in want)[codec.KEEP] > 0.5 else "bottom"] += 1
            st.apply_unchecked(heuristic_action(st, stream))
            step += 1
    print(f"\ndoctored rare decisions: {dict(sorted(checked.items()))}")
    least = {"claim": 20, "claim hide": 3, "claim place": 3, "help marker": 30, "other second": 5,
             "other event_look": 100, "keep": 10, "bottom": 10}
    assert all(checked[k] >= n for k, n in least.items()), checked
