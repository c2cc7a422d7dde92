"""The conformance suite itself: it passes a sound game and names the check each broken one fails."""

from __future__ import annotations

import json
import pickle
from typing import Any

import numpy as np
import pytest

from solver.core import (
    CHANCE,
    TERMINAL,
    BadStateError,
    DecisionKind,
    IllegalActionError,
    InvalidActionError,
)
from solver.testing import CHECKS, CheckReport, ConformanceError, check_game, random_game
from tests.toygame import BET, BUGS, CALL, CHECK, RAISE, BrokenHiddenPass, HiddenPass, Peeked

# --- the toy game is sound ----------------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2), (4, 3)])
def test_toy_game_passes(players: int, rounds: int) -> None:
    report = check_game(HiddenPass(players, rounds), seed=1, games=8)
    assert isinstance(report, CheckReport)
    assert report.games == 8
    assert report.states > report.games
    assert report.chance_nodes > 0 and report.turn_nodes > 0 and report.response_nodes > 0
    assert report.deep_checks > 0 and report.views_checked > 0 and report.json_round_trips > 0
    assert report.resamples > 0 and report.illegal_probes > 0 and report.actions_applied_on_clones > 0
    # the no-leak check had hidden cards to vary
    assert report.resamples_varied > 0
    assert report.distinct_games > 1


def test_check_every_state() -> None:
    report = check_game(HiddenPass(), games=3, check_every=1)
    assert report.deep_checks == report.states


def test_report_is_deterministic() -> None:
    a = check_game(HiddenPass(), seed=7, games=4)
    b = check_game(HiddenPass(), seed=7, games=4)
    assert a == b
    assert a.histories == b.histories


def test_seeds_give_other_games() -> None:
    a = check_game(HiddenPass(), seed=1, games=4, resamples=0)
    b = check_game(HiddenPass(), seed=2, games=4, resamples=0)
    assert a.histories != b.histories


def test_bad_parameters_are_rejected() -> None:
    with pytest.raises(ValueError, match="games=0"):
        check_game(HiddenPass(), games=0)


# --- the toy game's own rules (so the conformance tests stand on a known game) ------------------


def _dealt(cards: list[int], players: int = 3) -> object:
    state = HiddenPass(players).new_initial_state()
    for card in cards:
        state.apply(card)
    return state


def test_toy_response_window_and_peek() -> None:
    game = HiddenPass(3, 1)
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)]
    for text in ("deal 2", "deal 0", "deal 3"):
        state.apply_str(text)
    assert state.decision().kind == DecisionKind.TURN
    assert state.legal_actions() == [CHECK, BET]
    state.apply(BET)
    d = state.decision()
    assert (d.seat, d.kind, d.turn_of) == (1, DecisionKind.RESPONSE, 0)
    assert state.legal_actions() == [CALL, RAISE]
    assert state.view(1).legal_actions == (CALL, RAISE)
    assert state.view(0).legal_actions == ()
    with pytest.raises(IllegalActionError):
        state.apply(CHECK)
    state.apply(RAISE)
    assert state.view(0).to_json()["cards"] == [2, 0, None]  # the bettor peeked at seat 1
    assert state.view(2).to_json()["cards"] == [None, None, 3]
    peeks = [e for e in state.events if isinstance(e, Peeked)]
    assert peeks == [Peeked(0, 1, 0, visible_to=frozenset({0}))]
    assert state.events_for(2)[-1].kind == "Acted"
    for text in ("check", "check", "bonus 2"):
        state.apply_str(text)
    assert state.current_player() == TERMINAL
    # seat 2 holds the 3: it takes seat 0's and seat 1's stakes and the bonus
    assert state.returns() == [-1.0, -2.0, 5.0]


def test_toy_codec() -> None:
    game = HiddenPass()
    assert [game.action_to_str(a) for a in (0, 4, CHECK, BET, CALL, RAISE)] == [
        "deal 0",
        "bonus 0",
        "check",
        "bet",
        "call",
        "raise",
    ]
    assert game.str_to_action("  Bonus   2 ") == 6
    with pytest.raises(InvalidActionError, match="fold"):
        game.str_to_action("fold")
    with pytest.raises(InvalidActionError):
        game.action_to_str(11)


