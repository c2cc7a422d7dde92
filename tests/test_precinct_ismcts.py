"""The ``ismcts`` bot of Police Precinct and its sim: heuristic playouts, the horizon, keys, the bot."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bots.precinct.heuristic import PrecinctHeuristic, score
from bots.precinct.ismcts import PrecinctISMCTSBot, is_major
from bots.precinct.search import PrecinctSim, heuristic_action, turns_begun
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.precinct.rules import PrecinctGame
from solver.games.precinct.state import PrecinctState
from tests.precinct_positions import heuristic_position
from tests.test_bot_contract import check_view_only

GAME = PrecinctGame(players=4)
DIRTY = PrecinctGame(players=4, dirty_cop=True)


@lru_cache(maxsize=8)
def position(game: PrecinctGame, seed: int, majors: int) -> PrecinctState:
    """A seeded heuristic game stopped at its ``majors``-th major decision with a choice."""
    return heuristic_position(game, seed, majors)


def test_playout_policy_is_the_heuristic_on_the_view() -> None:
    st = position(GAME, 1, 12).clone()
    checked = 0
    rng = SplitMix64(3)
    for _ in range(200):  # play on: every decision the heuristic's best scored action on the view
        p = st.current_player()
        if st.is_terminal():
            break
        if p == CHANCE:
            out = st.chance_outcomes()
            st.apply(out[0][0])
            continue
        view = st.view(p)
        scored = score(GAME, view.to_json(), view.legal_actions)
        top = max(s for _, s, _ in scored)
        chosen = heuristic_action(st, rng)
        assert chosen in [a for a, s, _ in scored if s >= top - 1e-9]
        checked += 1
        st.apply(chosen)
    assert checked > 50


def test_a_playout_stops_at_the_horizon_and_scores_the_value() -> None:
    st = position(GAME, 1, 12)
    sim = PrecinctSim(st.clone(), horizon=2, evaluate=lambda s: 0.25)
    sim.prepare()
    start = turns_begun(st)
    rng = SplitMix64(9)
    steps = 0
    while not sim.is_terminal():
        assert turns_begun(sim.state) < start + 2  # type: ignore[arg-type]
        sim.apply(sim.default_action(rng))
        steps += 1
    assert steps > 5 and turns_begun(sim.state) == start + 2  # type: ignore[arg-type]
    assert sim.returns() == [0.25] * 4  # every seat is good
    full = PrecinctSim(st.clone(), horizon=0)
    full.prepare()
    while not full.is_terminal():
        full.apply(full.default_action(rng))
    assert full.state.is_terminal() and sorted(set(full.returns())) in ([0.0], [1.0])


def test_the_dirty_seat_scores_the_complement() -> None:
    st = position(DIRTY, 2, 6)
    sim = PrecinctSim(st.clone(), horizon=1, evaluate=lambda s: 0.3)
    got = sim.returns()
    assert got == [0.7 if st.loyalty[s] else 0.3 for s in range(4)] and 0.7 in got


def test_keys_are_what_the_seat_saw() -> None:
    st = position(GAME, 3, 10)
    me = st.current_player()
    worlds = [GAME.resample(st.view(me), np.random.default_rng(k)) for k in range(3)]
    keys = {PrecinctSim(w).key(me) for w in worlds}
    assert len(keys) == 1  # worlds the seat cannot tell apart share its key
    other = (me + 1) % 4
    assert len({PrecinctSim(w).key(other) for w in worlds}) > 1  # another seat's hand differs


def test_the_bot_is_legal_seeded_and_leaves_minor_decisions_to_the_heuristic() -> None:
    st = position(GAME, 4, 9)
    me = st.current_player()
    view = st.view(me)
    first = PrecinctISMCTSBot(GAME, me, np.random.default_rng(5), iterations=12, worlds=2)
    again = PrecinctISMCTSBot(GAME, me, np.random.default_rng(5), iterations=12, worlds=2)
    a = first.step(view)
    assert a in view.legal_actions and a == again.step(view)
    assert first.last is not None and first.last.iterations == 12
    # a minor decision: the heuristic's choice, with the same generator, unsearched
    minor = st.clone()
    while True:
        p = minor.current_player()
        if p != CHANCE and len(minor.legal_actions()) > 1 and not is_major(minor.legal_actions()):
            break
        minor.apply(minor.legal_actions()[0] if p != CHANCE else minor.chance_outcomes()[0][0])
    p = minor.current_player()
    bot = PrecinctISMCTSBot(GAME, p, np.random.default_rng(8), iterations=12)
    bot.last = None
    base = PrecinctHeuristic(GAME, p, np.random.default_rng(8))
    assert bot.step(minor.view(p)) == base.step(minor.view(p)) and bot.last is None


def test_one_candidate_is_played_unsearched() -> None:
    # prune=1 and no accusation to try: the heuristic's first-ranked action, no iteration run
    st = position(GAME, 4, 9)
    me = st.current_player()
    view = st.view(me)
    bot = PrecinctISMCTSBot(GAME, me, np.random.default_rng(5), iterations=12, worlds=2, prune=1)
    base = PrecinctHeuristic(GAME, me, np.random.default_rng(5))
    bot.last = None
    assert bot.single_candidate(view)
    assert bot.step(view) == base.step(view) and bot.last is None  # the heuristic's move, unsearched
    ranked = [r.action for r in PrecinctHeuristic(GAME, me, np.random.default_rng(0)).advise(view).ranked]
    result = bot.search(view)  # advice and hints: the one candidate, no iteration
    assert result.iterations == 0 and [s.action for s in result.stats] == [ranked[0]]
    assert not PrecinctISMCTSBot(GAME, me, np.random.default_rng(5), prune=2).single_candidate(view)


def test_the_bot_reads_only_its_view() -> None:
    check_view_only("precinct", "ismcts", 4, 3, picks=(1, 4, 9, 15))  # the default picks are minor


def test_the_watch_moves_the_tables_odds_by_the_dirty_seats_new_signals() -> None:
    import math

    from bots.precinct.suspicion import Watch, table_suspicion
    from solver.belief.dirty_cop import record_likelihood
    from solver.belief.precinct_behaviour import load_behaviour, read_history

    st = position(DIRTY, 2, 6)
    dirty = next(p for p in range(4) if st.loyalty[p])
    root = table_suspicion(st.view(dirty).to_json())
    assert root is not None
    watch = Watch.at_root(st, dirty, root)
    assert watch is not None and math.isclose(watch.chance(st), root, rel_tol=1e-6, abs_tol=1e-6)
    leaf = st.clone()
    rng = SplitMix64(4)
    for _ in range(120):
        if leaf.is_terminal():
            break
        leaf.apply(PrecinctSim(leaf).default_action(rng))
    model = load_behaviour()
    before, after = (read_history(s.view(watch.watcher).to_json()) for s in (st, leaf))
    logit = math.log(root / (1 - root))
    for sig in after.signals[len(before.signals):]:
        if sig.seat == dirty:
            good, bad = model.factor(sig)
            logit += math.log(bad / good)
    for p, ev in after.records[len(before.records):]:
        if p == dirty:
            good, bad = record_likelihood(ev, model.hide_chance(ev))
            logit += math.log(bad / good)
    assert math.isclose(watch.chance(leaf), 1 / (1 + math.exp(-logit)), rel_tol=1e-9, abs_tol=1e-12)
    sim = PrecinctSim(leaf.clone(), horizon=1, evaluate=lambda s: 0.4, watch=watch, suspicion=0.5)
    if not leaf.revealed[dirty] and leaf.result == 0:
        # 1 - value - suspicion x P(dirty), mapped from [-0.5, 1] into [0, 1]
        assert math.isclose(sim.returns()[dirty], (0.6 - 0.5 * watch.chance(leaf) + 0.5) / 1.5)


def test_a_watched_seats_returns_stay_in_0_1() -> None:
    from bots.precinct.suspicion import Watch

    st = position(DIRTY, 2, 6)
    dirty = next(p for p in range(4) if st.loyalty[p])
    watch = Watch.at_root(st, dirty, 0.999)  # the table all but sure: the cost is near its largest
    assert watch is not None
    for v in (0.0, 1.0):  # v = 1: the team surely wins, the dirty seat's worst cut line
        sim = PrecinctSim(st.clone(), horizon=1, evaluate=lambda s, v=v: v, watch=watch, suspicion=1.0)
        assert 0.0 <= sim.returns()[dirty] <= 1.0
    lost = st.clone()
    lost.end(True, "test: the good cops won")  # a line that ends: the dirty seat lost
    assert PrecinctSim(lost, watch=watch, suspicion=1.0).returns()[dirty] == 0.5  # (0 + 1) / 2


def test_the_dirty_seat_searches_with_the_tables_view() -> None:
    st = position(DIRTY, 2, 6)
    dirty = next(p for p in range(4) if st.loyalty[p])
    probe = st.clone()
    while probe.current_player() != dirty or not is_major(probe.legal_actions()) \
            or len(probe.legal_actions()) < 2:
        p = probe.current_player()
        probe.apply(probe.chance_outcomes()[0][0] if p == CHANCE
                    else PrecinctHeuristic(DIRTY, p, np.random.default_rng(0)).step(probe.view(p)))
    bot = PrecinctISMCTSBot(DIRTY, dirty, np.random.default_rng(2), iterations=8, worlds=2)
    view = probe.view(dirty)
    assert bot.step(view) in view.legal_actions
    assert bot._table is not None and 0.0 <= bot._table <= 1.0


def test_worlds_follow_the_learnt_signals_and_the_search_tries_the_likeliest_accusation() -> None:
    from solver.belief.dirty_cop import dirty_marginals
    from solver.games.precinct import codec

    st = position(DIRTY, 5, 24)
    me = st.current_player()
    bot = PrecinctISMCTSBot(DIRTY, me, np.random.default_rng(1), iterations=4, worlds=2)
    view = st.view(me)
    belief = bot.posterior(view)
    assert belief is not None and set(belief["dirty"]) <= set(range(4))
    # the worlds' dirty seats follow the learnt posterior (signals here, records by the resampler)
    odds = dirty_marginals(view.to_json())
    counts = np.zeros(4)
    for k in range(60):
        world = DIRTY.resample(view, np.random.default_rng(k), belief)
        counts += np.array(world.loyalty, dtype=float)
    top = int(np.argmax(odds))
    if not st.loyalty[me] and odds[top] > 0.8:
        assert counts[top] / 60 > 0.6
    accusations = [a for a in view.legal_actions if codec.block_of(a)[0] == codec.ACCUSE]
    tried = bot.always_searched(view)
    if accusations and not st.loyalty[me]:
        best = max(range(4), key=lambda p: odds[p] if p != me else -1.0)
        assert tried == ({codec.ACCUSE + best} if odds[best] >= 0.5 else set())
    assert PrecinctISMCTSBot(GAME, 0, np.random.default_rng(1)).posterior(
        position(GAME, 1, 12).view(0)) is None
