"""Police Precinct's world draws under a deadline (:func:`solver.games.precinct.resample.resample_within`)
and the pool of worlds that a timed search stops (:class:`bots.observer_sim.PoolDeterminizer`).

A deadline must never change a world it lets finish (the same generator gives the same world as
:func:`~solver.games.precinct.resample.resample`, backtracks included), must stop a draw at the first
check that finds it passed, and an untimed pool must hold exactly the resampler's worlds for its seeds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from bots.observer_sim import NoWorldInTime, ObserverSim, PoolDeterminizer, timed_resampler
from solver.core.rng import SplitMix64
from solver.games import load as load_game
from solver.games.precinct import resample as rs
from tests.precinct_positions import heuristic_position, load

PLAIN = load(4)
DIRTY = load(4, dirty_cop=True)
#: (game, seed, majors, generator seed) mid-game; the first draw backtracks (checked below)
CASES = [(DIRTY, 1, 20, 0), (DIRTY, 1, 30, 1), (PLAIN, 2, 20, 3), (PLAIN, 0, 30, 0)]


def _view(game: Any, seed: int, majors: int) -> Any:
    st = heuristic_position(game, seed, majors)
    return st.view(st.current_player())


class Ticks:
    """A fake clock for ``expired``: each call is one tick; true from call ``at`` on."""

    def __init__(self, at: int | None) -> None:
        self.at, self.calls = at, 0

    def __call__(self) -> bool:
        self.calls += 1
        return self.at is not None and self.calls >= self.at


def test_a_case_backtracks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cases below include a draw that a later step rules out (so the backtracking path is covered)."""
    fills = [0]
    real = rs._fill

    def counting(*args: Any) -> Any:
        fills[0] += 1
        return real(*args)

    monkeypatch.setattr(rs, "_fill", counting)
    game, seed, majors, k = CASES[0]
    view = _view(game, seed, majors)
    masked = sum(1 for _, text, _ in view.to_json()["history"] if text in rs._MASKS and text != "police ?")
    game.resample(view, np.random.default_rng(k))
    assert fills[0] > masked, "no masked step was drawn twice: the case no longer backtracks"


@pytest.mark.parametrize("case", CASES)
def test_never_expired_draws_the_same_world(case: tuple[Any, int, int, int]) -> None:
    game, seed, majors, k = case
    view = _view(game, seed, majors)
    ticks = Ticks(None)
    timed = rs.resample_within(game, view, np.random.default_rng(k), None, ticks)
    plain = game.resample(view, np.random.default_rng(k))
    assert timed is not None
    assert timed.to_json() == plain.to_json()
    assert timed.view(view.seat) == view
    assert ticks.calls >= len(view.to_json()["history"])  # asked before every replayed step


@pytest.mark.parametrize("at", [1, 2, 40, 150])
def test_deadline_stops_the_draw_at_once(at: int) -> None:
    game, seed, majors, k = CASES[0]
    view = _view(game, seed, majors)
    ticks = Ticks(at)
    assert rs.resample_within(game, view, np.random.default_rng(k), None, ticks) is None
    assert ticks.calls == at  # not asked again once it said the time was up


def _pool(game: Any, view: Any, size: int, pool_full: Callable[[], bool] | None,
          seed: int) -> PoolDeterminizer[ObserverSim]:
    pool: PoolDeterminizer[ObserverSim] = PoolDeterminizer(game, view, None, size, None, ObserverSim)
    pool.pool_full = pool_full
    pool.sample(SplitMix64(seed))
    return pool


def _expected(game: Any, view: Any, size: int, seed: int) -> list[Any]:
    """The resampler's worlds for the pool's seeds (one generator seed per world, in draw order)."""
    rng = SplitMix64(seed)
    return [game.resample(view, np.random.default_rng(rng.next())).to_json() for _ in range(size)]


@pytest.mark.parametrize("timed", [False, True])
def test_pool_holds_the_resamplers_worlds(timed: bool) -> None:
    game, seed, majors, _ = CASES[0]
    view = _view(game, seed, majors)
    pool = _pool(game, view, 3, Ticks(None) if timed else None, 11)
    assert [w.state.to_json() for w in pool.pool] == _expected(game, view, 3, 11)


def test_pool_keeps_the_worlds_drawn_when_time_runs_out_in_a_draw() -> None:
    game, seed, majors, _ = CASES[0]
    view = _view(game, seed, majors)
    expected = _expected(game, view, 3, 5)
    # false at the check before the second world and for 20 replayed steps of it: cut in that draw
    ticks = Ticks(22)
    pool = _pool(game, view, 3, ticks, 5)
    assert [w.state.to_json() for w in pool.pool] == expected[:1]
    assert ticks.calls == 22
    # cut in the third draw: the first two kept
    steps = len(view.to_json()["history"])
    ticks = Ticks(None)
    pool = _pool(game, view, 2, ticks, 5)
    second = ticks.calls  # calls the second world's draw took (and the check before it)
    assert second > steps
    ticks = Ticks(second + 1 + 10)
    pool = _pool(game, view, 3, ticks, 5)
    assert [w.state.to_json() for w in pool.pool] == expected[:2]


def test_first_world_is_drawn_even_past_the_deadline() -> None:
    game, seed, majors, _ = CASES[0]
    view = _view(game, seed, majors)
    ticks = Ticks(1)
    pool = _pool(game, view, 4, ticks, 9)
    assert [w.state.to_json() for w in pool.pool] == _expected(game, view, 1, 9)
    assert ticks.calls == 1  # only the check before the second world


def test_timed_resampler_only_for_games_that_have_one() -> None:
    assert timed_resampler(PLAIN) is not None
    assert timed_resampler(load_game("lineup")) is None


def test_no_first_world_past_the_decisions_time() -> None:
    game, seed, majors, _ = CASES[0]
    view = _view(game, seed, majors)
    pool: PoolDeterminizer[ObserverSim] = PoolDeterminizer(game, view, None, 4, None, ObserverSim)
    pool.pool_full = Ticks(1)
    pool.expired = Ticks(5)  # the decision's time runs out during the first draw
    with pytest.raises(NoWorldInTime):
        pool.sample(SplitMix64(9))
    assert not pool.pool


def test_a_timed_bot_plays_unsearched_when_no_world_is_drawn_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from bots.precinct.heuristic import PrecinctHeuristic
    from bots.precinct.ismcts import PrecinctISMCTSBot

    game, seed, majors, _ = CASES[2]
    st = heuristic_position(game, seed, majors)
    me = st.current_player()
    view = st.view(me)
    monkeypatch.setattr(type(game), "resample_within", lambda *args: None)
    bot = PrecinctISMCTSBot(game, me, np.random.default_rng(3), seconds=0.5, worlds=2)
    result = bot.search(view)
    ranked = PrecinctHeuristic(game, me, np.random.default_rng(0)).advise(view).ranked
    assert result.iterations == 0 and result.action == ranked[0].action
