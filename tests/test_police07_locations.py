"""Possible-location sets (solver/games/police07/locations.py) against a brute force, and resampling.

The brute force knows nothing of ``locations.py``. It replays the detectives' public history (the
``history`` of their view, ``[piece, text]``) on real engine states: a detective's action, a start
card, a double or a take is applied as written; a logged Dr. Factor move (``"bus ?"`` or ``"bus 118"``)
branches into every legal move of his with that ticket (to that stop, when shown); a voluntary show
keeps the branches at the shown stop. A branch the engine refuses to continue (a detective would
have caught him there, he would have been cornered) dies. Branches that reach the same stop for Dr.
Factor are merged: the rules never look at how he got there (the ticket stocks, his move count and
every detective are the same on every branch), so the set of stops reached is exactly the set of
end points of all Factor paths consistent with the view. At every decision (a detective's, and
Dr. Factor's own as a detective sees it: a branch on which he would have been cornered has ended)
the surviving branches must show that detective exactly the view the real game shows him, and their
stops must be the set ``possible_locations`` computes. ``tests/p07_bruteforce.py`` is a second,
stricter brute force (every legal action of every branch, whole views at every decision).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pytest

import solver.games
from solver.core import IllegalActionError
from solver.games.police07.locations import possible_locations
from tests.test_police07_rules import MINI_BOARD

FACTOR_MOVE_HEADS = ("taxi", "bus", "metro", "joker")


class Branches:
    """Every Dr. Factor whereabouts consistent with a public history, as live engine states."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.states: dict[int, Any] = {0: game.new_initial_state()}  # Factor's stop -> a state

    def feed(self, piece: int, text: str) -> None:
        words = text.split()
        out: dict[int, Any] = {}
        if piece == 0 and words[0] in FACTOR_MOVE_HEADS:
            shown = words[-1]
            for state in self.states.values():
                if state.is_terminal():
                    continue
                for action in state.legal_actions():
                    move = self.game.action_to_str(action).split()
                    if move[0] != words[0] or (shown != "?" and move[-1] != shown):
                        continue
                    branch = state.clone()
                    branch.apply(action)
                    out.setdefault(int(move[-1]), branch)
        elif piece == 0 and words[0] == "show":
            for stop, state in self.states.items():
                if stop == int(words[1]) and not state.is_terminal():
                    branch = state.clone()
                    branch.apply_str("show")
                    out[stop] = branch
        else:
            for stop, state in self.states.items():
                branch = state.clone()
                try:
                    branch.apply_str(text)
                except IllegalActionError:
                    continue  # this branch ended (caught or cornered) where the real game went on
                key = int(words[1]) if piece == 0 and words[0] in ("start", "place") else stop
                out[key] = branch
        self.states = out

    def consistent(self, seat: int, view: dict[str, Any], full: bool) -> set[int]:
        """The stops whose branch shows ``seat`` this view, compared in full when ``full``; else by the
        facts a live branch could differ in, over or not and whose decision it is (once the game is
        over, the shown stop differs too, so compare in full there)."""
        keep = set()
        for stop, state in self.states.items():
            if full:
                same = state.view(seat).to_json() == view
            else:
                same = (state.is_terminal() == (view["winner"] is not None)
                        and state.current_player() == view["decision"]["seat"])
            if same:
                keep.add(stop)
        return keep


