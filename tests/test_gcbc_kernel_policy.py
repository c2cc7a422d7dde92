"""The compiled Good Cop Bad Cop playout policy, search sim and world pool (``ext/gcbc_search.pyx``).

The policy is a C port of the rule-based heuristic (``bots/gcbc/heuristic.py``, ``estimate="rules"``)
that reads the acting seat's knowledge from the compiled rules (``solver._ext.gcbc_sim``). It is held
to the Python bot in two ways:

* on the same knowledge (the Python reader's, written into a C state), its scores equal the bot's,
  every legal action of every decision of seeded games at 4-8 players with both decks;
* on the compiled rules' own knowledge, its choice is among the bot's top-scored actions at the rate
  ``bench/gcbc_policy_agreement.py`` measures (``bench/results/gcbc-policy.md``): not always, since the
  Python reader keeps cards seen before a Flashbang ("floating") that the rules' ``know`` forgets.

It reads nothing a seat does not know: two worlds resampled from one view get the same scores and the
same choice. The search sim and pool run the compiled ISMCTS kernel (``solver.search.ismcts``).

The compiled modules are imported directly, so these tests run even under ``COPSOLVER_PUREPYTHON=1``
when they are built; they skip when they are not, except under ``COPSOLVER_REQUIRE_COMPILED=1``.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bots.gcbc.heuristic import (
    _CARD_INDEX,
    _TIE,
    AIM_WEIGHT,
    FLIP_VALUE,
    KEEP_VALUE,
    SHOT_WEIGHT,
    HeuristicBot,
    HistoryReader,
    score_view,
)
from solver import games
from solver.core import CHANCE
from solver.core.rng import SplitMix64
from solver.games.gcbc import codec, ops
from solver.games.gcbc.deal import INTEGRITY_NAMES
from solver.games.gcbc.equipment import Effect
from solver.games.gcbc.rules import GCBCGame, GCBCState
from solver.games.gcbc.view import GCBCView
from solver.search.ismcts import Budget, is_compiled_determinizer, kernel_available, run_search

REQUIRE_COMPILED = os.environ.get("COPSOLVER_REQUIRE_COMPILED", "") not in ("", "0")


def _import_compiled() -> tuple[ModuleType | None, ModuleType | None]:
    try:
        return (importlib.import_module("solver._ext.gcbc_search"),
                importlib.import_module("solver._ext.gcbc_sim"))
    except ImportError:
        if REQUIRE_COMPILED:
            raise
        return None, None


search_mod, sim_mod = _import_compiled()
pytestmark = pytest.mark.skipif(
    search_mod is None or sim_mod is None,
    reason="solver._ext.gcbc_search or gcbc_sim is not built (pip install -e . needs Cython and a C "
    "compiler)",
)
#: the searches need the compiled ISMCTS kernel too (not loaded under COPSOLVER_PUREPYTHON=1)
needs_kernel = pytest.mark.skipif(not kernel_available(), reason="the compiled ISMCTS kernel is not in use")

CONFIGS = [(n, deck) for n in range(4, 9) for deck in ("rulebook", "4th")]
EFFECTS = list(Effect)


def _load(players: int, deck: str) -> GCBCGame:
    game = games.load("gcbc", players=players, deck=deck)
    assert isinstance(game, GCBCGame)
    return game


def _chance(state: GCBCState, rng: np.random.Generator) -> int:
    outcomes = state.chance_outcomes()
    return int(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])


def _policy_game(game: GCBCGame, seed: int) -> tuple[Any, list[int], list[bool]]:
    """A game played by the compiled policy (chance by its probabilities) from the start: the sim at
    its end, every action, and for each action whether it was a decision."""
    assert search_mod is not None
    sim = search_mod.GCBCSearchSim.from_actions(game, [])
    rng = SplitMix64(seed)
    actions: list[int] = []
    decided: list[bool] = []
    while not sim.is_terminal():
        seat = sim.current_player()
        action = sim.default_action(rng)
        if seat >= 0:
            assert action in sim.legal_actions(), f"seed {seed}: {action} is not legal"
        actions.append(action)
        decided.append(seat >= 0)
        sim.apply(action)
    return sim, actions, decided


# --- the constants and the scores ------------------------------------------------------------------
def test_constants_equal_the_heuristic() -> None:
    """The copied constants are the bot's: tie width, evidence weights, flip order, keep values."""
    assert search_mod is not None
    held = search_mod.constants()
    assert held["tie"] == _TIE
    assert (held["aim_weight"], held["shot_weight"]) == (AIM_WEIGHT, SHOT_WEIGHT)
    assert held["flip_value"] == [FLIP_VALUE[name] for name in INTEGRITY_NAMES]
    assert held["keep_value"] == [float(KEEP_VALUE[e]) for e in EFFECTS]


