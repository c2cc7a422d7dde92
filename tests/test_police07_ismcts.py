"""Police 07's ``ismcts`` bot (:mod:`bots.police07.ismcts`): registered for police07, its role options,
beliefs and simulator, legal play, the decision's time budget, advice that leaks nothing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import bots
from bots import ismcts_bot
from bots.base import Bot
from bots.ismcts_bot import ISMCTSBot
from bots.police07.ismcts import Police07ISMCTSBot
from solver import games
from solver.core import ConfigError, State, View
from solver.search.ismcts import Budget, SearchParams, kernel_available
from tests.test_bots import play
from tests.test_ismcts_bot import FakeClock, spy_search
from tests.toygame import HiddenPass

PREFIX = ["start 96", "start 192", "start 150", "start 78", "start 40", "taxi 80", "taxi 189", "taxi 146",
          "taxi 79", "taxi 49"]  # players=3; Dr. Factor's 2nd move (hidden) comes next


GAME = games.load("police07", players=3)


def police_state(actions: list[str]) -> State:
    state = GAME.new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


# --- registry and options ----------------------------------------------------------------------
def test_registered_for_police07_and_listed() -> None:
    assert "ismcts" in bots.available("police07")
    bot = bots.make("police07", "ismcts", seat=1, rng=0, iterations=10)
    assert isinstance(bot, Police07ISMCTSBot) and bot.settings["iterations"] == 10


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "'iterations' must be in"),
        ({"seconds": 0.0}, "'seconds' must be in"),
        ({"seconds": "fast"}, "'seconds' must be a float"),
        ({"c": -0.1}, "'c' must be in"),
        ({"coalition_r": 1.0}, "'coalition_r' must be in"),
        ({"depth": 3}, "unknown option 'depth'"),
        ({"chase": "psychic"}, "'chase' must be one of auto, true, belief"),
        ({"factor_keys": "route"}, "'factor_keys' must be one of auto, path, stop"),
        ({"tree": "forest"}, "'tree' must be one of auto, actor, searcher"),
        ({"move_filter": "all"}, "'move_filter' must be one of auto, playout, tree"),
        ({"belief": "oracle"}, "'belief' must be one of filter, categories, uniform"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        bots.make("police07", "ismcts", seat=0, **options)


@pytest.mark.parametrize(("seat", "options", "expected"), [
    # auto, by role: Dr. Factor's single tree with transpositions, the detectives' single tree
    (0, {}, ("true", "stop", "searcher", False, False)),
    (1, {}, ("true", "path", "searcher", False, False)),
    (1, {"chase": "belief"}, ("belief", "path", "searcher", True, False)),
    (1, {"tree": "actor"}, ("true", "path", "actor", False, False)),
    (0, {"chase": "belief", "tree": "actor", "factor_keys": "path"},
     ("belief", "path", "actor", True, False)),
    (2, {"tree": "searcher", "factor_keys": "stop"}, ("true", "stop", "searcher", False, False)),
    (0, {"move_filter": "tree"}, ("true", "stop", "searcher", False, True)),
    (2, {"move_filter": "tree"}, ("true", "path", "searcher", False, True)),
])
def test_role_options_pick_the_search(
    seat: int, options: dict[str, str], expected: tuple[str, str, str, bool, bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """chase, factor_keys, tree and move_filter resolve ``auto`` by role and reach the sim tables and
    the search; the sim keeps the possible set only for the belief chase, which reads it."""
    from solver.games.police07 import sim

    seen: list[tuple[str, str, bool, bool, str]] = []

    def spy(game: Any, view: Any, tables: Any, belief: Any = None) -> Any:
        seen.append((tables.chase, tables.factor_keys, tables.track_possible, tables.filter_tree,
                     tables.joker_filter))
        return sim.P07Determinizer(game, view, tables, belief)

    monkeypatch.setattr(sim, "make_determinizer", spy)
    state = police_state(PREFIX)
    bot = bots.make(GAME, "ismcts", seat=seat, rng=0, **options)
    bot.determinizer(state.view(seat))
    chase, keys, tree, tracked, filtered = expected
    assert seen == [(chase, keys, tracked, filtered, "same_stop" if filtered else "all")]
    assert bot.params.keys == tree
@pytest.mark.parametrize(("belief", "module", "name"), [
    ("filter", "solver.belief.location_filter", "filtered_belief"),
    ("categories", "solver.belief.categories", "category_weights"),
])
def test_belief_option_picks_the_detectives_weights(
    belief: str, module: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    from solver.games.police07 import sim

    target = importlib.import_module(module)
    real = getattr(target, name)
    calls: list[str] = []
    seen: list[Any] = []

    def spy_weights(game: Any, view: Any, *args: Any) -> Any:
        calls.append(name)
        return real(game, view, *args)

    def spy(game: Any, view: Any, tables: Any, weights: Any = None) -> Any:
        seen.append(weights)
        return sim.P07Determinizer(game, view, tables, weights)

    monkeypatch.setattr(target, name, spy_weights)
    monkeypatch.setattr(sim, "make_determinizer", spy)
    state = police_state(PREFIX)
    bots.make(GAME, "ismcts", seat=1, rng=0, belief=belief).determinizer(state.view(1))
    assert calls == [name] and seen[0] == real(GAME, state.view(1).to_json())
    bots.make(GAME, "ismcts", seat=1, rng=0, belief="uniform").determinizer(state.view(1))
    assert seen[1] is None


def test_police_bot_refuses_other_games() -> None:
    with pytest.raises(ConfigError, match="plays police07 only"):
        Police07ISMCTSBot(HiddenPass(), 0, np.random.default_rng(0))


def test_budget_choice() -> None:
    bot = bots.make("police07", "ismcts", seat=0, iterations=33)
    assert isinstance(bot, ISMCTSBot)
    assert bot.budget().iterations == 33
    assert bot.budget(7).iterations == 7
    timed = bots.make("police07", "ismcts", seat=0, iterations=33, seconds=0.5)
    assert isinstance(timed, ISMCTSBot)
    assert timed.budget().seconds == 0.5 and timed.budget().iterations is None


# --- playing ----------------------------------------------------------------------------------
@pytest.mark.parametrize("role", ["factor", "detectives"])
def test_full_police07_games_are_legal(role: str) -> None:
    game = GAME
    seeds = np.random.default_rng(4)
    lineup: list[Bot] = []
    for seat in range(game.num_players):
        searching = (seat == 0) == (role == "factor")
        name = "ismcts" if searching else "heuristic"
        opts = {"iterations": 25} if searching else {}
        lineup.append(bots.make(game, name, seat=seat, rng=seeds, **opts))
    state = play(game, lineup, seed=1)
    assert state.is_terminal()


def test_same_seed_same_moves() -> None:
    state = police_state(PREFIX + ["taxi 87"])
    view = state.view(1)
    a = bots.make(GAME, "ismcts", seat=1, rng=5, iterations=60)
    b = bots.make(GAME, "ismcts", seat=1, rng=5, iterations=60)
    assert [a.step(view) for _ in range(3)] == [b.step(view) for _ in range(3)]


def test_seconds_budget() -> None:
    state = police_state(PREFIX)
    bot = bots.make(GAME, "ismcts", seat=0, rng=0, seconds=0.05)
    assert isinstance(bot, ISMCTSBot)
    assert bot.step(state.view(0)) in state.legal_actions()
    assert bot.last is not None and bot.last.iterations >= 1


# --- the time budget is the whole decision's ---------------------------------------------------


def slow_bot(name: str, seat: int, seconds: float,
             monkeypatch: pytest.MonkeyPatch) -> tuple[ISMCTSBot, list[tuple[Budget, SearchParams]]]:
    """Bot ``name`` for ``seat`` with a 0.05 s budget on a fake clock, whose determinizer takes
    ``seconds`` of it; and the list :func:`spy_search` fills."""
    bot = bots.make(GAME, name, seat=seat, rng=0, seconds=0.05)
    assert isinstance(bot, ISMCTSBot)
    clock = FakeClock()
    bot.clock = clock
    real = bot.determinizer

    def slow(view: View) -> Any:
        clock.now += seconds
        return real(view)

    monkeypatch.setattr(bot, "determinizer", slow)
    return bot, spy_search(monkeypatch)


@pytest.mark.parametrize(("name", "seat"), [("ismcts", 1), ("ismcts", 0), ("nw2012", 1), ("nw2012", 0)])
def test_the_determinizer_is_inside_the_seconds_budget(
    name: str, seat: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock starts when the bot is asked: what building the belief and the determinizer took
    is not searched, and the search keeps back the reserve for reading its result."""
    view = police_state(PREFIX + ["taxi 87"] if seat else PREFIX).view(seat)
    bot, seen = slow_bot(name, seat, 0.03, monkeypatch)
    assert bot.step(view) in view.legal_actions
    bot.advise(view)
    assert [b.seconds for b, _ in seen] == pytest.approx([0.05 - 0.03 - ismcts_bot.reserve(0.05)] * 2)
    assert all(b.iterations is None for b, _ in seen)
    # the bot's own with the compiled kernel; on the pure twins (Python rules) after every iteration
    assert seen[0][1].check_every == (bot.params.check_every if kernel_available() else 1)
    assert bot._decision is None  # the decision's clock stops with the decision


