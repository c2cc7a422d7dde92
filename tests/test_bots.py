"""The bot registry, the base bot contract, and the random bot."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

import bots
from bots import Advice, Bot, RankedAction, registry
from bots.random_bot import RandomBot
from solver import games
from solver.core import Action, BadStateError, ConfigError, Game, IllegalActionError, State, View
from solver.games.police07.rules import Police07Game, Police07State

CONFIGS = [
    {"players": 2},
    {"players": 4},
    {"players": 6, "voluntary_show": True},
    {"players": 3, "unlimited_tickets": True},
    {"players": 4, "free_start": True},
]


def play(game: Game, seat_bots: list[Bot], seed: int) -> State:
    """Play one game to the end; chance outcomes drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        seat = state.current_player()
        view = state.view(seat)
        action = seat_bots[seat].step(view)
        assert action in view.legal_actions
        state.apply(action)
    return state


def started(game: Game) -> Police07State:
    """A position after the deal (Dr. Factor to make move 1)."""
    assert isinstance(game, Police07Game)
    state = game.new_initial_state()
    for text in ("start 1", "start 24", "start 40", "start 59"):
        state.apply_str(text)
    return state


# --- registry ---------------------------------------------------------------------------------
def test_available_lists_generic_and_game_bots() -> None:
    listed = bots.available("police07")
    assert {"random", "heuristic"} <= set(listed)
    assert all(isinstance(text, str) and text for text in listed.values())


def test_every_game_has_the_random_bot() -> None:
    for name in games.names():
        assert "random" in bots.available(name)


def test_available_unknown_game() -> None:
    with pytest.raises(ConfigError, match="unknown game 'nope'"):
        bots.available("nope")


def test_make_from_name_and_from_game() -> None:
    bot = bots.make("police07", "random", seat=1, rng=3)
    assert isinstance(bot, RandomBot) and bot.seat == 1 and bot.game == games.load("police07")
    game = games.load("police07", players=3)
    assert bots.make(game, "heuristic", seat=0).game is game


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "alphazero", "seat": 0}, r"unknown bot 'alphazero' for police07; available: .*heuristic"),
        ({"name": "random", "seat": 4}, "seat 4 is not 0..3"),
        ({"name": "random", "seat": -1}, "seat -1"),
        ({"name": "random", "seat": 0, "depth": 3}, "unknown option 'depth'"),
        ({"name": "heuristic", "seat": 0, "epsilon": 1.5}, "option 'epsilon' must be in"),
        ({"name": "heuristic", "seat": 0, "epsilon": "high"}, "option 'epsilon' must be a float"),
        ({"name": "heuristic", "seat": 0, "epsilon": True}, "option 'epsilon' must be a float"),
        ({"name": "heuristic", "seat": 0, "temperature": 1}, "unknown option 'temperature'"),
    ],
)
def test_make_errors_name_the_fault(kwargs: dict[str, object], message: str) -> None:
    game = games.load("police07", players=4)
    with pytest.raises(ConfigError, match=message):
        bots.make(game, **kwargs)  # type: ignore[arg-type]


def test_make_unknown_game_name() -> None:
    with pytest.raises(ConfigError, match="unknown game"):
        bots.make("monopoly", "random", seat=0)


def test_options_are_converted_and_defaulted() -> None:
    assert bots.make("police07", "heuristic", seat=0).settings == {"epsilon": 0.0}
    bot = bots.make("police07", "heuristic", seat=0, epsilon=1)
    assert bot.settings["epsilon"] == 1.0 and isinstance(bot.settings["epsilon"], float)


class _Named(RandomBot):
    name: ClassVar[str] = "random"
    description: ClassVar[str] = "a second class under a taken name"


class _Extra(RandomBot):
    name: ClassVar[str] = "test-extra"
    description: ClassVar[str] = "registered by a test"