def _position(state: GCBCState, seat: int, reader: HistoryReader,
              known: list[list[str | None]]) -> dict[str, Any]:
    """The fields the policy reads, with ``seat``'s knowledge as the Python reader has it."""
    n = state.n
    aimed, shot = [0] * n, [0] * n
    for (s, t), weight in reader.pairs.items():
        if weight == SHOT_WEIGHT:
            shot[s] |= 1 << t
        else:
            aimed[s] |= 1 << t
    game = state.game
    return {
        "me": seat, "n": n, "side_cards": game.side_cards,
        "effects": [EFFECTS.index(card.effect) for card in game.equipment.cards],
        "cards": [[int(c) for c in cards] for cards in state.cards], "face_up": state.face_up,
        "know": [[-1 if c is None else _CARD_INDEX[c] for c in row] for row in known],
        "alive": state.alive, "wounded": state.wounded, "inverted": state.inverted, "gun": state.gun,
        "aim": state.aim, "aimed": aimed, "shot": shot, "turn": state.turn, "active": state.active,
        "direction": state.direction, "announced": state.announced, "camera": list(state.camera),
        "top": state.stack[-1],
    }


def _check_scores(games_eps: list[tuple[int, float]]) -> tuple[Counter[int], Counter[Effect]]:
    """Play seeded heuristic games (``(seed, epsilon)``: the bots' share of random moves) at every
    player count and deck; at every decision with a choice and no floating card, feed the Python
    reader's knowledge to the C scorer and compare every score. Returns the decisions checked per op
    and, per window effect, the checked plays its rule scored above 0."""
    assert search_mod is not None and sim_mod is not None
    per_op: Counter[int] = Counter()
    rules_hit: Counter[Effect] = Counter()
    for players, deck in CONFIGS:
        game = _load(players, deck)
        sim = sim_mod.GCBCRulesSim(game)
        for seed, epsilon in games_eps:
            state = game.new_initial_state()
            rng = np.random.default_rng(seed)
            seated = [HeuristicBot(game, s, np.random.default_rng(seed * 16 + s), epsilon=epsilon)
                      for s in range(players)]
            while not state.is_terminal():
                seat = state.current_player()
                if seat == CHANCE:
                    state.apply(_chance(state, rng))
                    continue
                view = state.view(seat)
                legal = tuple(state.legal_actions())
                if len(legal) > 1:
                    data = view.to_json()
                    reader = HistoryReader(seat, players)
                    reader.feed(data["history"])
                    scored, k = score_view(game, data, legal, reader)
                    if not any(k.floating):
                        search_mod._load_position(sim, _position(state, seat, reader, k.cards))
                        got = search_mod._scores_for(sim, seat, list(legal))
                        want = [s for _, s, _ in scored]
                        where = (players, deck, seed, state.stack[-1])
                        assert got == pytest.approx(want, abs=1e-9, rel=0), where
                        per_op[state.stack[-1][0]] += 1
                        if state.stack[-1][0] == ops.WINDOW:
                            for a, s, _ in scored:
                                if a != codec.PASS and s > 0:
                                    rules_hit[game.equipment.cards[codec.decode_play(a)[0]].effect] += 1
                state.apply(seated[seat].step(view))
    return per_op, rules_hit


#: the effects with a window rule (rules 9-14); the Taser (take-gun) has none
WINDOW_RULES = [e for e in EFFECTS if e != Effect.TAKE_GUN]


def test_scores_equal_python_on_the_same_knowledge() -> None:
    """Fed the Python reader's knowledge, every score equals the bot's (1e-9), every decision kind and
    every window rule exercised (positions with floating cards are left out: the C state cannot hold
    them). A wrong threshold, tier or formula in the port fails here when the games reach it; the
    games mix in random moves (epsilon) to reach more of them."""
    per_op, rules_hit = _check_scores([(0, 0.0), (1, 0.0), (2, 0.3)])
    for op in (ops.ANNOUNCE, ops.WINDOW, ops.AIM, ops.FLIP, ops.PICK, ops.ARRANGE, ops.KEEP_EQUIP):
        assert per_op[op] > 0, f"no decision of op {op} was checked"
    missing = [e.value for e in WINDOW_RULES if not rules_hit[e]]
    assert not missing, f"window rules never scored above 0: {missing}"


@pytest.mark.slow
def test_scores_equal_python_on_the_same_knowledge_long() -> None:
    """The same over 24 games per player count and deck."""
    per_op, rules_hit = _check_scores([(seed, (0.0, 0.1, 0.3)[seed % 3]) for seed in range(100, 124)])
    assert all(rules_hit[e] >= 3 for e in WINDOW_RULES), rules_hit


