"""Escape Plan heuristic bot (bots/escape/heuristic.py): legal, seeded whole games at 2-5 players; it
beats the random bot clearly and escapes with its peers; its choices depend only on the view (not on
the hidden world its resample draws); its helpers against brute force."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from statistics import fmean

import numpy as np
import pytest

from bots.base import Bot
from bots.escape.heuristic import EscapeHeuristic, best_of_draws, score
from bots.random_bot import RandomBot
from solver.core import CHANCE, TERMINAL, Action, Seat, State
from solver.core.referee import draw_chance, play_out
from solver.games.escape import board as pb
from solver.games.escape import codec
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState

MAX_STEPS = 20_000


def play(players: int, seed: int, kinds: Sequence[str]) -> EscapeState:
    """One seeded game; ``kinds[s]`` is ``"h"`` (heuristic) or ``"r"`` (random) for seat ``s``. Chance and
    each bot get their own generator from the seed; ``play_out`` applies checked (illegal raises)."""
    game = EscapeGame(players=players)
    bots: list[Bot] = [(EscapeHeuristic if k == "h" else RandomBot)(game, s, np.random.default_rng([seed, s]))
                       for s, k in enumerate(kinds)]

    def act(st: State, seat: Seat) -> Action:
        view = st.view(seat)
        action = bots[seat].step(view)
        assert action in view.legal_actions
        return action

    st = play_out(game.new_initial_state(), act, np.random.default_rng([seed, 99]), max_steps=MAX_STEPS)
    assert isinstance(st, EscapeState)
    return st


def final_score(st: EscapeState, seat: int) -> int:
    """The seat's scoring-pad total, 0 when it did not escape (only escaped players score)."""
    if not st.escaped[seat]:
        return 0
    content = st.game.content
    return pb.score(st.boards[seat], content.plans[st.plan[seat]], content).total


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_are_legal_and_end(players: int) -> None:
    st = play(players, 1, "h" * players)
    assert st.is_terminal()
    assert st.over
    # every escaped heuristic paid its way out: none was arrested for lack of money at the exit
    assert sum(st.escaped) >= players - 1


def test_mixed_table_is_legal() -> None:
    st = play(4, 2, "hrhr")
    assert st.is_terminal()


def test_same_seed_same_game() -> None:
    a = play(3, 5, "hhh")
    b = play(3, 5, "hhh")
    assert a.history == b.history
    c = play(3, 6, "hhh")
    assert c.history != a.history


GAMES = 20


@pytest.fixture(scope="module")
def against_random() -> list[tuple[EscapeState, int]]:
    """20 seeded 3-player games, the heuristic in seat ``g % 3`` and random bots in the others."""
    out = []
    for g in range(GAMES):
        seat = g % 3
        kinds = ["r"] * 3
        kinds[seat] = "h"
        out.append((play(3, 100 + g, kinds), seat))
    return out


def test_beats_random_clearly(against_random: list[tuple[EscapeState, int]]) -> None:
    h_escapes = sum(st.escaped[seat] for st, seat in against_random) / GAMES
    r_escapes = fmean(st.escaped[s] for st, seat in against_random for s in range(3) if s != seat)
    h_score = fmean(final_score(st, seat) for st, seat in against_random)
    r_score = fmean(final_score(st, s) for st, seat in against_random for s in range(3) if s != seat)
    wins = sum(seat in st.winners() for st, seat in against_random) / GAMES
    assert h_escapes >= 0.8, h_escapes
    assert r_escapes <= 0.3, r_escapes
    assert h_score >= r_score + 150, (h_score, r_score)
    assert wins >= 0.8, wins


def test_escapes_with_other_heuristics() -> None:
    states = [play(3, 200 + g, "hhh") for g in range(6)]
    rate = fmean(float(e) for st in states for e in st.escaped)
    assert rate >= 0.8, rate
    assert sum(sum(st.arrested) for st in states) <= 1
    scores = [final_score(st, s) for st in states for s in range(3) if st.escaped[s]]
    assert min(scores) > 0 and max(scores) - min(scores) >= 30  # a spread, not one score for all


