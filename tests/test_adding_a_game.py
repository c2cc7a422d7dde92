"""A new game is two folders and a registry line (docs/adding-a-game.md).

The toy game Hidden Pass lives in ``tests/toy/game/`` (rules and spec) and ``tests/toy/bots/`` (its
bot and adapter encoding). One registry line, ``solver.games.GAMES["hidden_pass"] =
"tests.toy.game.spec"``, and nothing else, makes it playable in ``copsolver play``, ``hint``,
``serve`` and ``arena`` and in both adapters, and puts it under the conformance check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bots import registry
from bots.cli import main
from bots.protocol import SeatServer
from solver import games
from solver.testing import check_game
from tests.test_adapters import OPENSPIEL_MISSING, PETTINGZOO_MISSING, need

NAME = "hidden_pass"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The registry line; the bot registry forgets the game afterwards (it caches loaded games)."""
    monkeypatch.setitem(games.GAMES, NAME, "tests.toy.game.spec")
    yield
    registry._loaded.discard(NAME)


def test_the_registry_line_is_all_it_takes(registered: None) -> None:
    assert NAME in games.names()
    spec = games.spec(NAME)
    assert spec.bots == "tests.toy.bots" and spec.num_distinct_actions == 11
    assert set(registry.bots_for(NAME)) >= {"holdem", "random", "ismcts"}
    game = games.load(NAME, players=4, rounds=1)
    assert game.config() == {"players": 4, "rounds": 1}


def test_play_and_hint_and_bots(registered: None, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    assert main(["play", NAME, "--seed", "3", "--seat", "0=holdem", "--replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Hidden Pass (a toy game), seed 3") and "holdem bot" in out
    assert main(["replay", str(record)]) == 0
    capsys.readouterr()
    assert main(["hint", NAME, str(record), "--ply", "3", "--bot", "holdem"]) == 0
    assert "holdem" in capsys.readouterr().out
    assert main(["bots", NAME]) == 0
    assert "holdem" in capsys.readouterr().out
    assert main(["play", NAME, "--rounds", "3"]) == 2  # its options are no flags unless it says so
    capsys.readouterr()


def test_serve(registered: None) -> None:
    server = SeatServer()
    [started] = server.handle({"type": "new_game", "game": NAME, "seed": 2,
                               "bots": {"0": "holdem", "1": "random", "2": "holdem"}})
    assert started["type"] == "game_started", started
    replies = server.handle({"type": "advance", "game_id": started["game_id"]})
    assert [r["type"] for r in replies[:-1]] == ["applied"] * (len(replies) - 1)
    assert replies[-1]["type"] == "advanced" and replies[-1]["over"], replies[-1]
    [welcome] = server.handle({"type": "hello"})
    assert NAME in welcome["games"] and "holdem" in welcome["games"][NAME]["bots"]


def test_arena(registered: None, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    assert main(["arena", NAME, "--a", "holdem", "--b", "random", "--games", "2", "--seed", "1",
                 "--backend", "serial", "--json", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["total_games"] == 2 * 3 * 2  # two deals, each seat's line-up both ways
    capsys.readouterr()


def test_conformance(registered: None) -> None:
    for players in range(games.spec(NAME).min_players, games.spec(NAME).max_players + 1):
        check_game(games.load(NAME, players=players), seed=players)


def test_openspiel(registered: None) -> None:
    pyspiel = need("pyspiel", reason=OPENSPIEL_MISSING)
    from bots.adapters import openspiel

    openspiel.register(NAME)
    game = pyspiel.load_game(openspiel.short_name(NAME))
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_pettingzoo(registered: None) -> None:
    need("pettingzoo", reason=PETTINGZOO_MISSING)
    from pettingzoo.test import api_test

    from bots.adapters import pettingzoo

    env = pettingzoo.env(NAME)
    api_test(env, num_cycles=50)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
