"""The ``rhea`` bot of Police Precinct: legal, seeded, its plans played as stated, its margin, its clock."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

import bots.precinct.rhea as rhea
from bots.precinct.heuristic import PrecinctHeuristic
from bots.precinct.ismcts import is_major
from bots.precinct.rhea import PrecinctRHEABot, World, choose, play_genome, playout
from bots.precinct.search import heuristic_action, turns_begun
from solver import games
from solver.core import CHANCE, ConfigError
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from solver.games.precinct.view import PrecinctView
from solver.search.precinct_value import load_value
from tests.precinct_positions import heuristic_position
from tests.test_bot_contract import check_view_only
from tests.test_ismcts_bot import FakeClock

GAME = PrecinctGame(players=4, dirty_cop=False)


@lru_cache(maxsize=8)
def position(seed: int, majors: int, minor: bool = False) -> PrecinctState:
    """A seeded heuristic game stopped at seat 0's ``majors``-th major decision with a choice (or the
    first minor decision with a choice after it)."""
    return heuristic_position(GAME, seed, majors, seat=0, minor=minor)


def view_at(seed: int = 1, majors: int = 6, minor: bool = False) -> PrecinctView:
    view = position(seed, majors, minor).view(0)
    assert isinstance(view, PrecinctView)
    return view


def test_legal_at_major_and_minor_decisions() -> None:
    for minor in (False, True):
        view = view_at(minor=minor)
        assert is_major(view.legal_actions) != minor
        bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0), iterations=6)
        assert bot.step(view) in view.legal_actions


def test_same_seed_and_iterations_replay_the_same_search() -> None:
    view = view_at()
    a = PrecinctRHEABot(GAME, 0, np.random.default_rng(11), iterations=12)
    b = PrecinctRHEABot(GAME, 0, np.random.default_rng(11), iterations=12)
    ra, rb = a.search(view), b.search(view)
    assert ra.action == rb.action and ra.genomes == rb.genomes and ra.scores == rb.scores
    assert len(ra.genomes) == 12 and ra.genomes[0] == (0,) * 8  # the heuristic team seeds it
    assert len(set(ra.genomes)) == 12  # a plan met again is not played again


def replay_heuristic(world: World, first: int, horizon: int) -> PrecinctState:
    """The heuristic team in ``world`` after ``first`` at the root, through the rules: chance by its
    probabilities on the chance stream, ties on each seat's own stream; cut ``horizon`` turns on."""
    st = world.state.clone()
    stop = turns_begun(st) + horizon
    st.apply(first)
    chance = SplitMix64(world.seeds[0])
    ties = [SplitMix64(x) for x in world.seeds[1:]]
    while not st.is_terminal() and turns_begun(st) < stop:
        p = st.current_player()
        if p == CHANCE:
            u = chance.uniform()
            out = st.chance_outcomes()
            pick = out[-1][0]
            for a, q in out:
                u -= q
                if u < 0:
                    pick = a
                    break
            st.apply(pick)
        else:
            st.apply(heuristic_action(st, ties[p]))
    return st


def a_world(view: PrecinctView, seed: int) -> World:
    state = GAME.resample(view, np.random.default_rng(seed))
    assert isinstance(state, PrecinctState)
    return World(state, tuple(seed * 10 + i for i in range(5)))


def test_the_all_zeros_plan_is_the_heuristic_team() -> None:
    view = view_at()
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0))
    root = bot.root_ranking(view)
    evaluate = load_value().value
    for seed in (1, 2):
        world = a_world(view, seed)
        st = replay_heuristic(world, root[0], 4)
        want = evaluate(st)  # seat 0 is good: its score is P(the good team wins)
        assert play_genome(world, (0,) * 8, root, 0, 4, evaluate) == pytest.approx(want, abs=1e-12)
        sim = playout(world, (0,) * 8, root, 0, 4, evaluate)
        assert sim is not None and sim.state.history == st.history