@lru_cache(maxsize=4)
def _decision_points(players: int, seed: int) -> list[EscapeState]:
    """States at every 7th player decision of a seeded heuristic game (copies; the tests only read
    them, so one game serves several tests)."""
    game = EscapeGame(players=players)
    bots = [EscapeHeuristic(game, s, np.random.default_rng([seed, s])) for s in range(players)]
    rng = np.random.default_rng([seed, 99])
    st = game.new_initial_state()
    points: list[EscapeState] = []
    count = 0
    while st.current_player() != TERMINAL:
        seat = st.current_player()
        if seat == CHANCE:
            st.apply(draw_chance(st, rng))
            continue
        count += 1
        if count % 7 == 0:
            points.append(st.clone())
        st.apply(bots[seat].step(st.view(seat)))
    return points


@pytest.mark.parametrize("players", [2, 4])
def test_decisions_are_view_only(players: int) -> None:
    """The same view gives the same action whatever hidden world the bot's resample draws (bots seeded
    differently), and whatever world the hidden parts of the view came from (a resampled state)."""
    game_points = _decision_points(players, 3)
    assert len(game_points) > 20
    kinds_seen: set[str] = set()
    for st in game_points:
        seat = st.current_player()
        view = st.view(seat)
        kinds_seen.add(str(st.todo[0][0]))
        first = EscapeHeuristic(st.game, seat, np.random.default_rng(1)).step(view)
        second = EscapeHeuristic(st.game, seat, np.random.default_rng(2)).step(view)
        assert first == second, st.game.action_to_str(first)
        other = st.game.resample(view, np.random.default_rng(7))
        third = EscapeHeuristic(st.game, seat, np.random.default_rng(3)).step(other.view(seat))
        assert third == first
    assert "travel" in kinds_seen


def test_advise_ranks_every_legal_action() -> None:
    st = _decision_points(3, 4)[5]
    seat = st.current_player()
    view = st.view(seat)
    bot = EscapeHeuristic(st.game, seat, np.random.default_rng(0))
    advice = bot.advise(view)
    assert sorted(r.action for r in advice.ranked) == sorted(view.legal_actions)
    assert advice.best.action == bot.step(view)
    assert all(a.score >= b.score for a, b in itertools.pairwise(advice.ranked))


def test_unknown_decision_falls_back_to_a_safe_legal_choice() -> None:
    st = _decision_points(3, 4)[3]
    seat = st.current_player()
    data = st.view(seat).to_json()
    data["decision"]["prompt"] = "day 1 Morning: seat 0 faces a decision no rule knows"
    legal = [codec.YES, codec.NO]
    best = max(score(st.game, data, legal), key=lambda s: s[1])
    assert best[0] == codec.NO
    best = max(score(st.game, data, [codec.DONE, codec.YES]), key=lambda s: s[1])
    assert best[0] == codec.DONE
    best = max(score(st.game, data, [codec.TRAVEL + 9, codec.TRAVEL + 5]), key=lambda s: s[1])
    assert best[0] == codec.TRAVEL + 5


@pytest.mark.parametrize("values,draws", [((0, 10, 20, 30, 40), 1), ((0, 10, 20, 30, 40), 3),
                                          ((10, 10, 20, 20, 30), 2), ((0, 30, 50, 60, 80), 5),
                                          ((0, 20), 4), ((5, 7), 0)])
def test_best_of_draws_matches_enumeration(values: tuple[int, ...], draws: int) -> None:
    k = min(draws, len(values))
    if k == 0:
        assert best_of_draws(values, draws) == 0.0
        return
    hands = list(itertools.combinations(values, k))
    expected = sum(max(h) for h in hands) / len(hands)
    assert best_of_draws(values, draws) == pytest.approx(expected)
