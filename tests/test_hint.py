"""The hint advisor: reading positions, advice, and text that shows only the seat's own view."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from bots import hint
from solver import games
from solver.belief.locations import possible_locations
from solver.core import BadStateError, ConfigError
from solver.games.police07.rules import Police07Game, Police07State

#: Dr. Factor starts at 1, detectives at 24, 40, 59; move 1 (shown) to 2; move 2 a hidden bus ride,
#: so he is at 13, 19, 22 or 24 and detective 1 (now at 21) is to move.
HIDDEN = ("start 1", "start 24", "start 40", "start 59", "taxi 2", "taxi 21", "taxi 33", "taxi 53", "bus 13")


def game4() -> Police07Game:
    game = games.load("police07", players=4)
    assert isinstance(game, Police07Game)
    return game


def position(*actions: str) -> Police07State:
    state = game4().new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


def test_load_position_from_a_state_advises_the_seat_to_act() -> None:
    state = position(*HIDDEN)
    game, view = hint.load_position("police07", state.to_json())
    assert game == state.game
    assert view.seat == 1 and view == state.view(1)
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    assert view.seat == 0 and view.legal_actions


def test_load_position_from_a_view() -> None:
    state = position(*HIDDEN)
    data = json.loads(json.dumps(state.view(1).to_json()))  # as a front end would send it
    game, view = hint.load_position("police07", data)
    assert view == state.view(1)


def test_load_position_from_a_state_without_config_uses_defaults() -> None:
    data = {"game": "police07", "actions": list(HIDDEN)}
    game, view = hint.load_position("police07", data)
    assert game == games.load("police07") and view.seat == 1


def _state_json() -> dict[str, Any]:
    return position(*HIDDEN).to_json()


def _view_json() -> dict[str, Any]:
    return position(*HIDDEN).view(1).to_json()


BAD: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "must be a JSON object"),
    ("neither", {"game": "police07"}, "expected a state"),
    ("other game", {**_state_json(), "game": "gcbc"}, "for game 'gcbc'"),
    ("bad config", {**_state_json(), "config": {"players": 9}}, "players must be 2..6"),
    ("config not an object", {**_state_json(), "config": [4]}, "'config' must be an object"),
    ("unknown option", {**_state_json(), "config": {"colour": "red"}}, "colour"),
    ("actions not a list", {**_state_json(), "actions": "taxi 2"}, "'actions' list"),
    ("unreadable action", {**_state_json(), "actions": [*HIDDEN, "fly 3"]}, "'fly 3'"),
    ("illegal action", {**_state_json(), "actions": [*HIDDEN, "taxi 150"]}, "not legal now"),
    ("chance next", {**_state_json(), "actions": list(HIDDEN[:2])}, "chance acts next"),
    ("game over", {**_state_json(), "actions": [*HIDDEN[:5], "bus 2"]}, "the game is over"),
    ("view of a waiting seat", position(*HIDDEN).view(2).to_json(), "seat 2 has no decision now"),
    ("view with a planted stop", {**_view_json(), "factor": {**_view_json()["factor"], "stop": 13}},
     "does not follow"),
    ("view history junk", {**_view_json(), "history": [*_view_json()["history"][:-1], [0, "bus 999"]]},
     "history"),
    ("view history item", {**_view_json(), "history": [*_view_json()["history"][:-1], "x"]}, "history"),
    ("view move without stop", {**_view_json(), "history": [*_view_json()["history"], [1, "taxi"]]},
     "'taxi': not a detective move"),
    ("view seat", {**_view_json(), "seat": "one"}, "seat 'one'"),
]


@pytest.mark.parametrize(("data", "message"), [(d, m) for _, d, m in BAD], ids=[n for n, _, _ in BAD])
def test_bad_positions_are_bad_state_errors(data: Any, message: str) -> None:
    with pytest.raises(BadStateError, match=message):
        hint.load_position("police07", data)


def test_unknown_bot_is_a_config_error() -> None:
    game, view = hint.load_position("police07", _state_json())
    with pytest.raises(ConfigError, match="unknown bot 'oracle'"):
        hint.advise(game, view, bot="oracle")


def test_detective_hint_shows_the_possible_stops_and_nothing_hidden() -> None:
    state = position(*HIDDEN)
    game, view = hint.load_position("police07", state.to_json())
    advice = hint.advise(game, view)
    text = hint.format_advice(game, view, advice)
    assert "police07, seat 1 (detective) to act: detective 1 moves (seat 1)" in text
    assert "Dr. Factor may be at 4 stops: 13, 19, 22, 24" in text
    assert " 1. taxi 2" in text and "(1 in 4 to catch him)" in text
    assert json.loads(json.dumps(advice.to_json())) == advice.to_json()
    # the true stop (13) is one of four the view allows; whatever the truth, the text is the same
    assert isinstance(game, Police07Game)
    seen = set()
    for seed in range(12):
        twin = game.resample(view, np.random.default_rng(seed))
        seen.add(twin.pos[0])
        twin_game, twin_view = hint.load_position("police07", twin.to_json())
        assert hint.format_advice(twin_game, twin_view, hint.advise(twin_game, twin_view)) == text
    assert len(seen) > 1


def test_hint_lists_every_possible_stop_up_to_a_limit() -> None:
    game = game4()
    for seed in range(30):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
                continue
            seat = state.current_player()
            view = state.view(seat)
            if seat != 0:
                possible = sorted(possible_locations(game, view.to_json()))
                if len(possible) > 3:
                    text = hint.format_advice(game, view, hint.advise(game, view))
                    line = next(t for t in text.splitlines() if t.startswith("Dr. Factor may be at"))
                    listed = [int(s) for s in line.split(": ")[1].split(" ...")[0].split(", ")]
                    assert line.startswith(f"Dr. Factor may be at {len(possible)} stops")
                    assert listed == possible[: len(listed)] and len(listed) == min(len(possible), 40)
                    return
            state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    raise AssertionError("no detective position with more than 3 possible stops")


def test_factor_hint_names_his_stop() -> None:
    game, view = hint.load_position("police07", position(*HIDDEN[:-1]).to_json())
    text = hint.format_advice(game, view, hint.advise(game, view))
    assert "seat 0 (Dr. Factor) to act" in text and "Dr. Factor is at 2." in text
    assert "may be at" not in text


def test_random_bot_advice_formats() -> None:
    game, view = hint.load_position("police07", _state_json())
    text = hint.format_advice(game, view, hint.advise(game, view, bot="random", seed=3))
    assert sum(line.endswith("  random") for line in text.splitlines()) == len(view.legal_actions)
    # the random bot keeps no belief; the possible stops are still printed, from the view
    assert "Dr. Factor may be at 4 stops: 13, 19, 22, 24" in text


def test_free_start_hints_before_dr_factor_places() -> None:
    game = games.load("police07", players=3, free_start=True)
    state = game.new_initial_state()
    game, view = hint.load_position("police07", state.to_json())
    assert view.seat == 1
    text = hint.format_advice(game, view, hint.advise(game, view))
    assert "Dr. Factor has not placed his piece yet." in text and " 1. place " in text
