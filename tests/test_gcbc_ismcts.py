"""The Good Cop Bad Cop ISMCTS bot: per-observer keys, pooled posterior determinizations, play."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest

import bots
from bots import observer_sim
from bots.gcbc.ismcts import GCBCISMCTSBot, GCBCSim, PoolDeterminizer
from bots.pruned_ismcts import conservative_choice, gain_over, mean_se
from solver import games
from solver.core import ConfigError, View
from solver.core.referee import draw_chance
from solver.core.rng import SplitMix64
from solver.games.gcbc import codec, ops
from solver.games.gcbc.rules import GCBCState
from solver.search.ismcts import ActionStats, Budget, choose
from tests.gcbc_positions import heuristic_position, play_out
from tests.test_ismcts_bot import FakeClock


@pytest.mark.parametrize("players,seed,decisions", [(4, 1, 10), (6, 2, 40), (8, 3, 70)])
def test_keys_are_information_sets(players: int, seed: int, decisions: int) -> None:
    """Equal keys exactly when views are equal, across worlds drawn for one seat's view."""
    state = heuristic_position(players, seed, decisions)
    game = state.game
    me = state.current_player()
    rng = np.random.default_rng(seed)
    worlds = [state] + [game.resample(state.view(me), rng) for _ in range(6)]
    views = {s: [w.view(s).to_json() for w in worlds] for s in range(players)}
    keys = {s: [GCBCSim(w).key(s) for w in worlds] for s in range(players)}
    assert len(set(keys[me])) == 1  # the searcher cannot tell its worlds apart
    for s in range(players):
        for i in range(len(worlds)):
            for j in range(i):
                assert (keys[s][i] == keys[s][j]) == (views[s][i] == views[s][j]), (s, i, j)


def test_incremental_key_equals_fresh_key() -> None:
    """Extending a seat's hash action by action gives the hash computed from the start."""
    state = heuristic_position(5, 4, 20)
    sim = GCBCSim(state.clone())
    rng = SplitMix64(9)
    for s in range(5):
        sim.key(s)
    steps = 0
    while not sim.is_terminal() and steps < 60:
        legal = sim.legal_actions()  # tree moves: keys are read in the tree, not in playouts
        sim.apply(legal[rng.below(len(legal))])
        steps += 1
        if steps % 7 == 0:
            for s in range(5):
                assert sim.key(s) == GCBCSim(sim.state.clone()).key(s)
    copy = sim.copy()
    if not copy.is_terminal():
        copy.apply(copy.legal_actions()[0])
    assert sim.key(0) == GCBCSim(sim.state.clone()).key(0)  # the copy did not touch the original


def test_heuristic_playout_answers_each_window_seat() -> None:
    """A heuristic playout never closes a window early: each of its steps is one rules step, and
    seats do answer windows with cards (so closing on a pass would change the game)."""
    state = heuristic_position(6, 7, 30)
    sim = GCBCSim(state.clone())
    rng = SplitMix64(5)
    passes = plays = 0
    while not sim.is_terminal():
        st = cast(GCBCState, sim.state)
        in_window = st.stack[-1][0] == ops.WINDOW
        action = sim.default_action(rng)
        slow = st.clone()
        slow.apply_unchecked(action)
        sim.apply(action)
        assert sim.state.records == slow.records and sim.state.stack == slow.stack
        if in_window:
            passes += action == codec.PASS
            plays += action != codec.PASS
    assert passes > 0
    game_plays = 0
    for seed in range(4):  # a card played in a window somewhere in a few heuristic playouts
        sim = GCBCSim(heuristic_position(6, seed, 10))
        rng = SplitMix64(seed)
        while not sim.is_terminal():
            window = cast(GCBCState, sim.state).stack[-1][0] == ops.WINDOW
            action = sim.default_action(rng)
            game_plays += window and action != codec.PASS
            sim.apply(action)
    assert plays + game_plays > 0