def test_register_adds_bots_and_refuses_a_taken_name() -> None:
    bots.available("police07")  # load the game's modules first
    with pytest.raises(ConfigError, match="already registered"):
        registry.register(registry.ANY_GAME, _Named)
    registry.register("police07", _Extra)
    try:
        assert bots.available("police07")["test-extra"] == "registered by a test"
        assert isinstance(bots.make("police07", "test-extra", seat=0), _Extra)
    finally:
        del registry._registry["police07"]["test-extra"]


# --- the base contract -----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_step_refuses_views_it_cannot_act_on(name: str) -> None:
    game = games.load("police07", players=4)
    state = started(game)  # Dr. Factor (seat 0) to move
    bot = bots.make(game, name, seat=1, rng=0)
    with pytest.raises(IllegalActionError, match="seat 0's, this bot plays 1"):
        bot.step(state.view(0))
    with pytest.raises(IllegalActionError, match="no decision now"):
        bot.step(state.view(1))
    with pytest.raises(IllegalActionError, match="no decision now"):
        bot.advise(state.view(1))
    other = games.load("police07", players=4, voluntary_show=True).new_initial_state()
    for text in ("start 1", "start 24", "start 40", "start 59"):
        other.apply_str(text)
    with pytest.raises(BadStateError, match="view is of"):
        bots.make(game, name, seat=0).step(other.view(0))


def test_restart_checks_the_seat_and_inform_is_a_no_op() -> None:
    game = games.load("police07", players=4)
    state = started(game)
    bot = bots.make(game, "random", seat=2)
    bot.restart(state.view(2))
    for event in state.events_for(2):
        bot.inform(event)
    with pytest.raises(BadStateError, match="restart with seat 1's view"):
        bot.restart(state.view(1))


def test_advice_json() -> None:
    advice = Advice(1, (RankedAction(5, "taxi 5", 1.5, "why", visits=3, value=0.25),), {"count": 1}, "sum")
    assert advice.to_json() == {
        "seat": 1,
        "ranked": [
            {"action": 5, "text": "taxi 5", "score": 1.5, "reason": "why", "visits": 3, "value": 0.25}
        ],
        "belief": {"count": 1},
        "summary": "sum",
        "decided_by": "",
        "note": "",
    }
    assert advice.best.text == "taxi 5"
    handed = Advice(1, advice.ranked, decided_by="heuristic", note="a free-start placement")
    assert handed.to_json()["decided_by"] == "heuristic"
    assert handed.to_json()["note"] == "a free-start placement"


# --- the random bot ---------------------------------------------------------------------------
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_random_bot_plays_legal_games(config: dict[str, object]) -> None:
    game = games.load("police07", **config)
    for seed in range(3):
        seat_bots = [
            bots.make(game, "random", seat=s, rng=np.random.default_rng([seed, s]))
            for s in range(game.num_players)
        ]
        assert play(game, seat_bots, seed).is_terminal()


def test_random_advice_ranks_every_legal_action_equally() -> None:
    game = games.load("police07", players=4)
    view = started(game).view(0)
    advice = bots.make(game, "random", seat=0).advise(view)
    assert [r.action for r in advice.ranked] == list(view.legal_actions)
    assert {(r.score, r.reason) for r in advice.ranked} == {(0.0, "random")}
    assert [r.text for r in advice.ranked] == [game.action_to_str(a) for a in view.legal_actions]


def _choices(name: str, seed: int, view: View, n: int = 20) -> list[Action]:
    options = {"epsilon": 0.5} if name == "heuristic" else {}
    bot = bots.make(view.game, name, seat=view.seat, rng=seed, **options)
    return [bot.step(view) for _ in range(n)]


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_same_seed_same_choices(name: str) -> None:
    game = games.load("police07", players=4)
    view = started(game).view(0)
    assert _choices(name, 7, view) == _choices(name, 7, view)
    assert len(set(_choices(name, 7, view))) > 1  # the generator is used, not a constant


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_same_seeds_same_game(name: str) -> None:
    game = games.load("police07", players=4)

    def record(seed: int) -> list[Action]:
        seat_bots = [bots.make(game, name, seat=s, rng=np.random.default_rng([seed, s])) for s in range(4)]
        return play(game, seat_bots, seed).history

    assert record(11) == record(11)