# --- the policy on the compiled rules --------------------------------------------------------------
@pytest.mark.parametrize(("players", "deck"), CONFIGS)
def test_policy_plays_legal_actions_to_a_winner(players: int, deck: str) -> None:
    """Every decision gets a legal action, and the game ends with a winner within the step limit; the
    Python rules accept the whole game (checked apply) and reach the same end."""
    assert search_mod is not None
    game = _load(players, deck)
    limit = search_mod.constants()["step_limit"]
    for seed in range(3):
        sim, actions, _ = _policy_game(game, seed)
        assert len(actions) < limit
        assert sim.steps == len(actions)
        returns = sim.returns()
        assert 1.0 in returns and set(returns) <= {0.0, 1.0}
        state = game.new_initial_state()
        for a in actions:
            state.apply(a)
        assert state.is_terminal()
        assert [1.0 if r > 0 else 0.0 for r in state.returns()] == returns


def test_no_leak_same_view_same_choice() -> None:
    """Two worlds resampled from one seat's view (different hidden cards, mostly) give that seat the
    same scores and, for one seed, the same choice: the policy reads only what the seat knows."""
    assert search_mod is not None and sim_mod is not None
    rng = np.random.default_rng(7)
    checked = differ = 0
    for i, (players, deck) in enumerate(CONFIGS * 3):
        game = _load(players, deck)
        _, actions, decided = _policy_game(game, 1000 + i)
        cuts = [j for j, d in enumerate(decided) if d]
        for j in rng.choice(cuts, size=min(3, len(cuts)), replace=False):
            state = game.new_initial_state()
            for a in actions[:j]:
                state.apply(a)
            seat = state.current_player()
            view = state.view(seat)
            assert isinstance(view, GCBCView)
            worlds = [game.resample(view, rng) for _ in range(2)]
            sims = [sim_mod.GCBCRulesSim.from_actions(game, w.history) for w in worlds]
            hidden = [[c for s, row in enumerate(w.cards) for p, c in enumerate(row)
                       if s != seat and not w.face_up[s][p]] for w in worlds]
            differ += hidden[0] != hidden[1]
            assert search_mod.policy_scored(sims[0]) == search_mod.policy_scored(sims[1])
            for seed in (1, 2, 3):
                assert search_mod.policy_choice(sims[0], seed) == search_mod.policy_choice(sims[1], seed)
            checked += 1
    assert checked >= 60
    assert differ >= checked // 2, f"the worlds differed in hidden cards only {differ} of {checked} times"


def test_policy_choice_draws_ties_uniformly() -> None:
    """Ties are broken by the seed (the layout of one's cards: every order ties), and only among them."""
    assert search_mod is not None and sim_mod is not None
    game = _load(6, "rulebook")
    sim = sim_mod.GCBCRulesSim.from_actions(game, [])
    rng = SplitMix64(3)
    while sim.current_player() < 0:  # the deal, up to the first layout
        sim.apply(sim.default_action(rng))
    legal = sim.legal_actions()
    assert len(legal) > 1 and all(codec.ARRANGE <= a < codec.KEEP_EQUIP for a in legal)
    picks = Counter(search_mod.policy_choice(sim, seed) for seed in range(600))
    assert set(picks) == set(legal)
    assert min(picks.values()) > 600 / len(legal) / 2


# --- agreement with the Python heuristic on the compiled rules' knowledge -----------------------------
#: bench/results/gcbc-policy.md measured 99.8% of all decisions and 99.4% of those not a window both
#: pass (200 games, 6 players); the floors leave room for the sample of a short run
AGREE_ALL = 0.99
AGREE_NON_PASS = 0.975


def _agreement(games_n: int, seed: int) -> Any:
    from bench.gcbc_policy_agreement import measure

    return measure(6, games_n, seed)


def test_choices_agree_with_the_python_heuristic() -> None:
    """Over the decisions of seeded heuristic games at 6 players the compiled choice is among the bot's
    top-scored actions at the measured rate, overall and on the decisions not a window both pass."""
    assert search_mod is not None and sim_mod is not None
    tally = _agreement(16, 0)
    for kind in ("announce", "window", "aim", "flip", "arrange", "non-pass"):
        assert tally.decisions[kind] > 0, kind
    assert tally.decisions["non-pass"] < tally.decisions["all"]
    assert tally.rate("all") >= AGREE_ALL, tally.table()
    assert tally.rate("non-pass") >= AGREE_NON_PASS, tally.table()


