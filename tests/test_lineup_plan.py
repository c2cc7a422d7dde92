"""The LineUp plan (solver.plan.lineup_plan) against a turn-by-turn brute force on the rules' test board.

The brute force below enumerates the same model one turn at a time: every board space the pawn
passes, every die face, the pawn's greedy step towards its committed target (re-derived here from
the board, not taken from the plan), ages growing by one at each turn start, lineups and chains. It
solves that chain of states by Gauss-Seidel value iteration; the plan's values, which use exact
travel-time distributions and decision epochs only at buildings, must agree to 1e-9.
"""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path
from typing import Any

import pytest

import solver.games
from solver.belief.lineup_memory import LEVELS, p_correct
from solver.core import BadStateError, ConfigError
from solver.plan.lineup_plan import Plan

EDGES = [[0, 2], [2, 1], [1, 7], [1, 11], [0, 3], [3, 4], [4, 5], [5, 8], [4, 10], [0, 6], [6, 9],
         [5, 13], [13, 12]]
NAMES = {0: "station", 7: "bakery", 8: "bank", 9: "car-lot", 10: "pet-shop", 11: "warehouse", 12: "wharf"}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Any:
    spaces = []
    for i in range(14):
        kind = "station" if i == 0 else "scene" if i in NAMES else "lucky" if i == 4 else "street"
        spaces.append({"id": i, "kind": kind, **({"name": NAMES[i]} if i in NAMES else {})})
    doc = {"format": "copsolver-lineup-board/1", "name": "test", "spaces": spaces, "edges": EDGES}
    path = tmp_path_factory.mktemp("plan") / "board.json"
    path.write_text(json.dumps(doc))
    return solver.games.load("lineup", players=2, board=str(path))


# --- the brute force ------------------------------------------------------------------------------
def street_distance(board: Any, target: int) -> dict[int, int]:
    """Steps to ``target`` through street spaces only (a building ends a move)."""
    dist = {target: 0}
    queue = deque([target])
    while queue:
        here = queue.popleft()
        if here != target and board.stops_move(here):
            continue
        for nxt in board.neighbours[here]:
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