def test_a_decision_already_over_its_budget_searches_least(monkeypatch: pytest.MonkeyPatch) -> None:
    view = police_state(PREFIX).view(0)
    bot, seen = slow_bot("ismcts", 0, 0.08, monkeypatch)
    assert bot.step(view) in view.legal_actions
    assert seen[0][0].seconds == ismcts_bot.MIN_SEARCH_SECONDS


def test_the_simulator_tables_are_built_once_with_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver.games.police07 import sim

    bot = bots.make(GAME, "ismcts", seat=1, rng=0, iterations=10)
    assert isinstance(bot, Police07ISMCTSBot)
    built: list[Any] = []
    monkeypatch.setattr(sim.SimTables, "build", lambda *a, **k: built.append(a))
    view = police_state(PREFIX + ["taxi 87"]).view(1)
    bot.step(view)
    bot.step(view)
    assert built == []  # no decision builds them again


# --- advice -----------------------------------------------------------------------------------
def test_advice_ranks_by_visits() -> None:
    state = police_state(PREFIX + ["taxi 87"])
    view = state.view(1)
    bot = bots.make(GAME, "ismcts", seat=1, rng=0)
    advice = bot.advise(view, 120)
    assert sorted(r.action for r in advice.ranked) == sorted(view.legal_actions)
    visits = [r.visits for r in advice.ranked]
    assert all(v is not None for v in visits) and sum(v for v in visits if v is not None) == 120
    assert visits == sorted(visits, reverse=True)  # type: ignore[type-var]
    assert all(r.value is not None and 0.0 <= r.value <= 1.0 for r in advice.ranked)
    assert abs(sum(r.score for r in advice.ranked) - 1.0) < 1e-3  # scores are visit shares
    assert advice.best.reason.startswith("estimated win chance ")
    assert advice.belief["count"] == len(advice.belief["possible_stops"]) > 1
    assert "120 simulations" in advice.summary