@pytest.mark.slow
def test_choices_agree_with_the_python_heuristic_long() -> None:
    """The same over 150 games (the bench's measurement at its size)."""
    tally = _agreement(150, 1000)
    assert tally.rate("all") >= AGREE_ALL, tally.table()
    assert tally.rate("non-pass") >= AGREE_NON_PASS, tally.table()


# --- the search sim and the pool ----------------------------------------------------------------------
def _pool_at_announcement(seed: int, worlds: int = 8) -> tuple[Any, GCBCGame, int, list[int]]:
    """A pool of worlds drawn from the view of the seat announcing at a mid-game position of a
    policy game (6 players), with the seat and its legal actions."""
    assert search_mod is not None and sim_mod is not None
    game = _load(6, "rulebook")
    _, actions, _ = _policy_game(game, seed)
    state = game.new_initial_state()
    for a in actions:
        if state.turn >= 6 and state.current_player() >= 0 and state.stack[-1][0] == ops.ANNOUNCE \
                and len(state.legal_actions()) > 3:
            break
        state.apply(a)
    seat = state.current_player()
    assert seat >= 0 and state.stack[-1][0] == ops.ANNOUNCE
    view = state.view(seat)
    rng = np.random.default_rng(seed)
    pool = search_mod.GCBCPool()
    for _ in range(worlds):
        pool.add(sim_mod.GCBCRulesSim.from_actions(game, game.resample(view, rng).history))
    return pool, game, seat, state.legal_actions()


@needs_kernel
def test_search_on_a_pool_is_legal_and_deterministic() -> None:
    """The compiled kernel runs on the pool: a legal root action with statistics over the legal
    actions, the same result for the same seed, and each world's key is the searcher's."""
    pool, _, seat, legal = _pool_at_announcement(11)
    assert len(pool) == 8 and is_compiled_determinizer(pool)
    first = run_search(pool, seat, Budget(iterations=3000), SplitMix64(5))
    again = run_search(pool, seat, Budget(iterations=3000), SplitMix64(5))
    assert first.engine == "compiled" and first.iterations == 3000
    assert first.action in legal
    assert {s.action for s in first.stats} == set(legal)
    assert first.same_search(again)
    other = run_search(pool, seat, Budget(iterations=3000), SplitMix64(6))
    assert not first.same_search(other)  # the seed matters: the walk and playouts draw from it


@needs_kernel
def test_root_restriction_holds() -> None:
    """With a root set only those actions are searched (and chosen); a set with no legal action falls
    back to every legal action; the restriction ends with the first applied action."""
    assert search_mod is not None
    pool, _, seat, legal = _pool_at_announcement(12)
    allowed = [a for a in legal if a != codec.EQUIP][:2]
    pool.set_root(allowed)
    result = run_search(pool, seat, Budget(iterations=1000), SplitMix64(1))
    assert {s.action for s in result.stats} == set(allowed)
    assert result.action in allowed
    pool.set_root([600])  # a chance id: never legal at a decision
    fallback = run_search(pool, seat, Budget(iterations=500), SplitMix64(1))
    assert {s.action for s in fallback.stats} == set(legal)
    pool.set_root(None)
    sim = pool.sample(SplitMix64(2))
    sim.set_root(allowed)
    assert sim.legal_actions() == sorted(allowed)
    sim.apply(allowed[0])
    assert sim.steps == 1
    copy = sim.copy()
    assert copy.steps == 1 and copy.key(seat) == sim.key(seat)
    with pytest.raises(ValueError):
        pool.set_root([640])


def test_search_sim_returns_and_step_limit() -> None:
    """Returns are 1/2 while the game goes on and 1/0 at its end; the step limit ends a line of play."""
    assert search_mod is not None
    pool, _, seat, _ = _pool_at_announcement(13, worlds=1)
    sim = pool.sample(SplitMix64(0))
    assert sim.current_player() == seat and sim.returns() == [0.5] * 6 and sim.steps == 0
    played = sim.copy()
    search_mod.play_out(played, 9)
    assert played.is_terminal() and sorted(set(played.returns())) in ([0.0, 1.0], [1.0])
    assert sim.current_player() == seat  # the copy was independent
    limit = search_mod.constants()["step_limit"]
    stepped = 0
    rng = SplitMix64(4)
    while not sim.is_terminal():
        sim.apply(sim.default_action(rng))
        stepped += 1
    assert stepped == sim.steps <= limit
    # a line of play that reaches the limit ends there, unfinished: 1/2 for everyone
    cut = pool.sample(SplitMix64(0))
    cut.steps = limit - 1
    assert not cut.is_terminal()
    cut.apply(cut.default_action(rng))
    assert cut.is_terminal() and cut.returns() == [0.5] * 6
    with pytest.raises(ValueError):
        search_mod.GCBCPool().sample(SplitMix64(0))
