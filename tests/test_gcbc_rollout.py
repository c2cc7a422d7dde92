"""The Good Cop Bad Cop rollout bot: incremental views, the heuristic rollout policy, the choice rule."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import bots
from bots.gcbc import rollout as gcbc_rollout
from bots.gcbc.heuristic import HeuristicBot, best_actions, score_view
from bots.gcbc.rollout import (
    RolloutBot,
    SeatViews,
    choose,
    heuristic_action,
    paired_gain,
    rollout,
)
from solver import games
from solver.core import CHANCE, ConfigError
from solver.core.referee import draw_chance
from solver.core.rng import SplitMix64
from solver.games.gcbc import codec
from solver.games.gcbc.rules import GCBCState
from solver.search.limits import SearchCaps, SearchScope, search_scope
from tests.gcbc_positions import heuristic_position, play_out
from tests.test_ismcts_bot import FakeClock


@pytest.mark.parametrize("players,seed", [(4, 1), (6, 2), (8, 3)])
def test_seat_views_equal_fresh_views(players: int, seed: int) -> None:
    """Along a heuristic game, and along two copies that part ways, every seat's incremental view is
    exactly ``state.view(seat)``."""
    state = heuristic_position(players, seed, 15)
    views = SeatViews(players)
    rng = SplitMix64(seed)
    seats = [SplitMix64(seed + s) for s in range(players)]
    branched: list[tuple[GCBCState, SeatViews]] = []
    steps = 0
    while not state.is_terminal() and steps < 400:
        if steps == 40:
            branched = [(state.clone(), views.copy()) for _ in range(2)]
        if state.current_player() == CHANCE:
            state.apply(draw_chance(state, np.random.default_rng(rng.next())))
        else:
            seat = state.current_player()
            if steps % 3 == 0:
                for s in range(players):
                    assert views.view_json(state, s) == state.view(s).to_json(), (steps, s)
            state.apply(heuristic_action(state, views, seats[seat]))
        steps += 1
    for s in range(players):
        assert views.view_json(state, s) == state.view(s).to_json()
    for i, (st, v) in enumerate(branched):
        for _ in range(20 + 15 * i):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])  # uniform: the copies diverge
        for s in range(players):
            assert v.view_json(st, s) == st.view(s).to_json()


def test_rollout_policy_is_the_heuristic() -> None:
    """The rollout policy picks among the heuristic bot's best-scored actions, from the seat's view."""
    state = heuristic_position(6, 4, 10)
    views = SeatViews(6)
    rng = SplitMix64(1)
    checked = 0
    while not state.is_terminal() and checked < 60:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply(draw_chance(state, np.random.default_rng(rng.next())))
            continue
        view = state.view(seat)
        scored, _ = HeuristicBot(state.game, seat, np.random.default_rng(0)).scores(view)
        action = heuristic_action(state, views, rng)
        assert action in best_actions(scored)
        state.apply(action)
        checked += 1


def test_rollout_plays_to_the_end() -> None:
    """A rollout ends the game (legal moves only: the checked apply would raise) and scores 1/0."""
    state = heuristic_position(5, 6, 20)
    seats = [SplitMix64(s) for s in range(5)]
    wins = rollout(state, SeatViews(5), seats, SplitMix64(99))
    assert state.is_terminal() and wins is not None
    assert sorted(set(wins)) <= [0.0, 1.0] and 1.0 in wins


def test_same_seed_same_search_and_budget() -> None:
    """An iteration budget is deterministic for a seed; rounds = iterations // candidates."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    view = state.view(me)
    results = []
    for _ in range(2):
        bot = bots.make(state.game, "rollout", seat=me, rng=5, iterations=13, top=3)
        assert isinstance(bot, RolloutBot)
        results.append(bot.search(view))
    a, b = results
    assert a.candidates == b.candidates and a.rounds == b.rounds and a.action == b.action
    assert len(a.candidates) == 3 and len(a.rounds) == 13 // 3 and a.rollouts == 12
    assert a.action in a.candidates and a.action in view.legal_actions
    assert a.base == a.candidates[0]


def test_same_view_same_choice() -> None:
    """The bot reads only its view: two true states with one view give one search for one seed."""
    state = heuristic_position(6, 6, 45, announce=True)
    me = state.current_player()
    other = state.game.resample(state.view(me), np.random.default_rng(1))
    assert other.view(me).to_json() == state.view(me).to_json()
    assert other.cards != state.cards or other.hands != state.hands
    found = []
    for st in (state, other):
        bot = bots.make(state.game, "rollout", seat=me, rng=11, iterations=12)
        assert isinstance(bot, RolloutBot)
        action = bot.step(st.view(me))
        assert bot.last is not None
        found.append((action, bot.last.rounds))
    assert found[0] == found[1]


