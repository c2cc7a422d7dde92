"""The generic ``ismcts`` bot (:mod:`bots.ismcts_bot`): options, budget, legal play, win/loss
rewards, the decision's clock and cut-off, advice; on the toy game, which has no bot of its own.
Police 07's subclass is tested in ``tests/test_police07_ismcts.py``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from bots import ismcts_bot
from bots.base import Bot
from bots.ismcts_bot import ISMCTSBot, WinLossDeterminizer
from solver.core import ConfigError, View
from solver.core.rng import SplitMix64
from solver.search.ismcts import Budget, SearchParams
from tests.test_bots import play
from tests.toygame import HiddenPass


# --- options ------------------------------------------------------------------------------------
def test_generic_bot_on_a_game_without_its_own() -> None:
    bot = ISMCTSBot(HiddenPass(), 0, np.random.default_rng(0))
    assert bot.settings == {"iterations": 1000, "seconds": None, "c": 0.7}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"iterations": 0}, "'iterations' must be in"),
        ({"seconds": 0.0}, "'seconds' must be in"),
        ({"seconds": "fast"}, "'seconds' must be a float"),
        ({"c": -0.1}, "'c' must be in"),
        ({"depth": 3}, "unknown option 'depth'"),
        ({"coalition_r": 0.3}, "unknown option 'coalition_r'"),  # Police 07's, not the generic bot's
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ISMCTSBot(HiddenPass(), 0, np.random.default_rng(0), **options)


def test_budget_choice() -> None:
    bot = ISMCTSBot(HiddenPass(), 0, np.random.default_rng(0), iterations=33)
    assert bot.budget().iterations == 33
    assert bot.budget(7).iterations == 7
    timed = ISMCTSBot(HiddenPass(), 0, np.random.default_rng(0), iterations=33, seconds=0.5)
    assert timed.budget().seconds == 0.5 and timed.budget().iterations is None


# --- playing ----------------------------------------------------------------------------------
def test_generic_bot_plays_the_toy_game() -> None:
    game = HiddenPass(players=3, rounds=2)
    lineup: list[Bot] = [ISMCTSBot(game, s, np.random.default_rng(s), iterations=20) for s in range(3)]
    for seed in range(3):
        assert play(game, lineup, seed).is_terminal()


def test_win_loss_rewards() -> None:
    game = HiddenPass(players=2, rounds=1)
    state = game.new_initial_state()
    state.apply(3)  # seat 0 holds the top card
    state.apply(0)
    det = WinLossDeterminizer(game, state.view(0))
    quiet, betting = det.sample(SplitMix64(0)), det.sample(SplitMix64(0))
    for action in (7, 7, 4):  # check, check, bonus 0: nobody staked, the pot is empty
        quiet.apply(action)
    for action in (8, 9, 7, 4):  # bet, call, check, bonus 0: seat 0 takes seat 1's stake
        betting.apply(action)
    assert quiet.is_terminal() and quiet.returns() == [0.5, 0.5]
    assert betting.is_terminal() and betting.returns() == [1.0, 0.0]
    assert betting.copy().returns() == [1.0, 0.0]



# --- the time budget is the whole decision's ---------------------------------------------------


class FakeClock:
    """A clock that moves only when a test moves it (the bots' and the arena's tests share it)."""

    def __init__(self, now: float = 50.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def spy_search(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Budget, SearchParams]]:
    """Record the budget and parameters each search gets, and search 20 iterations instead."""
    seen: list[tuple[Budget, SearchParams]] = []
    real = ismcts_bot.run_search

    def spy(det: Any, seat: int, budget: Budget, rng: SplitMix64, params: SearchParams) -> Any:
        seen.append((budget, params))
        return real(det, seat, Budget(iterations=20), rng, params)

    monkeypatch.setattr(ismcts_bot, "run_search", spy)
    return seen


def test_the_generic_bot_reads_the_clock_every_iteration_and_cuts_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the Python rules an iteration can outlast the tolerance: the search checks the clock after
    each one, and a line of play that left the root ends once the decision's time is up."""
    game = HiddenPass(players=2, rounds=2)
    state = game.new_initial_state()
    state.apply(3)
    state.apply(0)
    bot = ISMCTSBot(game, 0, np.random.default_rng(0), seconds=0.05)
    clock = FakeClock()
    bot.clock = clock
    dets: list[Any] = []
    real = bot.determinizer

    def keep(view: View) -> Any:
        dets.append(real(view))
        return dets[-1]

    monkeypatch.setattr(bot, "determinizer", keep)
    seen = spy_search(monkeypatch)
    bot.step(state.view(0))
    assert seen[0][1].check_every == 1
    det = dets[0]
    assert isinstance(det, WinLossDeterminizer) and det.expired is not None
    sim = det.sample(SplitMix64(1))
    sim.apply(sim.legal_actions()[0])
    assert not det.expired() and not sim.is_terminal()
    clock.now += 0.05 - ismcts_bot.reserve(0.05) + ismcts_bot.CUTOFF_GRACE + 1e-9  # the cut-off
    assert det.expired() and sim.is_terminal()


def test_a_cut_sim_ends_its_line_of_play_below_the_root_only() -> None:
    game = HiddenPass(players=2, rounds=2)
    state = game.new_initial_state()
    state.apply(3)
    state.apply(0)
    up = [False]
    det = WinLossDeterminizer(game, state.view(0))
    det.expired = lambda: up[0]
    sim = det.sample(SplitMix64(0))
    up[0] = True
    assert not sim.is_terminal()  # at the root the game's own answer: every search visits the root
    sim.apply(sim.legal_actions()[0])
    assert sim.is_terminal() and sim.returns() == [0.5, 0.5]  # ended where it stands, nobody won
    assert sim.copy().expired is det.expired
    up[0] = False
    assert not sim.is_terminal()


def test_lone_action_needs_no_search() -> None:
    game = HiddenPass(players=2, rounds=1)
    state = game.new_initial_state()
    state.apply(1)
    state.apply(2)
    state.apply(8)  # seat 0 bets; seat 1 must call or raise (two actions): search runs
    bot = ISMCTSBot(game, 1, np.random.default_rng(0), iterations=5)
    assert bot.step(state.view(1)) in state.legal_actions()
    assert bot.last is not None and bot.last.iterations == 5


# --- advice -----------------------------------------------------------------------------------
def test_advice_ranks_by_visits() -> None:
    game = HiddenPass(players=2, rounds=2)
    state = game.new_initial_state()
    state.apply(3)
    state.apply(0)
    view = state.view(0)
    advice = ISMCTSBot(game, 0, np.random.default_rng(0)).advise(view, 60)
    assert sorted(r.action for r in advice.ranked) == sorted(view.legal_actions)
    visits = [r.visits for r in advice.ranked]
    assert all(v is not None for v in visits) and sum(v for v in visits if v is not None) == 60
    assert visits == sorted(visits, reverse=True)  # type: ignore[type-var]
    assert all(r.value is not None and 0.0 <= r.value <= 1.0 for r in advice.ranked)
    assert advice.belief == {} and "60 simulations" in advice.summary


@pytest.mark.parametrize("budget", [0.5, float("inf"), float("nan"), True])
def test_bad_advice_budget(budget: float) -> None:
    game = HiddenPass(players=2, rounds=1)
    state = game.new_initial_state()
    state.apply(3)
    state.apply(0)
    with pytest.raises(ConfigError, match="budget"):
        ISMCTSBot(game, 0, np.random.default_rng(0)).advise(state.view(0), budget)