def test_factor_advice_shows_his_stop() -> None:
    state = police_state(PREFIX)
    advice = bots.make(GAME, "ismcts", seat=0, rng=0).advise(state.view(0), 40)
    assert advice.belief["possible_stops"] == [80]


@pytest.mark.parametrize("budget", [0.5, float("inf"), float("nan"), True])
def test_bad_advice_budget(budget: float) -> None:
    state = police_state(PREFIX)
    with pytest.raises(ConfigError, match="budget"):
        bots.make(GAME, "ismcts", seat=0).advise(state.view(0), budget)


def test_advice_does_not_depend_on_hidden_facts() -> None:
    # Dr. Factor's 2nd move is hidden: two states that differ only in where he went
    first, second = police_state(PREFIX + ["taxi 87"]), police_state(PREFIX + ["taxi 95"])
    assert first.view(0) != second.view(0)
    for seat in (1, 2):
        view_a: View = first.view(seat)
        view_b: View = second.view(seat)
        assert view_a == view_b
        if not view_a.legal_actions:
            continue
        a = bots.make(GAME, "ismcts", seat=seat, rng=9).advise(view_a, 150)
        b = bots.make(GAME, "ismcts", seat=seat, rng=9).advise(view_b, 150)
        assert a.to_json() == b.to_json()


def test_free_start_placements_are_played_by_the_heuristic() -> None:
    """The simulator starts after set-up: free-start placements fall back to the heuristic bot."""
    import bots
    from solver.games import load

    game = load("police07", players=3, free_start=True)
    state = game.new_initial_state()
    players = {s: bots.make(game, "ismcts", seat=s, rng=s, iterations=50) for s in range(3)}
    for _ in range(30):
        if state.is_terminal():
            break
        seat = state.current_player()
        view = state.view(seat)
        action = players[seat].step(view)
        assert action in view.legal_actions
        state.apply(action)
    assert state.history  # placements and the first moves were made