def random_game_with_checks(game: Any, seed: int, resample_every: int = 0) -> dict[str, int]:
    """Play a random game; at every decision compare the location set with the brute force, and
    every ``resample_every``-th one check resampling. Returns counters of what was checked."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    branches = Branches(game)
    fed = 0
    counts: Counter[str] = Counter()
    while True:
        seat = state.current_player()
        if not state.is_chance_node():  # every decision, Dr. Factor's too (issue 19), and the end
            look = seat if seat > 0 else 1
            view = state.view(look)
            data = view.to_json()
            history = data["history"]
            for piece, text in history[fed:]:
                branches.feed(piece, text)
            fed = len(history)
            full = counts["decisions"] % 5 == 0 or state.is_terminal()
            expected = branches.consistent(look, data, full=state.is_terminal())
            got = possible_locations(game, data)
            truth = state.view(0).to_json()["factor"]["stop"]
            where = json.dumps(state.to_json()["actions"])
            if truth is None:  # free start: detectives place their pieces before he chooses his stop
                assert got == set() and expected == {0}, where
                assert game.resample(view, rng).view(look).to_json() == data
                counts["before placement"] += 1
                state.apply(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
                continue
            assert truth in got, f"true stop {truth} not in {sorted(got)}: {where}"
            assert got == expected, (
                f"sets differ: engine {sorted(got)}, brute force {sorted(expected)}: {where}"
            )
            if full:  # the quick comparison of branches agrees with comparing whole views
                assert branches.consistent(look, data, full=True) == expected, where
            counts["decisions"] += 1
            counts["largest"] = max(counts["largest"], len(got))
            if resample_every and counts["decisions"] % resample_every == 1:
                check_resample(game, view, got, rng)
                counts["resamples"] += 1
        if state.is_terminal():
            assert got == {truth}
            return dict(counts)
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])


def check_resample(game: Any, view: Any, stops: set[int], rng: np.random.Generator) -> None:
    data = view.to_json()
    for _ in range(3):
        drawn = game.resample(view, rng)
        assert drawn.view(view.seat).to_json() == data
        assert drawn.view(0).to_json()["factor"]["stop"] in stops
    for target in {min(stops), max(stops)}:
        drawn = game.resample(view, rng, belief={target: 1.0})
        assert drawn.view(0).to_json()["factor"]["stop"] == target
        assert drawn.view(view.seat).to_json() == data
        weights = {s: 0.001 for s in stops} | {target: 1000.0}
        assert game.resample(view, rng, belief=weights).view(0).to_json()["factor"]["stop"] == target


# --- the tables -----------------------------------------------------------------------------------
CONFIGS = [
    ("2 players", {"players": 2}),
    ("2 players, 1 piece", {"players": 2, "pieces": [1]}),
    ("3 players", {"players": 3}),
    ("4 players", {"players": 4}),
    ("6 players", {"players": 6}),
    ("4 players, voluntary show", {"players": 4, "voluntary_show": True}),
    ("3 players, unlimited tickets", {"players": 3, "unlimited_tickets": True}),
    ("4 players, free start", {"players": 4, "free_start": True}),
    ("5 players, all variants", {"players": 5, "voluntary_show": True, "unlimited_tickets": True,
                                  "free_start": True}),
]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("description", "options"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_locations_match_brute_force(description: str, options: dict[str, Any], seed: int) -> None:
    game = solver.games.load("police07", **options)
    counts = random_game_with_checks(game, seed=1000 * seed + options["players"], resample_every=7)
    assert counts["decisions"] > 0


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("boards") / "mini.json"
    path.write_text(json.dumps(MINI_BOARD))
    return str(path)


@pytest.mark.parametrize("seed", range(60))
def test_locations_match_brute_force_small_board(mini: str, seed: int) -> None:
    """On 16 stops captures, cornering, passes and the water bus come up often."""
    options = [
        {"players": 2, "pieces": [1]},
        {"players": 2, "pieces": [2], "voluntary_show": True},
        {"players": 3, "pieces": [1, 1], "free_start": True},
        {"players": 2, "pieces": [1], "unlimited_tickets": True, "voluntary_show": True},
    ][seed % 4]
    game = solver.games.load("police07", board=mini, **options)
    random_game_with_checks(game, seed=seed, resample_every=3)


def test_sets_grow_and_are_not_trivial() -> None:
    """The comparison is only worth something if the sets get big: over a few long games some
    detective decision faces many candidate stops."""
    game = solver.games.load("police07", players=2, pieces=[1], unlimited_tickets=True)
    largest = max(random_game_with_checks(game, seed=s)["largest"] for s in range(3))
    assert largest >= 30


# --- positions by hand ----------------------------------------------------------------------------
def mini_state(mini: str, actions: list[str], **options: Any) -> Any:
    options.setdefault("players", 2)
    options.setdefault("pieces", [1])
    game = solver.games.load("police07", board=mini, **options)
    state = game.new_initial_state()
    for text in actions:
        state.apply_str(text)
    return state


DOUBLE_LINE = ["start 9", "start 13", "taxi 8", "taxi 14", "taxi 9", "taxi 13", "taxi 8", "taxi 14",
               "double", "taxi 9", "taxi 10"]

HAND_ROWS = [
    ("the start stop", ["start 9", "start 12"], {9}),
    ("a shown first move", ["start 9", "start 12", "taxi 8"], {8}),
    ("after the detectives' round", ["start 9", "start 13", "taxi 8", "taxi 14"], {8}),
    ("a hidden taxi move, two ways", ["start 9", "start 13", "taxi 8", "taxi 14", "taxi 9"], {7, 9}),
    ("a hidden bus move, one way", ["start 9", "start 13", "taxi 8", "taxi 14", "bus 7"], {7}),
    ("a detective's move without a capture strikes out a stop",
     ["start 9", "start 11", "taxi 8", "taxi 10", "taxi 7", "taxi 9"], {7}),
    ("a hidden joker rides every line, water included (from the pier 3)",
     ["start 1", "start 13", "taxi 3", "taxi 14", "joker water 15"], {1, 4, 15}),
    ("stops held by detectives when he moves are excluded",
     ["start 1", "start 5", "taxi 3", "taxi 4", "taxi 1"], {1}),
    ("a shown move pins him", DOUBLE_LINE[:7], {8}),
    ("a double: both hidden moves branch", DOUBLE_LINE[:10], {7, 9}),
    ("a double: after the second move", DOUBLE_LINE, {6, 8, 10}),
]


@pytest.mark.parametrize(("description", "actions", "expected"), HAND_ROWS, ids=[r[0] for r in HAND_ROWS])
def test_locations_by_hand(mini: str, description: str, actions: list[str], expected: set[int]) -> None:
    state = mini_state(mini, actions)
    view = state.view(1).to_json()
    assert possible_locations(state.game, view) == expected
    own = state.view(0).to_json()
    assert possible_locations(state.game, own) == {own["factor"]["stop"]}


def test_uniform_resample_reaches_every_stop(mini: str) -> None:
    state = mini_state(mini, DOUBLE_LINE)
    view = state.view(1)
    stops = possible_locations(state.game, view.to_json())
    rng = np.random.default_rng(5)
    drawn = Counter(state.game.resample(view, rng).view(0).to_json()["factor"]["stop"] for _ in range(300))
    assert set(drawn) == stops == {6, 8, 10}
    assert min(drawn.values()) > 60  # three stops, about even


def test_belief_outside_the_set_falls_back_to_uniform(mini: str) -> None:
    state = mini_state(mini, DOUBLE_LINE)
    view = state.view(1)
    rng = np.random.default_rng(1)
    for _ in range(20):
        drawn = state.game.resample(view, rng, belief={3: 1.0})
        assert drawn.view(0).to_json()["factor"]["stop"] in {6, 8, 10}
        assert drawn.view(1).to_json() == view.to_json()