def test_genes_change_the_plan() -> None:
    view = view_at()
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0))
    root = bot.root_ranking(view)
    assert len(root) > 1
    evaluate = load_value().value
    world = a_world(view, 3)
    zeros = playout(world, (0,) * 8, root, 0, 4, evaluate)
    # the root gene picks the root action: rank 1 is the heuristic team after root[1]
    other = playout(world, (1,) + (0,) * 7, root, 0, 4, evaluate)
    assert zeros is not None and other is not None
    first = len(world.state.history)
    assert zeros.state.history[first] == root[0] and other.state.history[first] == root[1]
    assert other.state.history == replay_heuristic(world, root[1], 4).history
    # a later gene changes a later team decision (ranks past the legal count wrap)
    later = playout(world, (0, 1) + (0,) * 6, root, 0, 4, evaluate)
    assert later is not None and later.state.history != zeros.state.history
    wrapped = playout(world, (len(root),) + (0,) * 7, root, 0, 4, evaluate)
    assert wrapped is not None and wrapped.state.history == zeros.state.history


def test_choose_keeps_the_heuristic_unless_the_plan_beats_it_by_the_margin() -> None:
    root = (7, 8, 9)
    genomes = [(0, 0), (2, 0)]
    clear = [(0.2, 0.3, 0.25, 0.2), (0.5, 0.61, 0.55, 0.52)]  # +0.32 with a small paired error
    assert choose(root, genomes, clear, 1.0) == 9
    assert choose(root, genomes, clear, 10.0) == 9  # se ~0.01: 10 errors is still below the gain
    noisy = [(0.0, 1.0, 0.0, 1.0), (1.0, 0.0, 1.0, 1.0)]  # +0.25, se 0.48
    assert choose(root, genomes, noisy, 1.0) == 7
    assert choose(root, genomes, noisy, 0.0) == 9
    assert choose(root, [(0, 0), (1, 1)], [(0.5,), (0.9,)], 0.0) == 8
    assert choose(root, [(0, 0), (1, 1)], [(0.5,), (0.9,)], 1.0) == 7  # one world: no error estimate
    assert choose(root, [], [], 1.0) == 7


def test_a_planner_that_cannot_beat_the_heuristic_plays_its_action() -> None:
    view = view_at()
    base = PrecinctRHEABot(GAME, 0, np.random.default_rng(0)).root_ranking(view)[0]
    for seed in range(3):
        bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(seed), iterations=10, margin=10.0)
        result = bot.search(view)
        assert result.action == base
        gain = result.gain()
        assert gain is not None
        best = result.best()
        assert best is not None
        if result.root_action(result.genomes[best]) != base:
            assert gain[0] <= 10.0 * gain[1]
    advice = PrecinctRHEABot(GAME, 0, np.random.default_rng(0), iterations=10, margin=10.0).advise(view)
    assert advice.ranked[0].action == base
    assert "heuristic" in advice.summary
    assert {r.action for r in advice.ranked} == set(view.legal_actions)


def test_advice_ranks_the_evaluated_root_actions_with_reasons() -> None:
    view = view_at()
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(4), iterations=16, margin=0.0)
    advice = bot.advise(view)
    result = bot.last
    assert result is not None
    assert advice.ranked[0].action == result.action
    assert sorted(r.action for r in advice.ranked) == sorted(view.legal_actions)
    evaluated = [r for r in advice.ranked if r.visits]
    assert sum(r.visits or 0 for r in evaluated) == len(result.genomes) == 16
    assert all("estimated team win chance" in r.reason for r in evaluated)
    assert GAME.action_to_str(result.action) in advice.summary
    with pytest.raises(ConfigError):
        bot.advise(view, 0)


