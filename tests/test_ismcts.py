"""ISMCTS: determinism, statistics invariants, tactics, budgets, and the compiled kernel's equality.

The pure-Python reference (solver/search/ismcts.py) and the compiled kernel (ext/ismcts.pyx) must
return the same choice and statistics for the same determinizer and seed; the kernel runs Python
simulators through its PySim adapter, so the equality is tested on the toy game, on Police 07's
Python rules, on a synthetic game whose legal actions vary inside an information set, and (once the
game's simulator is built) on Police 07's compiled simulator against its pure twin.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core import TERMINAL, Action, BadStateError, ConfigError, Game, Seat, View, stable_hash
from solver.core.rng import SplitMix64
from solver.search.ismcts import (
    Budget,
    SearchParams,
    SearchResult,
    choose,
    kernel_available,
    run_search,
    search,
)
from solver.search.sim import ResampleDeterminizer
from tests.toygame import HiddenPass

needs_kernel = pytest.mark.skipif(
    not kernel_available(), reason="compiled ISMCTS kernel not built (or COPSOLVER_PUREPYTHON=1)"
)

# Positions found by seeded random play (players=3: seat 1 plays pieces 1-2, seat 2 pieces 3-4).
# CAPTURE: Dr. Factor's 3rd move is shown at 176, detective piece 1 rides the bus there.
CAPTURE = ["start 96", "start 192", "start 150", "start 78", "start 40", "taxi 80", "taxi 189", "taxi 146",
           "taxi 79", "taxi 49", "joker bus 175", "taxi 179", "taxi 143", "taxi 87", "metro 46",
           "joker taxi 176"]
# TRAP: Dr. Factor's 3rd move (shown); "metro 49" ends next to a detective piece that moves next.
TRAP = ["start 128", "start 156", "start 40", "start 170", "start 139", "joker taxi 134", "taxi 159",
        "taxi 33", "taxi 167", "taxi 126", "joker taxi 141", "taxi 61", "taxi 40", "taxi 170", "taxi 122"]


def police_view(actions: list[str], players: int = 3) -> tuple[Game, View]:
    game = solver.games.load("police07", players=players)
    state = game.new_initial_state()
    for text in actions:
        state.apply_str(text)
    return game, state.view(state.current_player())


def toy_view(seed: int) -> tuple[Game, View]:
    """A Hidden Pass decision after the deal (seat and cards from ``seed``)."""
    game = HiddenPass(players=3, rounds=2)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.current_player() < 0 or rng.random() < 0.4:
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    return game, state.view(state.current_player())


# --- a synthetic game whose legal actions vary inside an information set -------------------------
class VaryingSim:
    """Two seats alternate for four turns; a hidden h in 0..3 decides which three actions are legal.

    Keys ignore h, so one node meets different legal sets: availability counts differ from visits,
    and the kernel has to widen a node's edges.
    """

    num_players = 2

    def __init__(self, hidden: int, history: tuple[int, ...] = ()) -> None:
        self.hidden = hidden
        self.history = list(history)

    def current_player(self) -> Seat:
        return TERMINAL if len(self.history) >= 4 else len(self.history) % 2

    def legal_actions(self) -> list[Action]:
        shift = (self.hidden + len(self.history)) % 4
        return [shift, shift + 2, shift + 5]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return []

    def apply(self, action: Action) -> None:
        self.history.append(action)

    def is_terminal(self) -> bool:
        return len(self.history) >= 4

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.5, 0.5]
        win = 1.0 if (sum(self.history) + self.hidden) % 3 == 0 else 0.0
        return [win, 1.0 - win]

    def key(self, seat: Seat) -> int:
        return stable_hash([seat, self.history])

    def default_action(self, rng: SplitMix64) -> Action:
        legal = self.legal_actions()
        return legal[rng.below(len(legal))]

    def copy(self) -> VaryingSim:
        return VaryingSim(self.hidden, tuple(self.history))


class VaryingDeterminizer:
    def sample(self, rng: SplitMix64) -> VaryingSim:
        return VaryingSim(rng.below(4))


class WrongSeatDeterminizer:
    def sample(self, rng: SplitMix64) -> VaryingSim:
        return VaryingSim(0, (1,))  # seat 1 to act, not the searching seat 0


class LeavingDeterminizer:
    """Every sample has seat 0 to act, but in a different information set each time."""

    def __init__(self) -> None:
        self.n = 0

    def sample(self, rng: SplitMix64) -> VaryingSim:
        self.n += 1
        return VaryingSim(0, (self.n, self.n))


class KeySpySim(VaryingSim):
    """A VaryingSim that records whose key the search asks for (into a list shared by its copies)."""

    def __init__(self, hidden: int, asked: list[Seat], history: tuple[int, ...] = ()) -> None:
        super().__init__(hidden, history)
        self.asked = asked

    def key(self, seat: Seat) -> int:
        self.asked.append(seat)
        return super().key(seat)

    def copy(self) -> KeySpySim:
        return KeySpySim(self.hidden, self.asked, tuple(self.history))


class KeySpyDeterminizer:
    def __init__(self) -> None:
        self.asked: list[Seat] = []

    def sample(self, rng: SplitMix64) -> KeySpySim:
        return KeySpySim(rng.below(4), self.asked)


class ExplodingSim(VaryingSim):
    def apply(self, action: Action) -> None:
        if len(self.history) == 2:
            raise RuntimeError("boom in apply")
        super().apply(action)


class ExplodingDeterminizer:
    def sample(self, rng: SplitMix64) -> ExplodingSim:
        return ExplodingSim(rng.below(4))


# --- cases ---------------------------------------------------------------------------------------
def toy_case(seed: int) -> tuple[Any, Seat]:
    game, view = toy_view(seed)
    return ResampleDeterminizer(game, view), view.seat


def police_case(actions: list[str]) -> tuple[Any, Seat]:
    game, view = police_view(actions)
    return ResampleDeterminizer(game, view), view.seat


CASES = {
    "toy-0": lambda: toy_case(0),
    "toy-5": lambda: toy_case(5),
    "police07-capture": lambda: police_case(CAPTURE),
    "police07-trap": lambda: police_case(TRAP),
    "varying": lambda: (VaryingDeterminizer(), 0),
}


def run(case: str, iterations: int, seed: int, engine: str = "pure", **params: Any) -> SearchResult:
    det, seat = CASES[case]()
    return run_search(det, seat, Budget(iterations=iterations), SplitMix64(seed), SearchParams(**params),
                      engine=engine)  # type: ignore[arg-type]


# --- determinism and invariants ------------------------------------------------------------------
@pytest.mark.parametrize("case", list(CASES))
def test_same_seed_same_result(case: str) -> None:
    a, b = run(case, 60, 11), run(case, 60, 11)
    assert a.same_search(b) and a.stats == b.stats


def test_rng_is_advanced_by_the_search() -> None:
    det, seat = CASES["toy-0"]()
    rng = SplitMix64(3)
    search(det, seat, Budget(iterations=5), rng)
    assert rng.state != SplitMix64(3).state


@pytest.mark.parametrize("case", list(CASES))
def test_root_statistics(case: str) -> None:
    result = run(case, 80, 2)
    det, seat = CASES[case]()
    assert result.iterations == 80 and result.root_seat == seat
    assert sum(s.visits for s in result.stats) == 80
    assert all(s.availability >= s.visits for s in result.stats)
    assert [s.action for s in result.stats] == sorted(s.action for s in result.stats)
    assert 1 <= result.nodes <= 80
    if case == "varying":  # three of six actions legal in every determinization
        assert sum(s.availability for s in result.stats) == 3 * 80
        assert any(s.availability < 80 for s in result.stats)
    else:  # the root's legal actions are the view's, in every determinization
        assert all(s.availability == 80 for s in result.stats)


@pytest.mark.parametrize("case", ["toy-0", "toy-5", "police07-capture", "police07-trap"])
def test_only_legal_actions(case: str) -> None:
    det, seat = CASES[case]()
    legal = det.view.legal_actions
    for seed in range(3):
        result = run(case, 30, seed)
        assert result.action in legal
        assert [s.action for s in result.stats] == sorted(legal)


def test_budget_below_the_action_count_tries_distinct_actions() -> None:
    result = run("police07-trap", 5, 0)
    assert [s.visits for s in result.stats].count(1) == 5  # untried actions first, each once


def test_value_is_mean_reward_of_the_root_seat() -> None:
    result = run("varying", 200, 4)
    for s in result.stats:
        assert 0.0 <= s.value <= 1.0


def test_final_rules() -> None:
    a = run("police07-trap", 120, 1)
    b = run("police07-trap", 120, 1, final="value")
    assert a.stats == b.stats
    assert a.action == max(a.stats, key=lambda s: (s.visits, s.value, -s.action)).action
    visited = [s for s in b.stats if s.visits]
    assert b.action == max(visited, key=lambda s: (s.value, s.visits, -s.action)).action
    assert choose(a.stats, "visits") == a.action


# --- tactics --------------------------------------------------------------------------------------
def test_detective_captures_the_shown_factor() -> None:
    game, _ = police_view(CAPTURE)
    for seed in range(3):
        result = run("police07-capture", 200, seed)
        assert game.action_to_str(result.action) == "bus 176"
        assert result.ranked()[0].value == pytest.approx(1.0)


def test_factor_avoids_the_stop_next_to_a_detective() -> None:
    game, _ = police_view(TRAP)
    trap = game.str_to_action("metro 49")
    for seed in range(3):
        result = run("police07-trap", 300, seed)
        assert result.action != trap
        value = {s.action: s.value for s in result.stats}
        assert value[trap] < value[result.action]


# --- budgets and parameters -----------------------------------------------------------------------
@pytest.mark.parametrize("engine", ["pure", pytest.param("compiled", marks=needs_kernel)])
def test_seconds_budget_stops(engine: str) -> None:
    det, seat = CASES["toy-0"]()
    params = SearchParams(check_every=4)
    result = run_search(det, seat, Budget(seconds=0.05), SplitMix64(0), params, engine=engine)  # type: ignore[arg-type]
    assert result.elapsed >= 0.05
    assert result.iterations >= 4 and result.iterations % 4 == 0
    assert sum(s.visits for s in result.stats) == result.iterations


def test_both_limits_stop_at_the_first() -> None:
    det, seat = CASES["toy-0"]()
    result = run_search(det, seat, Budget(iterations=7, seconds=60.0), SplitMix64(0))
    assert result.iterations == 7


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "needs iterations or seconds"),
        ({"iterations": 0}, "iterations must be"),
        ({"iterations": True}, "iterations must be"),
        ({"iterations": 2.5}, "iterations must be"),
        ({"seconds": 0.0}, "seconds must be"),
        ({"seconds": float("inf")}, "seconds must be"),
    ],
)
def test_bad_budgets(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Budget(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"c": -1.0}, "c must be"),
        ({"c": float("nan")}, "c must be"),
        ({"max_playout_depth": 0}, "max_playout_depth"),
        ({"check_every": 0}, "check_every"),
        ({"final": "robust"}, "final must be"),
        ({"keys": "seat"}, "keys must be 'actor' or 'searcher'"),
    ],
)
def test_bad_params(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SearchParams(**kwargs)


def test_unknown_engine() -> None:
    det, seat = CASES["varying"]()
    with pytest.raises(ConfigError, match="engine must be"):
        run_search(det, seat, Budget(iterations=1), SplitMix64(0), engine="gpu")  # type: ignore[arg-type]


def test_auto_engine_runs_python_determinizers_in_python() -> None:
    det, seat = CASES["varying"]()
    assert run_search(det, seat, Budget(iterations=3), SplitMix64(0)).engine == "pure"


# --- broken determinizers and sims ----------------------------------------------------------------
ENGINES = ["pure", pytest.param("compiled", marks=needs_kernel)]


@pytest.mark.parametrize("engine", ENGINES)
def test_determinization_with_the_wrong_seat(engine: str) -> None:
    with pytest.raises(BadStateError, match="seat 1 to act, not the searching seat 0"):
        run_search(WrongSeatDeterminizer(), 0, Budget(iterations=3), SplitMix64(0), engine=engine)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_determinization_outside_the_root_information_set(engine: str) -> None:
    with pytest.raises(BadStateError, match="left the root information set"):
        run_search(LeavingDeterminizer(), 0, Budget(iterations=3), SplitMix64(0), engine=engine)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_sim_errors_propagate(engine: str) -> None:
    with pytest.raises(RuntimeError, match="boom in apply"):
        run_search(ExplodingDeterminizer(), 0, Budget(iterations=5), SplitMix64(0), engine=engine)  # type: ignore[arg-type]


@needs_kernel
def test_kernel_refuses_an_endless_search() -> None:
    kernel = importlib.import_module("solver._ext.ismcts")
    det = kernel.PyDeterminizer(VaryingDeterminizer())
    with pytest.raises(ValueError, match="needs iterations > 0 or seconds > 0"):
        kernel.search(det, 0, 0, 0.0, SplitMix64(0), 0.7, 10, 16)
    with pytest.raises(ValueError, match="check_every must be at least 1"):
        kernel.search(det, 0, 0, 1.0, SplitMix64(0), 0.7, 10, 0)


# --- node keys ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("keys", ["actor", "searcher"])
def test_node_keys_read_the_right_seats_key(engine: str, keys: str) -> None:
    # "actor": every deciding seat's own key; "searcher": only the root seat's, at every node
    det = KeySpyDeterminizer()
    result = run_search(det, 0, Budget(iterations=40), SplitMix64(0), SearchParams(keys=keys),  # type: ignore[arg-type]
                        engine=engine)  # type: ignore[arg-type]
    assert result.nodes > 1  # the walks went below the root, to seat 1's decisions
    assert set(det.asked) == ({0} if keys == "searcher" else {0, 1})


class PrivateSim(VaryingSim):
    """Seat 1 sees the hidden h, seat 0 does not; three actions at every turn (four turns)."""

    def legal_actions(self) -> list[Action]:
        return [0, 1, 2]

    def key(self, seat: Seat) -> int:
        return stable_hash([seat, self.history, self.hidden if seat == 1 else None])

    def copy(self) -> PrivateSim:
        return PrivateSim(self.hidden, tuple(self.history))


class PrivateDeterminizer:
    def sample(self, rng: SplitMix64) -> PrivateSim:
        return PrivateSim(rng.below(4))


@pytest.mark.parametrize("engine", ENGINES)
def test_searcher_keys_share_the_hidden_players_nodes(engine: str) -> None:
    # Seat 0 searches. Keyed by the actor, seat 1's decisions split by h (up to 4 * (3 + 27) nodes);
    # keyed by the searcher, they are seat 0's positions, one per history whatever h is: at most
    # 1 + 3 + 9 + 27 = 40 nodes in all.
    def nodes(keys: str) -> int:
        params = SearchParams(keys=keys)  # type: ignore[arg-type]
        result = run_search(PrivateDeterminizer(), 0, Budget(iterations=1000), SplitMix64(1), params,
                            engine=engine)  # type: ignore[arg-type]
        return result.nodes

    assert nodes("searcher") <= 40 < nodes("actor")


# --- the compiled kernel equals the reference ---------------------------------------------------------
@needs_kernel
@pytest.mark.parametrize("keys", ["actor", "searcher"])
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize(("iterations", "seed"), [(1, 0), (7, 1), (150, 2), (400, 3)])
def test_compiled_equals_pure(case: str, iterations: int, seed: int, keys: str) -> None:
    det, seat = CASES[case]()
    params = SearchParams(keys=keys)  # type: ignore[arg-type]
    rng_pure, rng_compiled = SplitMix64(seed), SplitMix64(seed)
    pure = run_search(det, seat, Budget(iterations=iterations), rng_pure, params, engine="pure")
    compiled = run_search(det, seat, Budget(iterations=iterations), rng_compiled, params, engine="compiled")
    assert (pure.engine, compiled.engine) == ("pure", "compiled")
    assert pure.same_search(compiled, tol=1e-12), (pure.stats, compiled.stats)
    assert rng_pure.state == rng_compiled.state  # the same draws, in the same order


@needs_kernel
@pytest.mark.parametrize("params", [{"c": 0.0}, {"c": 2.5}, {"max_playout_depth": 1}, {"final": "value"},
                                    {"keys": "searcher", "c": 1.5, "max_playout_depth": 3}])
def test_compiled_equals_pure_with_params(params: dict[str, Any]) -> None:
    for case in ("toy-0", "police07-trap", "varying"):
        pure = run(case, 120, 9, "pure", **params)
        compiled = run(case, 120, 9, "compiled", **params)
        assert pure.same_search(compiled), (case, pure.stats, compiled.stats)


# --- Police 07's simulator (pure twin and compiled) -------------------------------------------------
def _p07sim() -> Any:
    try:
        return importlib.import_module("solver.games.police07.sim")
    except ImportError:
        pytest.skip("solver.games.police07.sim is not there yet")


def _p07_determinizers(actions: list[str], players: int = 3, **options: Any) -> tuple[Any, Any, Seat]:
    module = _p07sim()
    game, view = police_view(actions, players)
    tables = module.SimTables.for_searcher(game, view.seat, **options)
    pure = module.P07Determinizer(game, view, tables)
    compiled = module.make_determinizer(game, view, tables)
    return pure, compiled, view.seat


@pytest.mark.parametrize("actions", [CAPTURE, TRAP], ids=["capture", "trap"])
def test_p07sim_search_is_legal_and_tactical(actions: list[str]) -> None:
    pure, _, seat = _p07_determinizers(actions)
    game, view = police_view(actions)
    result = run_search(pure, seat, Budget(iterations=200), SplitMix64(1), engine="pure")
    assert result.action in view.legal_actions
    assert sum(s.visits for s in result.stats) == 200
    if actions is CAPTURE:
        assert game.action_to_str(result.action) == "bus 176"
    else:
        assert game.action_to_str(result.action) != "metro 49"


#: Simulator options of the NW2012 configuration (filtered tree, per-stop joker rule, split ε).
NW_TABLES = {"filter_tree": True, "joker_filter": "same_stop", "epsilon": 0.2, "epsilon_factor": 0.05}


@needs_kernel
@pytest.mark.parametrize("keys", ["actor", "searcher"])
@pytest.mark.parametrize("tables", [{}, NW_TABLES], ids=["default", "nw"])
@pytest.mark.parametrize("actions", [CAPTURE, TRAP], ids=["capture", "trap"])
@pytest.mark.parametrize(("iterations", "seed"), [(1, 0), (50, 1), (500, 2)])
def test_compiled_p07sim_equals_pure_p07sim(actions: list[str], iterations: int, seed: int,
                                            tables: dict[str, Any], keys: str) -> None:
    pure_det, compiled_det, seat = _p07_determinizers(actions, **tables)
    from solver.search.ismcts import is_compiled_determinizer

    if not is_compiled_determinizer(compiled_det):
        pytest.skip("the compiled Police 07 simulator is not built")
    params = SearchParams(keys=keys)  # type: ignore[arg-type]
    rng_pure, rng_compiled = SplitMix64(seed), SplitMix64(seed)
    pure = run_search(pure_det, seat, Budget(iterations=iterations), rng_pure, params, engine="pure")
    compiled = run_search(compiled_det, seat, Budget(iterations=iterations), rng_compiled, params)
    assert compiled.engine == "compiled"
    assert pure.same_search(compiled, tol=1e-12), (pure.stats, compiled.stats)
    assert rng_pure.state == rng_compiled.state