def test_pool_worlds_match_the_view() -> None:
    """Every pooled world shows the searcher exactly its view, for every belief."""
    state = heuristic_position(6, 5, 30)
    me = state.current_player()
    view = state.view(me)
    for belief in ("full", "deduction", "uniform"):
        bot = bots.make(state.game, "ismcts", seat=me, rng=0, belief=belief, worlds=5)
        assert isinstance(bot, GCBCISMCTSBot)
        det = bot.determinizer(view)
        assert isinstance(det, observer_sim.PoolDeterminizer)
        rng = SplitMix64(3)
        for _ in range(8):
            assert det.sample(rng).state.view(me).to_json() == view.to_json()
        assert len(det.pool) == 5


def test_same_view_same_choice() -> None:
    """The bot reads only its view: two true states with one view give one action for one seed."""
    state = heuristic_position(6, 6, 45)
    me = state.current_player()
    other = state.game.resample(state.view(me), np.random.default_rng(1))
    assert other.view(me).to_json() == state.view(me).to_json()
    picks = []
    for st in (state, other):
        bot = bots.make(state.game, "ismcts", seat=me, rng=11, iterations=40)
        picks.append(bot.step(st.view(me)))
    assert picks[0] == picks[1]
    assert picks[0] in state.legal_actions()


def test_window_decisions_get_their_share() -> None:
    """A play-or-pass window searches window_share of the iterations, in play and in advice; a turn
    searches them all."""
    game = games.load("gcbc", players=4)
    rng = np.random.default_rng(8)
    state = game.new_initial_state()
    seated = {s: bots.make(game, "heuristic", seat=s, rng=s) for s in range(4)}
    seen = {"window": 0, "turn": 0}
    while not state.is_terminal() and min(seen.values()) == 0:
        seat = state.current_player()
        if seat < 0:
            state.apply(draw_chance(state, rng))
            continue
        view = state.view(seat)
        if len(view.legal_actions) > 1:
            bot = bots.make(game, "ismcts", seat=seat, rng=1, iterations=40,
                            window_share=0.25)
            assert isinstance(bot, GCBCISMCTSBot)
            action = bot.step(view)
            if bot.unsearched_decision(view.legal_actions):
                # the heuristic's choice, with no search
                assert bot.last is None
                assert action == bots.make(game, "heuristic", seat=seat, rng=1).step(view)
                state.apply(seated[seat].step(view))
                continue
            assert bot.last is not None
            window = 0 in view.legal_actions  # pass
            seen["window" if window else "turn"] += 1
            assert bot.last.iterations == (10 if window else 40)
            # advice searches as step does; a caller's explicit budget is searched as given
            bot.advise(view)
            assert bot.last.iterations == (10 if window else 40)
            bot.advise(view, 24)
            assert bot.last.iterations == 24
        state.apply(seated[seat].step(view))
    assert min(seen.values()) > 0


def test_plays_whole_games_legally() -> None:
    """Two ismcts seats in a heuristic field finish a game with legal moves only (4 players)."""
    game = games.load("gcbc", players=4)
    rng = np.random.default_rng(12)
    state = game.new_initial_state()
    seated = {s: bots.make(game, "ismcts", seat=s, rng=s, iterations=8)
              if s in (0, 2) else bots.make(game, "heuristic", seat=s, rng=s) for s in range(4)}
    assert play_out(state, seated, rng).winner


def test_bad_options() -> None:
    """Typed errors name the option."""
    game = games.load("gcbc", players=4)
    with pytest.raises(ConfigError, match="belief"):
        bots.make(game, "ismcts", seat=0, rng=0, belief="psychic")
    with pytest.raises(ConfigError, match="worlds"):
        bots.make(game, "ismcts", seat=0, rng=0, worlds=0)
    with pytest.raises(ConfigError, match="ismcts bot: option 'base' must be one of rules, posterior"):
        bots.make(game, "ismcts", seat=0, rng=0, base="oracle")
    assert bots.make(game, "ismcts", seat=0, rng=0).settings["base"] == "posterior"  # the default
    with pytest.raises(ConfigError, match="gcbc only"):
        GCBCISMCTSBot(games.load("police07"), 1, np.random.default_rng(0))