class Brute:
    """The plan's model, one turn at a time (states: ("U", space, target, S, H, c) or ("A", S, H, c))."""

    def __init__(self, game: Any, level: str, to_win: int, max_held: int, max_age: int) -> None:
        self.game, self.board = game, game.board
        self.level = LEVELS[level]
        self.to_win, self.max_held, self.max_age = to_win, max_held, max_age
        self.dist = {t: street_distance(self.board, t) for t in (self.board.station, *self.board.scenes)}

    def step(self, here: int, roll: int, target: int) -> int:
        options = self.board.reachable(here, roll)
        if target in options:
            return target
        d = self.dist[target]
        return min((s for s in options if not self.board.stops_move(s)), key=lambda s: (d.get(s, 99), s))

    def aged(self, held: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        return tuple(sorted((s, min(self.max_age, a + 1)) for s, a in held))

    def lineup(self, solved: int, held: tuple[tuple[int, int], ...], i: int, count: int) -> list[Any]:
        scene, age = held[i]
        s = self.level.retention(age, len(held))
        p = p_correct(self.game.suspects, self.board.scene_names[scene], s, count)
        rest = held[:i] + held[i + 1:]
        now = solved | 1 << scene
        right = "WIN" if bin(now).count("1") >= self.to_win else ("A", now, rest, min(10, count + 1))
        wrong = ("U", self.board.station, None, solved, rest, max(3, count - 1))
        return [(p, right), (1 - p, wrong)]

    def actions(self, key: Any) -> list[tuple[float, list[Any]]]:
        if key == "WIN":
            return [(0.0, [(1.0, "WIN")])]
        if key[0] == "A":
            _, solved, held, count = key
            out = [(0.0, [(1.0, ("U", self.board.station, None, solved, held, count))])]
            out += [(0.0, self.lineup(solved, held, i, count)) for i in range(len(held))]
            return out
        _, here, target, solved, held, count = key
        if target is None:  # at a building, choosing
            out = []
            if here == self.board.station:
                older = self.aged(held)
                out += [(1.0, self.lineup(solved, older, i, count)) for i in range(len(older))]
            else:
                out.append((0.0, [(1.0, ("U", here, self.board.station, solved, held, count))]))
            taken = {s for s, _ in held}
            if len(held) < self.max_held:
                for k, space in enumerate(self.board.scenes):
                    if not solved >> k & 1 and k not in taken and space != here and here in self.dist[space]:
                        out.append((0.0, [(1.0, ("U", here, space, solved, held, count))]))
            return out
        older = self.aged(held)
        branches = []
        for roll in range(1, 7):
            to = self.step(here, roll, target)
            if to == target == self.board.station:
                branches.append((1 / 6, ("A", solved, older, count)))
            elif to == target:
                k = self.board.scenes.index(to)
                branches.append((1 / 6, ("U", to, None, solved, tuple(sorted((*older, (k, 0)))), count)))
            else:
                branches.append((1 / 6, ("U", to, target, solved, older, count)))
        return [(1.0, branches)]

    def solve(self) -> dict[Any, float]:
        start = ("U", self.board.station, None, 0, (), 4)
        table: dict[Any, list[tuple[float, list[Any]]]] = {}
        todo = [start, "WIN"]
        while todo:
            key = todo.pop()
            if key in table:
                continue
            table[key] = self.actions(key)
            todo += [n for _, branches in table[key] for _, n in branches if n not in table]
        value = dict.fromkeys(table, 0.0)
        while True:
            change = 0.0
            for key, acts in table.items():
                new = min(c + sum(p * value[n] for p, n in b) for c, b in acts)
                change = max(change, abs(new - value[key]))
                value[key] = new
            if change < 1e-13:
                return value


def compare(game: Any, level: str, max_held: int, max_age: int) -> int:
    plan = Plan(game, level, to_win=2, max_held=max_held, max_age=max_age)
    brute = Brute(game, level, 2, max_held, max_age).solve()
    station = game.board.station
    checked = 0
    for key, v in brute.items():
        if key == "WIN":
            continue
        if key[0] == "A":
            mine = plan.value(key)
        elif key[2] is None:  # a decision at a building: the plan's end-of-turn state
            loc = 0 if key[1] == station else 1 + game.board.scenes.index(key[1])
            mine_key = ("E", loc, key[3], key[4], key[5])
            if mine_key not in plan.index:
                continue
            mine = plan.value(mine_key)
        else:
            continue
        assert mine == pytest.approx(v, abs=1e-9), key
        checked += 1
    assert plan.value(plan.start()) == pytest.approx(brute[("U", station, None, 0, (), 4)], abs=1e-9)
    return checked


def test_plan_equals_brute_force_one_card_held(game: Any) -> None:
    assert compare(game, "child", max_held=1, max_age=2) > 100


def test_plan_equals_brute_force_two_cards_held(game: Any) -> None:
    assert compare(game, "adult", max_held=2, max_age=2) > 1000


@pytest.mark.slow
def test_plan_equals_brute_force_older_cards_poor_memory(game: Any) -> None:
    assert compare(game, "child", max_held=2, max_age=4) > 1000


# --- sanity ---------------------------------------------------------------------------------------
def test_travel_times_over_the_die(game: Any) -> None:
    plan = Plan(game, "perfect", to_win=1, max_held=1, max_age=1)
    car_lot = 1 + game.board.scenes.index(9)
    assert dict(plan.travel(0, car_lot)) == pytest.approx({1: 5 / 6, 2: 1 / 6})  # two steps away
    for space in range(14):
        for loc in range(len(plan.locs)):
            if plan.locs[loc] != space and plan.street_distances(loc)[space] > 0:
                assert sum(p for _, p in plan.travel(space, loc)) == pytest.approx(1.0)


def test_better_memory_never_takes_longer(game: Any) -> None:
    values = [Plan(game, lv, to_win=2, max_held=2, max_age=3).value(("E", 0, 0, (), 4))
              for lv in ("child", "adult", "sharp", "perfect")]
    assert values == sorted(values, reverse=True)
    assert values[0] > values[-1]


def test_perfect_memory_lines_up_at_once_and_chains(game: Any) -> None:
    plan = Plan(game, "perfect", to_win=2, max_held=2, max_age=3)
    best = plan.ranked(("A", 0, ((0, 1), (1, 1)), 4))[0]
    assert best.kind == "lineup"
    # with perfect memory P(correct) = 1: both cards in one visit win
    assert best.value == pytest.approx(0.0)


def test_out_of_model_states_and_options_are_typed_errors(game: Any) -> None:
    plan = Plan(game, "adult", to_win=2, max_held=1, max_age=2)
    with pytest.raises(BadStateError):
        plan.value(("E", 0, 0, ((0, 9), (1, 9)), 4))
    with pytest.raises(ConfigError):
        Plan(game, "adult", to_win=9)
    with pytest.raises(ConfigError):
        Plan(game, "genius")


def test_full_game_solve_is_small(tmp_path: Path) -> None:
    game = solver.games.load("lineup", players=2)
    plan = Plan(game, "adult")
    assert plan.sweeps < 500 and 5 < plan.value(plan.start()) < 40