def test_candidates_window_share_and_seconds() -> None:
    """Candidates are the heuristic's best ``top`` (pass added in a window); a window decision gets
    ``window_share`` of the rollouts; a seconds budget keeps whole rounds only."""
    game = games.load("gcbc", players=4)
    rng = np.random.default_rng(8)
    state = game.new_initial_state()
    seated = {s: bots.make(game, "heuristic", seat=s, rng=s) for s in range(4)}
    seen = {"window": 0, "turn": 0}
    while not state.is_terminal() and min(seen.values()) < 2:
        seat = state.current_player()
        if seat < 0:
            state.apply(draw_chance(state, rng))
            continue
        view = state.view(seat)
        legal = view.legal_actions
        if len(legal) > 1 and not RolloutBot._layout(legal):
            bot = bots.make(game, "rollout", seat=seat, rng=1, iterations=40, window_share=0.25, top=2)
            assert isinstance(bot, RolloutBot)
            scored, _ = score_view(bot._gcbc(), view.to_json(), legal)
            ranked = [a for a, _, _ in sorted(scored, key=lambda x: (-x[1], x[0]))]
            cands = bot.candidates(view)
            assert list(cands[:2]) == ranked[:2]
            window = codec.PASS in legal
            assert cands[2:] == ((codec.PASS,) if window and codec.PASS not in ranked[:2] else ())
            result = bot.search(view)
            seen["window" if window else "turn"] += 1
            assert result.rollouts == len(cands) * max(1, (10 if window else 40) // len(cands))
            timed = bots.make(game, "rollout", seat=seat, rng=1, seconds=0.001)
            assert isinstance(timed, RolloutBot)
            found = timed.search(view)
            assert found.action in found.candidates
            assert all(len(r) == len(found.candidates) for r in found.rounds)
        state.apply(seated[seat].step(view))


def test_plays_whole_games_legally() -> None:
    """Two rollout seats in a heuristic field finish a game with legal moves only (4 players)."""
    game = games.load("gcbc", players=4)
    rng = np.random.default_rng(12)
    state = game.new_initial_state()
    assert isinstance(state, GCBCState)
    seated = {s: bots.make(game, "rollout" if s in (1, 3) else "heuristic", seat=s, rng=s,
                           **({"iterations": 4} if s in (1, 3) else {})) for s in range(4)}
    assert play_out(state, seated, rng).winner


def test_choice_keeps_the_heuristic_unless_clearly_beaten() -> None:
    """The best mean wins only by ``margin`` standard errors of the paired difference."""
    cands = (7, 8, 9)
    even = ((1.0, 1.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    gain, se = paired_gain(even, 1, 0)
    assert gain == pytest.approx(0.25) and se == pytest.approx(0.25)
    assert choose(even, cands, 0.5) == 8
    assert choose(even, cands, 1.0) == 7  # 0.25 is not more than one standard error
    assert choose(((0.0, 1.0, 1.0),) * 5, cands, 3.0) == 8  # sd 0: any positive gain; ties: earlier
    assert choose(((0.0, 1.0, 0.0),), cands, 0.0) == 8  # one round: margin 0 takes the best mean
    assert choose(((0.0, 1.0, 0.0),), cands, 0.1) == 7  # ... any margin needs two rounds


def test_advice_ranks_candidates_then_the_rest() -> None:
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    view = state.view(me)
    bot = bots.make(state.game, "rollout", seat=me, rng=2, iterations=30, top=2)
    advice = bot.advise(view, 6)
    assert advice.ranked[0].action == bot.last.action  # type: ignore[attr-defined]
    assert {r.action for r in advice.ranked} == set(view.legal_actions)
    assert all(r.visits == 3 for r in advice.ranked[:2]) and "rollouts" in advice.summary


@pytest.mark.parametrize(("options", "match"), [
    ({"belief": "psychic"}, "belief"), ({"iterations": 0}, "iterations"), ({"margin": -1.0}, "margin"),
    ({"top": "all"}, "top"),
])
def test_bad_options(options: dict[str, object], match: str) -> None:
    """Typed errors name the option."""
    with pytest.raises(ConfigError, match=match):
        bots.make(games.load("gcbc", players=4), "rollout", seat=0, rng=0, **options)


def test_gcbc_only() -> None:
    with pytest.raises(ConfigError, match="gcbc only"):
        RolloutBot(games.load("police07"), 1, np.random.default_rng(0))


# --- the time budget is the whole decision's ---------------------------------------------------


STEP = 0.001  # fake seconds per heuristic move in a rollout


def timed_rollout_bot(seconds: float,
                      monkeypatch: pytest.MonkeyPatch) -> tuple[RolloutBot, FakeClock, object]:
    """A rollout bot on the Python rollouts and a fake clock that moves STEP at every heuristic move of
    its rollouts, and the position it decides (an announcement: several candidates)."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    bot = bots.make(state.game, "rollout", seat=me, rng=0, seconds=seconds)
    assert isinstance(bot, RolloutBot)
    monkeypatch.setattr(gcbc_rollout, "_SIM", None)  # the Python rollouts, whose moves the clock counts
    clock = FakeClock(10.0)
    bot.clock = clock
    real = gcbc_rollout.heuristic_action

    def move(*args: object) -> int:
        clock.now += STEP
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(gcbc_rollout, "heuristic_action", move)
    return bot, clock, state.view(me)


@pytest.mark.parametrize("seconds", [0.05, 0.6, 2.0])
def test_a_seconds_budget_stops_within_one_move_and_keeps_whole_rounds(
    seconds: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rollouts stop at the first move past the time left (less the reserve), a round cut short
    is dropped, and without a whole round the heuristic's choice is played."""
    from bots.ismcts_bot import reserve

    bot, clock, view = timed_rollout_bot(seconds, monkeypatch)
    result = bot.search(view)  # type: ignore[arg-type]
    assert clock.now - 10.0 <= seconds - reserve(seconds) + STEP + 1e-9
    assert len(result.candidates) > 1
    assert all(len(r) == len(result.candidates) for r in result.rounds)
    if not result.rounds:
        assert result.action == result.base == result.candidates[0]
    if seconds == 0.05:
        assert result.rounds == ()  # a round of rollouts takes far longer than 50 fake ms
        advice = bot.advise(view)  # type: ignore[arg-type]
        assert "no round of rollouts finished" in advice.ranked[1].reason


def test_no_round_starts_with_less_time_left_than_a_world_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing a world cannot be stopped: once the time left is shorter than the last draw took, no
    further round starts."""
    bot, clock, view = timed_rollout_bot(100.0, monkeypatch)
    real = bot.game.resample
    draws: list[float] = []

    def resample(*args: object, **kwargs: object) -> object:
        draws.append(clock.now)
        clock.now += 60.0  # one world: more than half the budget
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.game, "resample", resample)
    result = bot.search(view)  # type: ignore[arg-type]
    assert len(draws) == 1 and len(result.rounds) == 1


def test_search_scope_caps_and_cancels_the_rollouts() -> None:
    """Inside a search scope (the seat server's) the rollout budget is cut to the scope's cap, and a
    cancelled scope ends the search before a round: the heuristic's choice stands."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    view = state.view(me)
    bot = bots.make(state.game, "rollout", seat=me, rng=5, iterations=300, top=3)
    assert isinstance(bot, RolloutBot)
    with search_scope(SearchScope(SearchCaps(max_iterations=6))):
        capped = bot.search(view)
    assert len(capped.rounds) == 6 // 3
    scope = SearchScope()
    scope.cancel()
    with search_scope(scope):
        stopped = bot.search(view)
    assert stopped.rounds == () and stopped.action == stopped.base


# --- the compiled rollouts (ext/gcbc_sim.pyx, ext/gcbc_search.pyx) ------------------------------------


needs_compiled = pytest.mark.skipif(not gcbc_rollout.compiled(), reason="the compiled kernels are not built")


class PlayOutSpy:
    """Stands in for the compiled search module: records each ``play_out``'s seed and result, and moves
    a fake clock by ``cost`` seconds a rollout."""

    def __init__(self, real: Any, seat: int, clock: FakeClock | None = None, cost: float = 0.0) -> None:
        self.real, self.seat, self.clock, self.cost = real, seat, clock, cost
        self.seeds: list[int] = []
        self.results: list[float] = []

    def play_out(self, sim: Any, seed: int, max_steps: int) -> int:
        steps = int(self.real.play_out(sim, seed, max_steps))
        self.seeds.append(seed)
        self.results.append(sim.returns()[self.seat])
        if self.clock is not None:
            self.clock.now += self.cost
        return steps


def spied_bot(monkeypatch: pytest.MonkeyPatch, **options: Any) -> tuple[RolloutBot, Any, PlayOutSpy,
                                                                         list[GCBCState]]:
    """A rollout bot deciding a 6-player announcement, with its ``play_out`` calls and drawn worlds
    recorded."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    bot = bots.make(state.game, "rollout", seat=me, rng=5, **options)
    assert isinstance(bot, RolloutBot)
    spy = PlayOutSpy(gcbc_rollout._SEARCH, me)
    monkeypatch.setattr(gcbc_rollout, "_SEARCH", spy)
    worlds: list[GCBCState] = []
    real = bot.game.resample

    def resample(*args: Any, **kwargs: Any) -> Any:
        world = real(*args, **kwargs)
        assert isinstance(world, GCBCState)
        worlds.append(world)
        return world

    monkeypatch.setattr(bot.game, "resample", resample)
    return bot, state.view(me), spy, worlds


@needs_compiled
def test_compiled_search_is_legal_and_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled rollouts play every rollout of the budget (rounds = iterations // candidates) and
    give one legal choice and the same rounds for one seed."""
    found = []
    for _ in range(2):
        bot, view, spy, _ = spied_bot(monkeypatch, iterations=40, top=3)
        result = bot.search(view)
        assert len(result.candidates) == 3 and len(result.rounds) == 40 // 3 and len(spy.seeds) == 39
        assert result.action in result.candidates and result.action in view.legal_actions
        assert bot.step(view) in view.legal_actions
        found.append((result.rounds, result.action, spy.seeds[:39]))
    assert found[0] == found[1]
    assert len({r for rounds in found[0][0] for r in rounds}) > 1  # not one result everywhere


@needs_compiled
def test_compiled_rounds_use_common_random_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within a round every candidate's rollout starts from the same world with the same seed: a
    candidate listed twice gets its twin's result in every round, and each result is the world's
    compiled replay, copied, with the candidate applied, played out by the compiled policy."""
    bot, view, spy, worlds = spied_bot(monkeypatch, iterations=60)
    first, second = bot.candidates(view)[:2]
    cands = (first, second, first, second)
    monkeypatch.setattr(bot, "candidates", lambda view: cands)
    result = bot.search(view)
    assert len(result.rounds) == 15 == len(worlds)
    for i, row in enumerate(result.rounds):
        assert row[0] == row[2] and row[1] == row[3], (i, row)
        assert len(set(spy.seeds[4 * i:4 * i + 4])) == 1
        sim = gcbc_rollout._SIM.GCBCRulesSim.from_actions(bot.game, worlds[i].history)  # type: ignore[union-attr]
        for a, value in zip(cands, row, strict=True):
            st = sim.copy()
            st.apply(a)
            spy.real.play_out(st, spy.seeds[4 * i], gcbc_rollout.MAX_STEPS)
            assert st.returns()[bot.seat] == value
    assert len(set(spy.seeds)) == 15  # a fresh seed each round
    assert any(row[0] != row[1] for row in result.rounds)  # the candidates do differ somewhere


@needs_compiled
def test_both_engines_draw_the_same_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """For one seed the compiled and the Python rollouts compare the candidates on the same worlds."""
    histories = []
    for pure in (False, True):
        bot, view, _, worlds = spied_bot(monkeypatch, iterations=6, top=2)
        if pure:
            monkeypatch.setattr(gcbc_rollout, "_SIM", None)
        result = bot.search(view)
        assert len(result.rounds) == 3
        histories.append([w.history for w in worlds])
    assert histories[0] == histories[1]


@needs_compiled
def test_compiled_seconds_budget_drops_the_round_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled rollout cannot be stopped: the clock is read after each, and the round still running
    when the time is up is dropped (whole rounds only)."""
    from bots.ismcts_bot import reserve

    bot, view, spy, _ = spied_bot(monkeypatch, seconds=2.0)
    clock = FakeClock(10.0)
    bot.clock = clock
    spy.clock, spy.cost = clock, 0.1
    result = bot.search(view)
    k = len(result.candidates)
    assert k > 1 and result.rounds and all(len(r) == k for r in result.rounds)
    assert len(spy.seeds) > result.rollouts  # a round was started and dropped
    assert len(spy.seeds) <= result.rollouts + k
    assert clock.now - 10.0 <= 2.0 - reserve(2.0) + spy.cost + 1e-9
    assert [r for r in result.rounds] == [tuple(spy.results[i * k:(i + 1) * k])
                                        for i in range(len(result.rounds))]