def test_root_is_pruned_to_the_heuristics_best() -> None:
    """prune=N searches the heuristic's best N root actions (pass too in a window); 0: all."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    view = state.view(me)
    for base in ("posterior", "rules"):  # the heuristic with the bot's base team estimate
        heuristic = bots.make(state.game, "heuristic", seat=me, rng=0, estimate=base)
        best = [r.action for r in heuristic.advise(view).ranked]
        pruned = bots.make(state.game, "ismcts", seat=me, rng=0, iterations=30, prune=3, base=base)
        result = pruned.search(view)  # type: ignore[attr-defined]
        assert {s.action for s in result.stats} == set(best[:3])
    full = bots.make(state.game, "ismcts", seat=me, rng=0, iterations=30, prune=0)
    assert {s.action for s in full.search(view).stats} == set(view.legal_actions)  # type: ignore[attr-defined]


def _worlds_for(state: GCBCState, seat: int, seed: int) -> tuple[GCBCState, GCBCState]:
    """Two worlds drawn from ``seat``'s view of ``state``: they differ only in what it cannot see."""
    view = state.view(seat)
    a = state.game.resample(view, np.random.default_rng(seed))
    b = state.game.resample(view, np.random.default_rng(seed + 1000))
    return a, b


@pytest.mark.parametrize("players,seed", [(6, 2), (5, 8), (8, 3)])
def test_heuristic_playout_reads_only_the_seats_view(players: int, seed: int) -> None:
    """A seat's playout action is a function of its own view and the stream: worlds that differ
    only in what is hidden from it give it the same action and leave the stream in the same state."""
    state = heuristic_position(players, seed, 5)
    play = np.random.default_rng(seed)
    seated = {s: bots.make(state.game, "heuristic", seat=s, rng=seed + s) for s in range(players)}
    checked = differ = 0
    while not state.is_terminal() and checked < 60:
        seat = state.current_player()
        if seat < 0:
            state.apply(draw_chance(state, play))
            continue
        if len(state.legal_actions()) > 1:
            a, b = _worlds_for(state, seat, checked)
            assert a.view(seat).to_json() == b.view(seat).to_json()
            hidden_differ = any(a.cards[s] != b.cards[s] or a.hands[s] != b.hands[s] for s in range(players))
            differ += hidden_differ
            for stream in (1, 2, 3):
                ra, rb = SplitMix64(stream), SplitMix64(stream)
                assert GCBCSim(a).default_action(ra) == GCBCSim(b).default_action(rb), (checked, stream)
                assert ra.state == rb.state
            checked += 1
        state.apply(seated[seat].step(state.view(seat)))
    assert checked >= 20 and differ >= checked // 2  # most pairs of worlds do differ in hidden cards


def test_playout_views_stay_equal_to_fresh_views() -> None:
    """Pool worlds settle every seat's view once; the copies that iterations take, moved on by tree
    actions and playout steps, still give every seat exactly ``state.view(seat)``."""
    state = heuristic_position(6, 5, 30)
    me = state.current_player()
    det = PoolDeterminizer(state.game, state.view(me), None, 3)
    rng = SplitMix64(4)
    for i in range(4):
        sim = det.sample(rng)
        for step in range(25 + 20 * i):
            if sim.is_terminal():
                break
            legal = sim.legal_actions()
            sim.apply(legal[rng.below(len(legal))] if step < 8 else sim.default_action(rng))
        views = sim._views
        st = cast(GCBCState, sim.state)
        for s in range(6):
            assert views.view_json(st, s) == st.view(s).to_json(), (i, s)


def test_same_seed_same_search() -> None:
    """An iteration budget is deterministic: one seed, one choice and the same statistics."""
    state = heuristic_position(6, 9, 50)
    me = state.current_player()
    results = []
    for _ in range(2):
        bot = bots.make(state.game, "ismcts", seat=me, rng=21)
        assert isinstance(bot, GCBCISMCTSBot)
        results.append(bot.search(state.view(me), Budget(iterations=25)))
    assert results[0].same_search(results[1], tol=0.0)
    other = bots.make(state.game, "ismcts", seat=me, rng=22)
    assert other.step(state.view(me)) in state.legal_actions()


