"""Good Cop Bad Cop rollout speed: rollouts a second at 6 players, compiled against pure, in one run.

Both engines play the ``rollout`` bot's rounds from one announcement of a seeded heuristic game
(6 players, 60 decisions in), with the bot's own candidates (the heuristic's best 5):

* ``pure``: :func:`bots.gcbc.rollout.python_round`, every seat by the Python heuristic on views
  extended action by action, on the Python rules;
* ``compiled``: :func:`bots.gcbc.rollout.compiled_round`, the world replayed in the compiled rules
  (``ext/gcbc_sim.pyx``) and every rollout played by the compiled policy (``ext/gcbc_search.pyx``).

``test_gcbc_rollouts`` times the rounds alone, on worlds drawn from the posterior before timing;
``test_gcbc_rollout_decision`` times a whole decision (``RolloutBot.search`` with an iteration
budget), whose world draws from the posterior (one a round, on the Python side in both engines) are
timed too. Once both engines have run, each test's compiled/pure ratio of rollouts a second goes
into the compiled row's ``extra_info`` and is printed. Run with
``python -m pytest bench/bench_gcbc_rollout.py --benchmark-only`` (add
``--benchmark-timer=time.process_time`` on a shared machine).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import bots
from bots.gcbc import rollout as gcbc_rollout
from bots.gcbc.belief import posterior_for
from bots.gcbc.rollout import RolloutBot, compiled_round, python_round
from solver.core.rng import SplitMix64
from solver.games.gcbc.rules import GCBCState
from tests.gcbc_positions import heuristic_position

#: worlds drawn before timing, and how many times the compiled engine plays them (fresh seeds)
WORLDS = 4
REPEATS = {"pure": 1, "compiled": 100}
#: the iteration budget of a timed decision, per engine (the pure one is hundreds of times slower)
DECISION = {"pure": 20, "compiled": 500}
RATES: dict[str, dict[str, float]] = {"rounds": {}, "decision": {}}
LINES: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def _print_ratio(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    if reporter is None or capture is None or not LINES:
        return
    with capture.global_and_fixture_disabled():  # teardown output is captured otherwise
        reporter.write_line("")
        for line in LINES:
            reporter.write_line(line)


def _engine(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip the compiled engine where it is not built; pin the pure one whatever is built."""
    if engine == "compiled" and not gcbc_rollout.compiled():
        pytest.skip("the compiled kernels are not built")
    if engine == "pure":
        monkeypatch.setattr(gcbc_rollout, "_SIM", None)


def _bot_and_view(**options: Any) -> tuple[RolloutBot, Any]:
    state = heuristic_position(6, 3, 60, announce=True)
    seat = state.current_player()
    bot = bots.make(state.game, "rollout", seat=seat, rng=0, **options)
    if not isinstance(bot, RolloutBot):
        raise TypeError("gcbc rollout is not the rollout bot")
    return bot, state.view(seat)


def _record(benchmark: Any, test: str, engine: str, rollouts: int, what: str) -> None:
    """Rollouts a second into ``extra_info``; the ratio once both engines ran."""
    rate = rollouts / benchmark.stats.stats.mean
    benchmark.extra_info["rollouts"] = rollouts
    benchmark.extra_info["rollouts_per_s"] = round(rate, 1)
    RATES[test][engine] = rate
    if len(RATES[test]) == 2:
        ratio = RATES[test]["compiled"] / RATES[test]["pure"]
        benchmark.extra_info["compiled_over_pure"] = round(ratio, 1)
        LINES.append(f"gcbc rollout at 6 players, {what}: compiled {RATES[test]['compiled']:,.0f} "
                     f"rollouts/s, pure {RATES[test]['pure']:,.0f}, ratio {ratio:,.0f}x")


@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_gcbc_rollouts(benchmark: Any, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts a second of the rounds alone (worlds drawn before timing; ``extra_info``)."""
    _engine(engine, monkeypatch)
    bot, view = _bot_and_view()
    cands = bot.candidates(view)
    belief = posterior_for(bot.game, view, bot.settings["belief"])
    gen = np.random.default_rng(1)
    worlds = []
    for _ in range(WORLDS):
        world = bot.game.resample(view, gen, belief)
        if not isinstance(world, GCBCState):
            raise TypeError("gcbc resampled another state type")
        worlds.append(world)
    n, seat = bot.game.num_players, view.seat
    play: Callable[[GCBCState, list[int]], list[float] | None] = (
        (lambda w, seeds: compiled_round(w, cands, seat, seeds[n], None)) if engine == "compiled" else
        (lambda w, seeds: python_round(w, cands, seat, seeds, None)))

    def rounds() -> None:
        rng = SplitMix64(2)
        for _ in range(REPEATS[engine]):
            for world in worlds:
                if play(world, [rng.next() for _ in range(n + 1)]) is None:
                    raise RuntimeError("a round without a time budget was dropped")

    benchmark.pedantic(rounds, rounds=3, iterations=1)
    _record(benchmark, "rounds", engine, REPEATS[engine] * WORLDS * len(cands), "rounds on drawn worlds")


@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_gcbc_rollout_decision(benchmark: Any, engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts a second of a whole decision, a world drawn from the posterior a round (``extra_info``)."""
    _engine(engine, monkeypatch)
    bot, view = _bot_and_view(iterations=DECISION[engine])
    found: list[int] = []

    def decide() -> None:
        found.append(bot.search(view).rollouts)

    benchmark.pedantic(decide, rounds=3, iterations=1)
    _record(benchmark, "decision", engine, found[-1], "whole decisions (world draws included)")
