"""The games' review hooks (``bots/<game>/review.py``: ``belief_gap``): on seeded games each gap is in
its range, 0 where the belief was sure of the truth and larger as the truth was made unlikelier,
None where the module says there is nothing to compare, and the belief comes from the view alone.

The truths compared are the game's own resamples of the seat's view (``Game.resample``): states the
seat cannot tell apart from the real one, which differ in the hidden facts. So the belief is the
same for every one of them and only the truth moves the gap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

import bots
from bots.review import Gap
from solver.core import Game, State, View, make_rng
from solver.core.referee import draw_chance
from solver.games import load
from solver.games.police07.distances import factor_distances

Hook = Callable[[Game, View, State], "Gap | None"]


def hook(name: str) -> Hook:
    """The game's ``belief_gap``."""
    found: Hook = importlib.import_module(f"bots.{name}.review").belief_gap
    return found


def play(game: Game, seed: int, until: Callable[[State, int], bool], bot: str = "heuristic") -> State:
    """A seeded game of ``bot`` players, stopped at the first decision where ``until(state, n)`` (n:
    the decisions made so far) holds, or at its end."""
    state = game.new_initial_state()
    chance = make_rng(seed)
    players = {seat: bots.make(game, bot, seat=seat, rng=seed + seat) for seat in range(game.num_players)}
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(draw_chance(state, chance))
            continue
        if until(state, made):
            return state
        seat = state.current_player()
        state.apply(players[seat].step(state.view(seat)))
        made += 1
    return state


def worlds(game: Game, view: View, n: int) -> list[State]:
    """``n`` states the view's seat cannot tell from the truth (seeded resamples)."""
    return [game.resample(view, make_rng(1000 + i)) for i in range(n)]