def test_legal_choices_over_many_searches() -> None:
    """Heuristic-playout searches from many positions and seeds choose legal actions only."""
    searched = 0
    for seed in range(6):
        for decisions in (4, 25, 60):
            state = heuristic_position(4 + seed % 5, seed, decisions)
            if state.is_terminal():
                continue
            me = state.current_player()
            view = state.view(me)
            bot = bots.make(state.game, "ismcts", seat=me, rng=seed * 100 + decisions,
                            iterations=6, worlds=4)
            assert bot.step(view) in view.legal_actions
            searched += 1
    assert searched >= 15


def _stats(*rows: tuple[int, int, float]) -> tuple[ActionStats, ...]:
    """Root statistics from (action, visits, mean value) rows, ascending by action (as searches give)."""
    return tuple(ActionStats(a, n, n, v) for a, n, v in sorted(rows))


# base action 20 (the heuristic's choice); the most visited is 10 unless said otherwise
MARGIN_CASES = [
    # gain 0.05, se of the difference ~0.061: within one standard error, the heuristic's choice stays
    ("gain below the margin keeps the base",
     _stats((10, 200, 0.55), (20, 100, 0.50), (30, 50, 0.4)), 1.0, 20),
    # gain 0.20, se ~0.059: more than one standard error (and than three), the most visited plays
    ("gain above the margin switches", _stats((10, 300, 0.70), (20, 100, 0.50)), 1.0, 10),
    ("gain above three margins switches", _stats((10, 300, 0.70), (20, 100, 0.50)), 3.0, 10),
    ("the same gain below a wide margin keeps the base", _stats((10, 300, 0.70), (20, 100, 0.50)), 4.0, 20),
    ("a worse most visited keeps the base", _stats((10, 200, 0.40), (20, 100, 0.60)), 1.0, 20),
    ("margin 0 is the most visited, even when worse", _stats((10, 200, 0.40), (20, 100, 0.60)), 0.0, 10),
    ("margin 0 with a small gain: the most visited", _stats((10, 200, 0.55), (20, 100, 0.50)), 0.0, 10),
    ("a pruned-out base: the most visited", _stats((10, 200, 0.40), (30, 100, 0.60)), 1.0, 10),
    ("an unvisited base: the most visited", _stats((10, 200, 0.40), (20, 0, 0.0), (30, 100, 0.6)), 1.0, 10),
    ("the base most visited is played", _stats((10, 100, 0.9), (20, 200, 0.5)), 1.0, 20),
    # p in {0, 1} on few visits: the +1/+2 correction keeps the errors positive (gain 1, se ~0.33)
    ("all wins against all losses, few visits", _stats((10, 3, 1.0), (20, 1, 0.0)), 1.0, 10),
    ("all wins against all losses, wide margin", _stats((10, 3, 1.0), (20, 1, 0.0)), 4.0, 20),
    ("equal visits: the search's tie-break (higher value)", _stats((10, 100, 0.8), (20, 100, 0.5)), 0.0, 10),
]


@pytest.mark.parametrize("stats,margin,expected", [c[1:] for c in MARGIN_CASES],
                         ids=[c[0] for c in MARGIN_CASES])
def test_conservative_choice(stats: tuple[ActionStats, ...], margin: float, expected: int) -> None:
    """The most visited action replaces the heuristic's (20) only beyond ``margin`` standard errors."""
    assert conservative_choice(stats, 20, margin) == expected
    if margin == 0.0:
        assert expected == choose(stats)


def test_standard_errors_are_guarded() -> None:
    """The corrected error is positive at n=0 and p in {0, 1}, and near sqrt(p(1-p)/n) for large n."""
    assert mean_se(0, 0.0) == pytest.approx((0.25 / 2) ** 0.5)
    assert 0.0 < mean_se(5, 1.0) == mean_se(5, 0.0)
    assert mean_se(10_000, 0.3) == pytest.approx((0.21 / 10_000) ** 0.5, rel=1e-3)
    gain, se = gain_over(_stats((1, 300, 0.7), (2, 100, 0.5)), 1, 2)
    assert gain == pytest.approx(0.2)
    assert se == pytest.approx((mean_se(300, 0.7) ** 2 + mean_se(100, 0.5) ** 2) ** 0.5)


