"""Escape Plan ``ismcts`` (bots/escape/ismcts.py): the registry gives it; seeded whole games at 2 (with
Sandra) and 3 players with a tiny budget are legal and repeat from their seed; its root actions are
legal planner candidates; unsearched decisions are the planner's; playouts follow the root plan's
route; the heuristic's cheap view equals the real one; a view decides, not the hidden world behind it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, cast

import numpy as np
import pytest

import bots
from bots.escape.heuristic import EscapeHeuristic
from bots.escape.ismcts import (
    EscapeISMCTSBot,
    EscapeSim,
    Route,
    heuristic_action,
    is_searched,
    seat_data,
)
from bots.escape.planner import PlannerBot
from solver.core import Action, ConfigError, Seat, State
from solver.core.referee import play_out
from solver.core.rng import SplitMix64
from solver.games.escape import codec
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState
from solver.plan.escape_values import Reader

TINY: dict[str, Any] = {"iterations": 2, "worlds": 1}


def play(players: int, seed: int, checks: bool = False) -> tuple[EscapeState, int]:
    """A seeded game: ``ismcts`` (tiny budget) in seat 0, heuristics elsewhere. With ``checks``, every
    searched root is legal and a planner candidate, and every unsearched decision of seat 0 is the
    planner's. Returns the final state and the searches run."""
    game = EscapeGame(players=players)
    me = bots.make(game, "ismcts", seat=0, rng=np.random.default_rng([seed, 0]), **TINY)
    assert isinstance(me, EscapeISMCTSBot)
    others = [EscapeHeuristic(game, s, np.random.default_rng([seed, s])) for s in range(players)]
    searches = 0

    def act(st: State, seat: Seat) -> Action:
        nonlocal searches
        view = st.view(seat)
        if seat != 0:
            return others[seat].step(view)
        me.last = None
        action = me.step(view)
        assert action in view.legal_actions
        if checks and len(view.legal_actions) > 1:
            planner = PlannerBot(game, 0, np.random.default_rng(5))
            if me.last is None:  # unsearched (not an Action or Travel, or one candidate): the planner's
                assert action == planner.step(view)
            else:
                assert view.decision.prompt.endswith(("rest or move", "by which route"))
                searches += 1
                roots = {s.action for s in me.last.stats}
                assert roots <= set(view.legal_actions)
                assert roots <= {r.action for r in planner.advise(view).ranked[:me.settings["prune"]]}
        return action

    end = play_out(game.new_initial_state(), act, np.random.default_rng([seed, 99]))
    assert isinstance(end, EscapeState)
    return end, searches


def test_registry_gives_the_escape_bot() -> None:
    game = EscapeGame(players=3)
    bot = bots.make(game, "ismcts", seat=1, rng=0)
    assert type(bot) is EscapeISMCTSBot
    assert bots.make("police07", "ismcts", seat=0, rng=0).__class__ is not EscapeISMCTSBot
    with pytest.raises(ConfigError):
        EscapeISMCTSBot(bots.make("police07", "random", seat=0, rng=0).game, 0, np.random.default_rng(0))


def test_two_player_game_with_sandra_is_legal_and_repeats() -> None:
    a, searches = play(2, 11, checks=True)
    assert a.is_terminal() and a.sandra
    assert searches >= 5
    b, _ = play(2, 11)
    assert a.history == b.history


def test_three_player_game_is_legal() -> None:
    st, searches = play(3, 12, checks=True)
    assert st.is_terminal()
    assert searches >= 5


def test_is_searched() -> None:
    assert is_searched([codec.REST, codec.MOVE])
    assert is_searched([codec.PASS])
    assert is_searched([codec.travel(3, 0), codec.travel(5, 1), codec.ESCAPE])
    assert not is_searched([codec.DONE, codec.EXEC])
    assert not is_searched([codec.GAS, codec.GAS + 1])
    assert not is_searched([codec.YES, codec.NO])


@lru_cache(maxsize=2)
def points(players: int, seed: int) -> list[EscapeState]:
    """Copies of every player decision of a seeded heuristic game, and its end."""
    game = EscapeGame(players=players)
    hs = [EscapeHeuristic(game, s, np.random.default_rng([seed, s])) for s in range(players)]
    out: list[EscapeState] = []

    def act(st: State, seat: Seat) -> Action:
        out.append(cast(EscapeState, st).clone())
        return hs[seat].step(st.view(seat))

    end = play_out(game.new_initial_state(), act, np.random.default_rng([seed, 99]))
    assert isinstance(end, EscapeState)
    return [*out, end]


@pytest.mark.parametrize("players", [2, 3])
def test_seat_data_is_the_view_without_history(players: int) -> None:
    """The playouts' cheap view is the real view's JSON less its history and legal actions, and the
    heuristic's choice on it is the heuristic bot's."""
    states = points(players, 4)
    for st in states[::5]:
        for seat in range(players):
            full = st.view(seat).to_json()
            del full["history"], full["legal_actions"]
            assert seat_data(st, seat) == full
    for st in states[:-1:9]:
        seat = st.current_player()
        view = st.view(seat)
        expected = EscapeHeuristic(st.game, seat, np.random.default_rng(3)).step(view)
        assert heuristic_action(st, seat, st.legal_actions()) == expected


