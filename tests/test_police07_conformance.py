"""Police 07 against the conformance suite, and many seeded random games.

``check_game`` (solver/testing.py) checks the protocol: playouts, clones, codec, illegal actions,
views and their JSON, the no-leak resample invariant, determinism. On the shipped board it runs on
every player count and variant in tests/test_conformance.py, over the registry; here it runs on the
16-stop board of the rules tables (where captures, passes and cornering come up in most games), at
its default density. The random-game runs then play many more games
with only the rules' own invariants checked; the 10,000-game run is marked ``slow``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.testing import check_game
from tests.test_police07_rules import MINI_BOARD

VARIANTS: dict[str, dict[str, bool]] = {
    "plain": {},
    "voluntary_show": {"voluntary_show": True},
    "unlimited_tickets": {"unlimited_tickets": True},
    "free_start": {"free_start": True},
    "all": {"voluntary_show": True, "unlimited_tickets": True, "free_start": True},
}


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


# --- the conformance suite ------------------------------------------------------------------------
MINI_CONFIGS = [
    ("2 players, 2 pieces", {"players": 2, "pieces": [2]}),
    ("3 players, 1+2 pieces", {"players": 3, "pieces": [1, 2]}),
    ("2 players, 1 piece, all variants", {"players": 2, "pieces": [1], **VARIANTS["all"]}),
    ("4 players, voluntary show", {"players": 4, "voluntary_show": True}),
]


@pytest.mark.parametrize(("description", "options"), MINI_CONFIGS, ids=[c[0] for c in MINI_CONFIGS])
def test_check_game_small_board(mini: str, description: str, options: dict[str, Any]) -> None:
    game = solver.games.load("police07", board=mini, **options)
    report = check_game(game, seed=7, games=3)
    assert report.games == 3


# --- many random games ----------------------------------------------------------------------------
def _configs(board: str | None = None) -> list[dict[str, Any]]:
    configs: list[dict[str, Any]] = []
    for players in range(2, 7):
        for variant in VARIANTS.values():
            configs.append({"players": players, **variant})
    configs += [
        {"players": 2, "pieces": [1]},
        {"players": 2, "pieces": [5]},
        {"players": 3, "pieces": [3, 2], "voluntary_show": True},
        {"players": 4, "pieces": [1, 2, 1], "unlimited_tickets": True},
    ]
    if board is not None:
        configs = [dict(c, board=board) for c in configs]
    return configs


FACTOR_STOCK = {"taxi": 3, "bus": 3, "metro": 2, "joker": 2, "double": 2}


def random_game(game: Any, rng: np.random.Generator) -> Any:
    """Play one game to the end with uniformly random legal actions, checking the rules' invariants
    that need no oracle at every step."""
    state = game.new_initial_state()
    players = game.num_players
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if not legal:
            raise AssertionError(f"no legal action in a live state: {state.to_json()['actions']}")
        if steps % 16 == 0 and legal != sorted(set(legal)):
            raise AssertionError(f"legal actions not sorted and unique: {legal}")
        state.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
        if steps > 400:
            raise AssertionError(f"game did not end in 400 actions: {state.to_json()['actions']}")
    check_end(state, players)
    return state


def check_end(state: Any, players: int) -> None:
    view = state.view(0).to_json()
    returns = state.returns()
    if view["winner"] == "factor":
        expected = [1.0] + [-1.0] * (players - 1)
    elif view["winner"] == "detectives":
        expected = [-1.0] + [1.0] * (players - 1)
    else:
        raise AssertionError(f"terminal without a winner: {view['reason']}")
    actions = state.to_json()["actions"]
    if returns != expected:
        raise AssertionError(f"returns {returns} for winner {view['winner']}: {actions}")
    log = view["log"]
    if len(log) > 24:
        raise AssertionError(f"{len(log)} moves logged: {actions}")
    stops = [p["stop"] for p in view["pieces"]]
    factor = view["factor"]["stop"]
    if len(set(stops)) != len(stops):
        raise AssertionError(f"two detectives share a stop: {actions}")
    caught = factor in stops
    if caught != (view["winner"] == "detectives" and "caught" in view["reason"]):
        raise AssertionError(f"capture and result disagree ({view['reason']}): {actions}")
    # every ticket is accounted for: the detectives' spent tickets went to Dr. Factor (unless the
    # stocks are unlimited), his own left the game; takes after a show move one ticket across
    unlimited = state.game.unlimited_tickets
    spent = Counter(text.split()[0] for piece, text in view["history"] if piece == 0)
    handed = Counter(text.split()[0] for piece, text in view["history"] if piece != 0)
    taken = Counter(text.split()[2] for piece, text in view["history"]
                    if piece == 0 and text.startswith("take"))
    for kind, start in FACTOR_STOCK.items():
        have = view["factor"]["tickets"][kind]
        if unlimited and kind in ("taxi", "bus", "metro"):
            if have is not None:
                raise AssertionError(f"unlimited {kind} became {have}: {actions}")
            continue
        got = 0 if unlimited else handed[kind] + taken[kind]
        if have != start + got - spent[kind] or have < 0:
            expected = start + got - spent[kind]
            raise AssertionError(f"Dr. Factor holds {have} {kind}, expected {expected}: {actions}")
    for piece in view["pieces"]:
        p = piece["piece"]
        for kind in ("taxi", "bus", "metro"):
            used = sum(1 for q, text in view["history"] if q == p and text.startswith(kind))
            lost = sum(1 for q, text in view["history"] if q == 0 and text == f"take {p} {kind}")
            have = piece["tickets"][kind]
            if unlimited:
                if have is not None:
                    raise AssertionError(f"piece {p}: unlimited {kind} became {have}: {actions}")
            elif have != {"taxi": 9, "bus": 9, "metro": 6}[kind] - used - lost or have < 0:
                raise AssertionError(
                    f"piece {p} holds {have} {kind} after {used} rides, {lost} taken: {actions}"
                )
    # the detectives' view at the end shows his stop, and the shown moves only
    seen = state.view(1).to_json()
    if seen["factor"]["stop"] != factor:
        raise AssertionError(f"Dr. Factor not shown at the end: {actions}")
    shown = [e["move"] for e in seen["log"] if e["stop"] is not None]
    if shown != [m for m in (1, 3, 8, 13, 18) if m <= len(log)]:
        raise AssertionError(f"moves shown to the detectives: {shown}: {actions}")


def run_games(total: int, seed: int, board: str | None = None) -> Counter[str]:
    configs = _configs(board)
    games = [solver.games.load("police07", **c) for c in configs]
    rngs = np.random.SeedSequence(seed).spawn(total)
    outcomes: Counter[str] = Counter()
    for i in range(total):
        state = random_game(games[i % len(games)], np.random.default_rng(rngs[i]))
        outcomes[ending(state.view(0).to_json()["reason"])] += 1
    return outcomes


def ending(reason: str) -> str:
    """The kind of ending a game-over reason names."""
    for word, kind in (("not caught by the end of move", "move 24"), ("caught", "capture"),
                       ("cornered", "cornered"), ("no detective can move", "detectives stuck")):
        if word in reason:
            return kind
    raise AssertionError(f"unknown ending: {reason!r}")


def test_random_games_fast() -> None:
    outcomes = run_games(300, seed=2024)
    assert sum(outcomes.values()) == 300
    assert {"capture", "move 24", "detectives stuck"} <= set(outcomes), outcomes


def test_random_games_small_board(mini: str) -> None:
    outcomes = run_games(600, seed=7, board=mini)
    assert sum(outcomes.values()) == 600
    # on 16 stops every way to end comes up
    assert set(outcomes) == {"capture", "cornered", "move 24", "detectives stuck"}, outcomes


@pytest.mark.slow
def test_random_games_10000() -> None:
    start = time.perf_counter()
    outcomes = run_games(10_000, seed=10_000)
    elapsed = time.perf_counter() - start
    assert sum(outcomes.values()) == 10_000
    assert elapsed < 180, f"10,000 games took {elapsed:.0f} s"


# --- seed determinism ------------------------------------------------------------------------------
def seeded_game(options: dict[str, Any], seed: int) -> list[str]:
    game = solver.games.load("police07", **options)
    state = random_game(game, np.random.default_rng(seed))
    actions: list[str] = state.to_json()["actions"]
    return actions


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_same_seed_same_game(variant: str) -> None:
    options = {"players": 4, **VARIANTS[variant]}
    games = [seeded_game(options, seed) for seed in (11, 12, 11, 12)]
    assert games[0] == games[2]
    assert games[1] == games[3]
    assert games[0] != games[1]


def test_replayed_game_matches(tmp_path: Path) -> None:
    """A finished game's JSON replays, through ``state_from_json``, to the same views and result."""
    game = solver.games.load("police07", players=3, voluntary_show=True)
    state = random_game(game, np.random.default_rng(3))
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert again.returns() == state.returns()
    for seat in range(game.num_players):
        assert again.view(seat).to_json() == state.view(seat).to_json()
