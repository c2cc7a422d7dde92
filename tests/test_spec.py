"""Each game's GameSpec agrees with its game, and loading through it names every fault."""

from __future__ import annotations

import contextlib
import inspect

import pytest

from solver import games
from solver.core import ConfigError


@pytest.mark.parametrize("name", games.names())
def test_spec_options_are_the_constructors(name: str) -> None:
    spec = games.spec(name)
    params = {p.name: p for p in inspect.signature(spec.game_class()).parameters.values()}
    assert list(params) == ["players", *spec.options], name
    assert params["players"].default == spec.default_players
    for option, declared in spec.options.items():
        assert params[option].default == declared.default, (name, option)
    game = games.load(name)
    assert game.num_players == spec.default_players
    assert set(game.config()) == set(params)


@pytest.mark.parametrize("name", games.names())
def test_players_outside_the_range_are_refused(name: str) -> None:
    spec = games.spec(name)
    for players in (spec.min_players, spec.max_players):
        assert games.load(name, players=players).num_players == players
    for players in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ConfigError, match=name):
            games.load(name, players=players)


@pytest.mark.parametrize("name", games.names())
def test_an_unknown_option_or_a_value_of_the_wrong_type_is_a_config_error(name: str) -> None:
    with pytest.raises(ConfigError, match=f"{name}: unknown option 'colour'"):
        games.load(name, colour="red")
    for option in games.spec(name).options:
        for value in (5, [1, 2], {"a": 1}):
            # accepted, or refused with a ConfigError naming the fault: never a TypeError or a crash
            with contextlib.suppress(ConfigError):
                games.load(name, **{option: value})


def test_a_number_where_police07_wants_a_list() -> None:
    # found by tests/test_cli_fuzz.py: a replay header's pieces=5 ended in a TypeError
    with pytest.raises(ConfigError, match="police07: bad options"):
        games.load("police07", pieces=5)


def test_bounds_and_action_space_are_declared() -> None:
    for name in games.names():
        spec = games.spec(name)
        assert spec.num_distinct_actions > 0 and spec.bounds
        bounds = spec.game_bounds(games.load(name))
        assert bounds.max_game_length > 0 and bounds.min_utility < bounds.max_utility
