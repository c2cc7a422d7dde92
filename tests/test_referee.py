"""The referee (solver.core.referee): chance draws with their probabilities, and the play loop."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from solver.core import CHANCE, Action, ConfigError, Seat, State
from solver.core.referee import advance_chance, draw_chance, draw_outcome, outcome, play_out
from tests.toygame import HiddenPass


def first_legal(state: State, seat: Seat) -> Action:
    return state.legal_actions()[0]


def at_bonus_die() -> State:
    """A Hidden Pass state at its weighted chance node: the bonus die (0, 1, 2 at 0.5, 0.3, 0.2)."""
    state = HiddenPass(players=2).new_initial_state()
    rng = np.random.default_rng(0)
    while not (state.is_chance_node() and len(state.history) > 2):
        state.apply(draw_chance(state, rng) if state.is_chance_node() else first_legal(state, 0))
    assert {state.game.action_to_str(a): p for a, p in state.chance_outcomes()} == {
        "bonus 0": 0.5, "bonus 1": 0.3, "bonus 2": 0.2}
    return state


def test_draw_chance_follows_the_probabilities_over_many_seeds() -> None:
    state = at_bonus_die()
    outcomes = state.chance_outcomes()
    seeds = 6000
    counts = {a: 0 for a, _ in outcomes}
    for seed in range(seeds):
        counts[draw_chance(state, np.random.default_rng(seed))] += 1
    for action, p in outcomes:
        # 4.5 standard deviations of a binomial share: a wrong weighting (e.g. uniform) is far outside
        assert abs(counts[action] / seeds - p) < 4.5 * np.sqrt(p * (1 - p) / seeds), (action, counts)


def test_a_draw_is_one_uniform_number_read_off_the_cumulative_probabilities() -> None:
    """The draw callers made by hand before the referee: one ``random()`` from the generator, the
    outcome whose cumulative probability first passes it. Same seed, same draw, same stream after."""
    state = at_bonus_die()
    outcomes = state.chance_outcomes()
    cumulative = np.cumsum([p for _, p in outcomes])
    for seed in range(200):
        rng, twin = np.random.default_rng(seed), np.random.default_rng(seed)
        u = twin.random()
        expected = outcomes[int(np.searchsorted(cumulative / cumulative[-1], u, side="right"))][0]
        assert draw_chance(state, rng) == expected
        assert rng.random() == twin.random()  # exactly one number used


def test_draw_outcome_normalises_weights_that_do_not_sum_to_one() -> None:
    picks = {draw_outcome([(5, 2.0), (6, 0.0), (7, 2.0)], np.random.default_rng(s)) for s in range(50)}
    assert picks == {5, 7}


def test_play_out_stops_at_the_end_and_reports_every_step() -> None:
    game = HiddenPass(players=3)
    state = game.new_initial_state()
    seen: list[tuple[int, Seat, Action]] = []
    asked: list[Seat] = []

    def act(st: State, seat: Seat) -> Action:
        assert not st.is_terminal() and not st.is_chance_node() and st.current_player() == seat
        asked.append(seat)
        return first_legal(st, seat)

    end = play_out(state, act, np.random.default_rng(1),
                   on_step=lambda st, seat, action: seen.append((len(st.history), seat, action)))
    assert end is state and state.is_terminal()
    assert [n for n, _, _ in seen] == list(range(1, len(state.history) + 1))  # after each step
    assert [a for _, _, a in seen] == state.history
    assert [s for _, s, _ in seen if s != CHANCE] == asked
    assert sum(s == CHANCE for _, s, _ in seen) >= 3  # the deal to three seats at least
    assert outcome(state)[0] is not None


def test_same_seed_same_game_other_seeds_other_deals() -> None:
    game = HiddenPass(players=3)

    def history(seed: int) -> list[Action]:
        rng = np.random.default_rng(seed)  # chance and the players share it, in play order
        act = lambda st, seat: st.legal_actions()[int(rng.integers(len(st.legal_actions())))]  # noqa: E731
        return play_out(game.new_initial_state(), act, rng).history

    assert history(7) == history(7)
    assert len({tuple(history(seed)) for seed in range(8)}) > 1


def test_max_steps_and_stop_end_the_loop_early() -> None:
    game = HiddenPass(players=3)
    state = play_out(game.new_initial_state(), first_legal, np.random.default_rng(2), max_steps=4)
    assert len(state.history) == 4 and not state.is_terminal()
    untouched = play_out(game.new_initial_state(), first_legal, np.random.default_rng(2), max_steps=0)
    assert untouched.history == []
    with pytest.raises(ConfigError, match="max_steps"):
        play_out(game.new_initial_state(), first_legal, np.random.default_rng(2), max_steps=-1)
    # stop before seat 1's first move: the seat is to act and nobody asked it
    asked: list[Seat] = []

    def act(st: State, seat: Seat) -> Action:
        asked.append(seat)
        return first_legal(st, seat)

    waiting = play_out(game.new_initial_state(), act, np.random.default_rng(2),
                       stop=lambda st: st.current_player() == 1)
    assert waiting.current_player() == 1 and 1 not in asked and asked == [0]


def test_the_game_does_not_depend_on_where_the_loop_paused() -> None:
    """Advancing in pieces (as the seat server does, a request at a time) plays the same game."""
    game = HiddenPass(players=2)
    whole = play_out(game.new_initial_state(), first_legal, np.random.default_rng(9))
    rng = np.random.default_rng(9)
    state: State = game.new_initial_state()
    while not state.is_terminal():
        state = play_out(state, first_legal, rng, max_steps=3)
    assert state.history == whole.history


def test_apply_may_hand_back_another_state() -> None:
    """The seat server applies each step to a clone and goes on from it."""
    game = HiddenPass(players=2)
    start = game.new_initial_state()
    made: list[Any] = []

    def on_a_clone(st: State, action: Action) -> State:
        trial = st.clone()
        trial.apply(action)
        made.append(trial)
        return trial

    end = play_out(start, first_legal, np.random.default_rng(4), apply=on_a_clone)
    assert start.history == [] and end is made[-1] and end.is_terminal()
    assert end.history == play_out(game.new_initial_state(), first_legal, np.random.default_rng(4)).history


def test_advance_chance_resolves_chance_only() -> None:
    game = HiddenPass(players=3)
    state = advance_chance(game.new_initial_state(), np.random.default_rng(5))
    assert not state.is_chance_node() and len(state.history) == 3  # the deal: one card per seat
    again = play_out(game.new_initial_state(), first_legal, np.random.default_rng(5), max_steps=3)
    assert again.history == state.history  # the same draws as the full loop makes
    assert advance_chance(state, np.random.default_rng(5)).history == again.history  # nothing to do
    assert outcome(state) == (None, "")