def one_travel_from_plan() -> tuple[EscapeState, Route]:
    """A Travel decision whose seat's root plan has its first stop one legal Travel away."""
    for st in points(3, 4):
        if st.current_player() < 0 or st.todo[0][0] != "travel":
            continue
        seat = st.current_player()
        planner = PlannerBot(st.game, seat, np.random.default_rng(0))
        inst, plan = planner.plan_for(st.view(seat).to_json(), None)
        route = Route.of(seat, inst, plan)
        if route.stops and not (route.escape and len(route.stops) == 1):
            dests = {divmod(a - codec.TRAVEL, codec.MAX_ROUTES)[0] for a in st.legal_actions()
                     if codec.TRAVEL <= a < codec.ESCAPE}
            if route.stops[0] in dests:
                return st, route
    raise AssertionError("no Travel with the plan's first stop in reach")


def test_playout_follows_the_root_plan() -> None:
    st, route = one_travel_from_plan()
    seat = route.seat
    sim = EscapeSim(st.clone(), route=route)
    action = sim.default_action(SplitMix64(1))
    loc, _ = divmod(action - codec.TRAVEL, codec.MAX_ROUTES)
    assert codec.TRAVEL <= action < codec.ESCAPE and loc == route.stops[0]
    # among the routes to the stop it leaves the fewest unavoidable officers
    r = Reader(st.game, seat_data(st, seat), st)
    to_stop = [a for a in st.legal_actions() if codec.TRAVEL <= a < codec.ESCAPE
               and divmod(a - codec.TRAVEL, codec.MAX_ROUTES)[0] == loc]
    assert action in to_stop
    sim.apply(action)
    assert st.location[seat] != route.stops[0] and sim.st.location[seat] == route.stops[0]
    assert sim.reached == 1
    # a route with its stops used up plays the heuristic
    done = EscapeSim(st.clone(), route=Route(seat, route.stops[:1]), reached=1)
    assert done.default_action(SplitMix64(1)) == heuristic_action(st, seat, st.legal_actions())
    assert r.my_location() == st.location[seat]


def test_action_moves_while_the_route_has_stops() -> None:
    st = next(s for s in points(3, 4) if s.current_player() >= 0 and s.todo[0][0] == "action"
              and s.legal_actions() == [codec.REST, codec.MOVE])
    seat = st.current_player()
    far = st.game.city.labelled("exit", "1")
    assert EscapeSim(st.clone(), route=Route(seat, (far,))).default_action(SplitMix64(0)) == codec.MOVE
    other = EscapeSim(st.clone(), route=Route(seat, ()))
    assert other.default_action(SplitMix64(0)) == heuristic_action(st, seat, st.legal_actions())


def test_score_returns() -> None:
    end = points(3, 4)[-1]
    assert end.is_terminal()
    win = EscapeSim(end, value="win").returns()
    value = EscapeSim(end, value="score").returns()
    winners = end.winners()
    for s in range(3):
        assert 0.0 <= value[s] <= 1.0
        if not end.escaped[s]:
            assert value[s] == 0.0 and win[s] == 0.0
        elif s in winners:
            assert value[s] >= 0.5 and win[s] == 1.0
        else:
            assert value[s] < 0.5 and win[s] == 0.0
    middle = points(3, 4)[40]
    assert EscapeSim(middle, value="score").returns() == [0.5, 0.5, 0.5]


def test_choice_depends_on_the_view_only() -> None:
    """Two states that differ in another seat's hidden plan card give one view, and the bot seeded alike
    makes the same search from either."""
    st = next(s for s in points(3, 4)[60:] if s.current_player() >= 0 and s.todo[0][0] == "travel"
              and len(s.legal_actions()) > 1)
    seat = st.current_player()
    view = st.view(seat)
    other: EscapeState | None = None
    for k in range(50):
        world = cast(EscapeState, st.game.resample(view, np.random.default_rng(k)))
        if any(world.plan[s] != st.plan[s] for s in range(3) if s != seat):
            other = world
            break
    assert other is not None
    assert other.view(seat).to_json() == view.to_json()
    first = EscapeISMCTSBot(st.game, seat, np.random.default_rng(8), iterations=4, worlds=2)
    second = EscapeISMCTSBot(st.game, seat, np.random.default_rng(8), iterations=4, worlds=2)
    assert first.step(view) == second.step(other.view(seat))
    assert first.last is not None and second.last is not None
    assert [(s.action, s.visits, s.value) for s in first.last.stats] == \
        [(s.action, s.visits, s.value) for s in second.last.stats]


def test_standing_on_a_stop_is_not_reaching_it() -> None:
    """A stop is reached by a Travel that ends on it, not by staying there (the open exit the seat stands
    on is still to be escaped through)."""
    st = next(s for s in points(3, 4) if s.current_player() >= 0 and s.todo[0][0] == "action"
              and codec.REST in s.legal_actions())
    seat = st.current_player()
    sim = EscapeSim(st.clone(), route=Route(seat, (st.location[seat],)))
    sim.apply(codec.REST)
    assert sim.reached == 0