class TickingClock(FakeClock):
    """A fake clock that moves ``tick`` seconds at every reading (the bot's work takes time)."""

    def __init__(self, tick: float) -> None:
        super().__init__()
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def test_a_timed_decision_stays_within_its_budget() -> None:
    view = view_at()
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0), seconds=0.05)
    clock = TickingClock(0.00005)
    bot.clock = clock
    start = clock.now
    assert bot.step(view) in view.legal_actions
    spent = clock.now - start
    assert spent <= 0.05 + max(0.05 * 0.05, 0.002)
    result = bot.last
    assert result is not None and result.worlds >= 1
    assert 0 < len(result.genomes) < 64  # it searched, and the clock (not the iterations) stopped it


def test_no_search_when_a_world_cannot_be_drawn_in_the_time_left() -> None:
    view = view_at()
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0), seconds=0.05)
    bot.clock = FakeClock()
    bot.world_seconds = 0.06  # the last decision's first world took longer than this whole budget
    assert bot.step(view) == bot.root_ranking(view)[0]
    assert bot.last is not None and bot.last.worlds == 0 and not bot.last.genomes


def test_no_search_when_the_first_world_is_not_drawn_in_time(monkeypatch: pytest.MonkeyPatch) -> None:
    view = view_at()
    asked: list[bool] = []

    def gives_up(game: object, view: object, rng: object, belief: object, expired: object) -> None:
        asked.append(True)  # a draw that backtracks past the decision's end
        return None

    monkeypatch.setattr(type(GAME), "resample_within", gives_up)
    bot = PrecinctRHEABot(GAME, 0, np.random.default_rng(0), seconds=0.05)
    bot.clock = FakeClock()
    assert bot.step(view) == bot.root_ranking(view)[0]
    assert asked and bot.last is not None and bot.last.worlds == 0 and not bot.last.genomes


@pytest.mark.parametrize("options", [{"iterations": 0}, {"population": 1}, {"worlds": 0}, {"length": 0},
                                     {"margin": -1.0}, {"horizon": -1}, {"seconds": 0.0}, {"depth": 3}])
def test_bad_options_are_rejected(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        PrecinctRHEABot(GAME, 0, np.random.default_rng(0), **options)


def test_another_game_is_rejected() -> None:
    with pytest.raises(ConfigError):
        PrecinctRHEABot(games.load("gcbc"), 0, np.random.default_rng(0))


def test_reads_nothing_beyond_its_view() -> None:
    assert rhea.PrecinctRHEABot.name == "rhea"  # imported: registered for the shared check
    check_view_only("precinct", "rhea", 4, seed=5, picks=(1, 4, 9, 15))


def test_a_dirty_seat_plans_for_its_own_side() -> None:
    """With the Dirty Cop, the dirty seat's genes are its own side's decisions and its score is the
    complement of the good team's chance."""
    game = PrecinctGame(players=4, dirty_cop=True)
    st = game.new_initial_state()
    assert isinstance(st, PrecinctState)
    rng = np.random.default_rng(2)
    team = [PrecinctHeuristic(game, s, np.random.default_rng([2, s])) for s in range(4)]
    while True:
        p = st.current_player()
        if p == CHANCE:
            out = st.chance_outcomes()
            st.apply(out[rng.choice(len(out), p=[q for _, q in out])][0])
            continue
        legal = st.legal_actions()
        if st.loyalty[p] and len(legal) > 1 and is_major(legal) and turns_begun(st) > 4:
            break
        st.apply(team[p].step(st.view(p)))
    view = st.view(p)
    assert isinstance(view, PrecinctView)
    bot = PrecinctRHEABot(game, p, np.random.default_rng(0), iterations=4)
    assert bot.step(view) in view.legal_actions
    root = bot.root_ranking(view)
    world = World(st, (1, 2, 3, 4, 5))
    sim = playout(world, (0,) * 8, root, p, 4, load_value().value)
    assert sim is not None
    final = sim.state
    assert isinstance(final, PrecinctState)
    want = load_value().value(final)
    assert play_genome(world, (0,) * 8, root, p, 4, load_value().value) == pytest.approx(1.0 - want)