def test_toy_resample_keeps_the_view() -> None:
    game = HiddenPass()
    state = game.new_initial_state()
    for text in ("deal 1", "deal 3", "deal 0", "bet", "raise"):
        state.apply_str(text)
    rng = np.random.default_rng(0)
    hands = set()
    for _ in range(20):
        drawn = game.resample(state.view(2), rng)
        assert drawn.view(2) == state.view(2)
        hands.add(tuple(drawn.history[:3]))
    assert {h[2] for h in hands} == {0}  # seat 2's own card never varies
    assert len(hands) == 6  # the other two cards from {1, 2, 3}: every arrangement shows up
    # seat 0 peeked at seat 1's card: only seat 2's card varies
    assert {game.resample(state.view(0), rng).history[1] for _ in range(20)} == {3}


def test_toy_resample_with_belief() -> None:
    game = HiddenPass()
    state = game.new_initial_state()
    for text in ("deal 1", "deal 3", "deal 0"):
        state.apply_str(text)
    belief = [[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]]
    drawn = game.resample(state.view(1), np.random.default_rng(0), belief)
    assert drawn.history[:3] == [2, 3, 0]


def test_toy_view_from_json_rejects_bad_input() -> None:
    game = HiddenPass()
    data = game.new_initial_state().view(0).to_json()
    assert game.view_from_json(json.loads(json.dumps(data))) == game.new_initial_state().view(0)
    with pytest.raises(BadStateError, match="seat"):
        game.view_from_json({**data, "seat": 7})
    with pytest.raises(BadStateError, match="lacks"):
        game.view_from_json({k: v for k, v in data.items() if k != "log"})
    with pytest.raises(BadStateError):
        HiddenPass(4).view_from_json(data)


# --- each broken variant fails the check named for it ------------------------------------------


def test_every_bug_names_a_known_check() -> None:
    assert set(BUGS.values()) <= set(CHECKS)


@pytest.mark.parametrize(("bug", "check"), sorted(BUGS.items()))
def test_broken_variant_is_caught(bug: str, check: str) -> None:
    game = BrokenHiddenPass(bug)
    with pytest.raises(ConformanceError) as info:
        check_game(game, games=4, max_steps=200)
    err = info.value
    assert err.check == check, str(err)
    message = str(err)
    assert message.startswith(f"[{check}]")
    assert bug in message  # the game's config, which names the bug
    # the actions replay (notation) to a position of the broken game, unless replay itself is the bug
    if bug not in ("codec-roundtrip", "codec-garbage", "lax-apply", "endless", "state-json"):
        game.state_from_json({"actions": err.actions})


def test_error_names_config_and_actions() -> None:
    with pytest.raises(ConformanceError) as info:
        check_game(BrokenHiddenPass("leaky-view"), games=2)
    err = info.value
    assert err.config == {"players": 3, "rounds": 2, "bug": "leaky-view"}
    assert err.actions and all(isinstance(a, str) for a in err.actions)
    assert json.dumps(err.actions) in str(err)
    assert "hidden_pass" in str(err)


def test_error_survives_pickling() -> None:
    err = ConformanceError("views", "a detail", game="g", config={"a": 1}, actions=["bet"])
    back = pickle.loads(pickle.dumps(err))
    assert (back.check, back.detail, back.config, back.actions, str(back)) == (
        "views",
        "a detail",
        {"a": 1},
        ["bet"],
        str(err),
    )


def test_random_game_checks_every_state_and_is_seeded() -> None:
    game = HiddenPass()
    seen: list[int] = []

    def check(state: Any) -> None:
        seen.append(len(state.history))

    state = random_game(game, np.random.default_rng(3), check)
    assert state.is_terminal()
    # every state before an action, then the final one
    assert seen == list(range(len(state.history) + 1))
    again = random_game(game, np.random.default_rng(3))
    assert again.history == state.history
    sparse: list[int] = []
    random_game(game, np.random.default_rng(3), lambda s: sparse.append(len(s.history)), every=2)
    assert sparse == [n for n in seen[:-1] if n % 2 == 0] + [seen[-1]]


def test_random_game_reports_a_game_that_does_not_end() -> None:
    with pytest.raises(AssertionError, match="no end after 2 actions"):
        random_game(HiddenPass(), np.random.default_rng(0), max_steps=2)