def spy(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Record the view (as JSON) each call of ``owner.name`` is given; the call goes through."""
    calls: list[Any] = []
    real = getattr(owner, name)

    def recording(*args: Any) -> Any:
        view = args[-1]
        calls.append(view.to_json() if hasattr(view, "to_json") else view)
        return real(*args)

    monkeypatch.setattr(owner, name, recording)
    return calls


# --- Police 07 -------------------------------------------------------------------------------------
def _detective_in_doubt(state: State, _: int, stops: int = 3) -> bool:
    from bots.police07.hint import location_probabilities

    view = state.view(state.current_player())
    return view.to_json()["role"] == "detective" and len(location_probabilities(view.game, view)) >= stops


def test_police07_gap_is_the_moves_from_the_likeliest_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    import bots.police07.review as review
    from bots.police07.hint import location_probabilities

    game = load("police07")
    state = play(game, 3, _detective_in_doubt)
    assert not state.is_terminal()
    view = state.view(state.current_player())
    belief = location_probabilities(game, view)
    top = max(belief.values())
    likeliest = [stop for stop, p in belief.items() if p == top]
    table = factor_distances(game.board)
    calls = spy(monkeypatch, review, "location_probabilities")
    seen: dict[int, float] = {}
    for world in [state, *worlds(game, view, 24)]:
        gap = review.belief_gap(game, view, world)
        assert gap is not None
        true = world.view(0).to_json()["factor"]["stop"]
        assert true in belief
        expected = min(int(table[true, stop]) for stop in likeliest)
        assert gap.distance == expected and gap.distance >= 0
        assert gap.text.startswith(f"Dr. Factor was at {true}, ") and f"the belief gave {true} " in gap.text
        assert ("likeliest stop" in gap.text) and (gap.text.count(" move") > 0) == (expected > 0)
        seen[true] = gap.distance
    # every belief was the seat's view's, whatever the world
    assert calls and all(c == view.to_json() for c in calls)
    # a truth at the likeliest stop is no gap; one the belief made unlikelier is further
    assert any(seen[stop] == 0 for stop in likeliest if stop in seen)
    unlikeliest = min(seen, key=lambda stop: belief[stop])
    assert belief[unlikeliest] < top and seen[unlikeliest] > 0
    assert len(set(seen.values())) > 1  # the hidden stop moves the gap


def test_police07_no_gap_where_nothing_is_hidden() -> None:
    game = load("police07")
    gap = hook("police07")
    first = play(game, 3, lambda state, made: state.current_player() != 0)
    assert first.view(first.current_player()).to_json()["role"] == "detective"
    # his start stop is public: the detectives' belief is one stop
    assert gap(game, first.view(first.current_player()), first) is None
    factor = play(game, 3, lambda state, made: made > 8 and state.current_player() == 0)
    assert gap(game, factor.view(0), factor) is None  # Dr. Factor believes nothing about himself
    free = load("police07", free_start=True)
    placing = play(free, 3, lambda state, made: True)
    assert gap(free, placing.view(placing.current_player()), placing) is None  # not placed yet
    assert gap(load("gcbc", players=4), placing.view(0), placing) is None  # another game


# --- Police Precinct -------------------------------------------------------------------------------
def _dirty(state: State, players: int) -> list[int]:
    return [seat for seat in range(players) if state.view(seat).to_json()["my_loyalty"] == "dirty"]


def test_precinct_gap_is_one_minus_the_true_dirty_cops_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.belief.dirty_cop as dirty_cop

    game = load("precinct", players=4, dirty_cop=True)
    probe = play(game, 3, lambda state, made: made >= 120)
    dirty = _dirty(probe, 4)[0]
    # a good cop's decision, where the posterior is not sure yet
    state = play(game, 3, lambda state, made: made >= 120 and state.current_player() != dirty)
    view = state.view(state.current_player())
    marginals = dirty_cop.dirty_marginals(view.to_json())
    calls = spy(monkeypatch, dirty_cop, "dirty_marginals")
    gaps: dict[int, float] = {}
    for world in [state, *worlds(game, view, 10)]:
        truly = _dirty(world, 4)
        gap = hook("precinct")(game, view, world)
        if view.seat in truly:  # a world where the seat itself would be dirty: not this seat's
            assert gap is None
            continue
        assert gap is not None and 0.0 <= gap.distance <= 1.0
        assert gap.distance == pytest.approx(1.0 - marginals[truly[0]], abs=1e-12)
        assert f"seat {truly[0]} ({marginals[truly[0]]:.0%})" in gap.text
        gaps[truly[0]] = gap.distance
    assert calls and all(c == view.to_json() for c in calls)
    assert len(gaps) > 1  # the hidden card moves the gap: the less suspected, the further
    order = sorted(gaps, key=lambda seat: marginals[seat])
    assert [gaps[seat] for seat in order] == sorted(gaps.values(), reverse=True)


def test_precinct_no_gap_once_sure_and_none_where_documented() -> None:
    gap = hook("precinct")
    game = load("precinct", players=4, dirty_cop=True)
    end = play(game, 3, lambda state, made: False)
    assert end.is_terminal()
    dirty = _dirty(end, 4)
    assert dirty == [0]
    # the seeded game ends with the dirty cop known to all: a good seat's gap is 0
    for seat in (1, 2, 3):
        found = gap(game, end.view(seat), end)
        assert found is not None and found.distance == pytest.approx(0.0, abs=1e-9)
    assert gap(game, end.view(0), end) is None  # the dirty cop's own seat
    clean = load("precinct", players=4)
    state = play(clean, 3, lambda state, made: made >= 5)
    assert gap(clean, state.view(state.current_player()), state) is None  # no Dirty Cop in play


# --- Good Cop Bad Cop ------------------------------------------------------------------------------
def _teams(state: State, players: int) -> list[str]:
    from solver.games.gcbc.deal import INTEGRITY_NAMES, team_of

    out = []
    for seat in range(players):
        own = state.view(seat).to_json()["players"][seat]
        out.append(team_of([INTEGRITY_NAMES.index(c["card"]) for c in own["cards"]], bool(own["inverted"])))
    return out


def test_gcbc_gap_is_one_minus_the_mean_chance_of_the_true_teams(monkeypatch: pytest.MonkeyPatch) -> None:
    import bots.gcbc.hint as gcbc_hint

    game = load("gcbc", players=4)
    state = play(game, 3, lambda state, made: made >= 12)
    view = state.view(state.current_player())
    marginals = gcbc_hint.marginals_for(game, view)
    alive = [p["alive"] for p in view.to_json()["players"]]
    others = [seat for seat in range(4) if seat != view.seat and alive[seat]]
    calls = spy(monkeypatch, gcbc_hint, "marginals_for")
    seen: dict[tuple[str, ...], float] = {}
    for world in [state, *worlds(game, view, 10)]:
        teams = _teams(world, 4)
        gap = hook("gcbc")(game, view, world)
        assert gap is not None and 0.0 <= gap.distance <= 1.0
        chances = [marginals[s]["p_honest"] if teams[s] == "honest" else 1 - marginals[s]["p_honest"]
                   for s in others]
        assert gap.distance == pytest.approx(1.0 - sum(chances) / len(chances), abs=1e-12)
        assert "on average" in gap.text
        seen[tuple(teams)] = gap.distance
    assert calls and all(c == view.to_json() for c in calls)
    assert len(set(seen.values())) > 1  # the hidden teams move the gap
    # the world the belief favours most is the nearest
    def favour(teams: tuple[str, ...]) -> float:
        return sum(marginals[s]["p_honest"] if teams[s] == "honest" else 1 - marginals[s]["p_honest"]
                   for s in others)
    assert seen[max(seen, key=favour)] == min(seen.values())


def test_gcbc_gap_shrinks_as_the_cards_come_out_and_none_before_the_deal() -> None:
    gap = hook("gcbc")
    game = load("gcbc", players=4)
    start = game.new_initial_state()
    assert start.is_chance_node()
    assert gap(game, start.view(0), start) is None  # no seat holds its cards yet
    early = play(game, 3, lambda state, made: True)
    late = play(game, 3, lambda state, made: made >= 100)
    assert not late.is_terminal()
    first = gap(game, early.view(early.current_player()), early)
    last = gap(game, late.view(late.current_player()), late)
    assert first is not None and last is not None
    assert first.distance > 0.3  # the deal alone: about an even guess
    assert last.distance < 0.05  # most cards face up: the belief is near sure, and right
    assert "true Kingpin" in first.text or "true Agent" in first.text


# --- LineUp and Escape Plan: no belief to compare --------------------------------------------------
@pytest.mark.parametrize(("name", "config"), [("lineup", {"players": 2}), ("escape", {"players": 2})])
def test_games_without_a_belief_report_none(name: str, config: dict[str, Any]) -> None:
    game = load(name, **config)
    gap = hook(name)
    for made in (0, 6, 12):
        state = play(game, 3, lambda state, n, stop=made: n >= stop, bot="random")
        assert not state.is_terminal()
        view = state.view(state.current_player())
        assert gap(game, view, state) is None
        assert gap(game, view, worlds(game, view, 1)[0]) is None
    module = importlib.import_module(f"bots.{name}.review")
    assert "always None" in (module.__doc__ or "")


def test_hooks_leave_the_truth_alone_and_repeat() -> None:
    for name, config, made in (("police07", {}, 30), ("precinct", {"players": 4, "dirty_cop": True}, 60),
                               ("gcbc", {"players": 4}, 12)):
        game = load(name, **config)
        state = play(game, 5, lambda state, n, stop=made: n >= stop)
        before = state.to_json()
        view = state.view(state.current_player())
        first = hook(name)(game, view, state)
        assert hook(name)(game, view, state) == first
        assert state.to_json() == before