@pytest.mark.parametrize("margin", [-0.5, 10.5, float("nan"), "1", True])
def test_bad_margin(margin: object) -> None:
    """A bad margin is a ConfigError naming the option, for the bot and for the function."""
    game = games.load("gcbc", players=4)
    with pytest.raises(ConfigError, match="margin"):
        bots.make(game, "ismcts", seat=0, rng=0, margin=margin)
    with pytest.raises(ConfigError, match="'margin'"):
        conservative_choice(_stats((1, 10, 0.5), (2, 5, 0.5)), 2, margin)  # type: ignore[arg-type]


def test_margin_decides_what_the_bot_plays() -> None:
    """A wide margin plays the heuristic's choice; margin 0 the most visited; the bot's default is 2."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    view = state.view(me)
    heuristic = bots.make(state.game, "heuristic", seat=me, rng=0, estimate="posterior")  # the bot's base
    base = heuristic.advise(view).ranked[0].action
    wide = bots.make(state.game, "ismcts", seat=me, rng=5, iterations=40, margin=10.0)
    assert isinstance(wide, GCBCISMCTSBot)
    assert bots.make(state.game, "ismcts", seat=me, rng=0).settings["margin"] == 2.0
    assert wide.base_action(view) == base
    assert wide.step(view) == base  # the base is among the pruned root and visited at 40 iterations
    assert wide.last is not None and wide.last.action == base
    plain = bots.make(state.game, "ismcts", seat=me, rng=5, iterations=40, margin=0.0)
    result = plain.search(view)  # type: ignore[attr-defined]
    assert result.action == choose(result.stats) == result.ranked()[0].action


@pytest.mark.parametrize("seed,decisions", [(3, 60), (9, 50), (2, 20)])
def test_advice_says_what_the_bot_plays(seed: int, decisions: int) -> None:
    """Advice ranks by visits; its summary names the action played, and when that is not the first
    ranked (the heuristic's choice kept by the margin) that action's reason says the bot plays it."""
    state = heuristic_position(6, seed, decisions, announce=True)
    me = state.current_player()
    view = state.view(me)
    bot = bots.make(state.game, "ismcts", seat=me, rng=1, iterations=60)
    assert isinstance(bot, GCBCISMCTSBot)
    advice = bot.advise(view)
    assert bot.last is not None
    played = bot.last.action
    visits = [r.visits or 0 for r in advice.ranked]
    assert visits == sorted(visits, reverse=True)
    assert "the bot plays" in advice.summary
    if played == advice.ranked[0].action:
        assert "; the bot plays it (" in advice.summary
    else:
        assert played == bot.base_action(view)
        assert f"the bot plays the heuristic's {state.game.action_to_str(played)}" in advice.summary
        marked = [r for r in advice.ranked if "the bot plays this" in r.reason]
        assert [r.action for r in marked] == [played]


# --- the time budget is the whole decision's ---------------------------------------------------


def test_the_pool_stops_drawing_worlds_when_its_share_is_spent() -> None:
    state = heuristic_position(6, 5, 30)
    me = state.current_player()
    det = PoolDeterminizer(state.game, state.view(me), None, 8)
    drawn: list[int] = []
    det.pool_full = lambda: (drawn.append(len(det.pool)) or len(det.pool) >= 3)
    det.sample(SplitMix64(1))
    assert len(det.pool) == 3 and drawn == [1, 2, 3]  # asked after each world, never before the first
    always = PoolDeterminizer(state.game, state.view(me), None, 8)
    always.pool_full = lambda: True
    always.sample(SplitMix64(1))
    assert len(always.pool) == 1  # at least one world


def timed_bot() -> tuple[GCBCState, View, GCBCISMCTSBot, FakeClock]:
    """A 6-player announcement, its seat's view, and an ismcts bot for it with a 0.5 s budget on a
    fake clock (at 10.0)."""
    state = heuristic_position(6, 3, 60, announce=True)
    me = state.current_player()
    bot = bots.make(state.game, "ismcts", seat=me, rng=0, seconds=0.5)
    assert isinstance(bot, GCBCISMCTSBot)
    clock = FakeClock(10.0)
    bot.clock = clock
    return state, state.view(me), bot, clock


def test_a_timed_search_counts_the_posterior_and_cuts_its_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The posterior, the root's ranking and the pool are inside the seconds budget: the search gets
    what they left, reads the clock after every iteration, the pool stops at its share of the time,
    and a line of play below the root ends once the time is up."""
    from bots import ismcts_bot
    from bots.pruned_ismcts import POOL_SHARE

    state, view, bot, clock = timed_bot()
    real_det = bot.determinizer
    dets: list[PoolDeterminizer] = []

    def slow(v: object) -> PoolDeterminizer:
        clock.now += 0.2  # the posterior and the ranking, say
        dets.append(real_det(v))  # type: ignore[arg-type]
        return dets[-1]

    monkeypatch.setattr(bot, "determinizer", slow)
    seen: list[tuple[Budget, int]] = []
    real_run = ismcts_bot.run_search

    def spy(det: object, seat: int, budget: Budget, rng: SplitMix64, params: object) -> object:
        seen.append((budget, params.check_every))  # type: ignore[attr-defined]
        return real_run(det, seat, Budget(iterations=8), rng, params)  # type: ignore[arg-type]

    monkeypatch.setattr(ismcts_bot, "run_search", spy)
    assert bot.step(view) in view.legal_actions
    end = 0.5 - ismcts_bot.reserve(0.5)
    assert len(seen) == 1 and seen[0][1] == 1 and seen[0][0].iterations is None
    assert seen[0][0].seconds == pytest.approx(end - 0.2)
    det = dets[0]
    assert det.expired is not None and det.pool_full is not None
    assert not det.pool_full() and not det.expired()  # the fake clock stood still since
    clock.now = 10.0 + 0.2 + POOL_SHARE * (end - 0.2) + 1e-9
    assert det.pool_full() and not det.expired()
    sim = det.sample(SplitMix64(2))
    assert sim.expired is det.expired and sim.copy().expired is det.expired
    sim.apply(sim.legal_actions()[0])
    assert not sim.is_terminal()
    clock.now = 10.0 + end + ismcts_bot.CUTOFF_GRACE + 1e-9
    assert det.expired() and sim.is_terminal() and sim.returns() == [0.5] * 6
    assert not det.sample(SplitMix64(3)).is_terminal()  # a fresh line of play is at the root
    assert det.world_seconds == bot.world_seconds == 0.0  # the fake clock stood still while it drew


def test_no_search_without_time_for_its_first_world(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the time left after the posterior and the ranking is shorter than the last first world
    took to draw, the bot plays the base heuristic's choice without a search, and says so."""
    from bots import ismcts_bot
    from bots.base import DecisionClock

    state, view, bot, clock = timed_bot()
    real_resample = state.game.resample

    def slow_world(*args: object, **kwargs: object) -> object:
        clock.now += 0.3
        return real_resample(*args, **kwargs)  # type: ignore[arg-type]

    det = PoolDeterminizer(state.game, view, None, 4)
    det.clock = DecisionClock(clock)
    monkeypatch.setattr(state.game, "resample", slow_world)
    det.sample(SplitMix64(1))
    assert det.world_seconds == pytest.approx(0.3)  # the first world, as the decision's clock read it
    monkeypatch.setattr(state.game, "resample", real_resample)
    searched: list[object] = []
    monkeypatch.setattr(ismcts_bot, "run_search", lambda *a, **k: searched.append(a))
    bot.world_seconds = 0.6  # more than the whole budget
    assert bot.step(view) == bot.base_action(view)
    assert bot.last is not None and bot.last.iterations == 0 and searched == []
    assert {s.action for s in bot.last.stats} <= set(view.legal_actions)
    advice = bot.advise(view)
    assert advice.ranked[0].action == bot.base_action(view)
    # the heuristic's ranking, and the true reason: the time, not a lone candidate
    assert advice.decided_by == "heuristic" and "too little of the decision's time" in advice.note
    assert "600 ms" in advice.note
    assert [r.action for r in advice.ranked] == bot._heuristic_ranking(view)
    assert all(r.visits is None for r in advice.ranked)
    assert searched == []
