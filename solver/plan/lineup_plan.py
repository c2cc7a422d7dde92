"""The optimal LineUp plan for one seat under the memory model of :mod:`solver.belief.lineup_memory`.

A Markov decision process (Bellman 1957; Puterman 1994, "Markov Decision Processes", ch. 7 on
stochastic shortest paths) over a compact state, solved exactly by value iteration.

**Objective.** Minimise the expected number of the seat's own turns until it has identified
``to_win`` suspects from different scenes (4 in the game). Opponents are not modelled: the other
seats only delay the seat's turns, and a plan that wins in fewer turns wins the race more often.
Lucky Break spaces are treated as streets.

**State.** Decision epochs are the ends of the seat's turns at the station or a scene (``E``) and its
arrival at the station within a turn (``A``, where lineups are asked and chained)::

    E(loc, S, H, c)    loc: 0 the station, 1+i scene i;   A(S, H, c)
    S: scenes solved (a bitmask); H: held face-down cards, a sorted tuple of (scene, age),
    at most ``max_held``, ages capped at ``max_age``; c: the Lineup Count (3..10)

**Actions.** At ``E``: go to the station, or go to an unsolved scene not held (when fewer than
``max_held`` are held), travelling ``T`` turns (ages + T); at the station, stay and line up card i
(1 turn, ages + 1). At ``A``: line up card i (right with P(correct), count + 1, ``A`` again or the
win; wrong: count - 1, the turn ends) or stop. P(correct) is :func:`~solver.belief.lineup_memory
.p_correct` at retention ``s(level, age, load = |H|)`` and lineup size ``c``.

**Travel.** The pawn commits to its target and each turn moves to the reachable space nearest to it
(by shortest paths that never pass through a building, the rules' movement); ``T``'s distribution
is computed exactly over the die from every space (:meth:`Plan.travel`).

**Solve.** States reachable from the start are enumerated; value iteration ``V <- min_a (cost_a +
P_a V)`` runs from ``V = 0`` until the largest change is below 1e-12 (it rises monotonically to the
least fixed point, the optimal values of the stochastic shortest path problem). Tests check it
against a turn-by-turn enumeration of the same model on a small board (tests/test_lineup_plan.py).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from itertools import combinations, product
from typing import Final, TypeAlias

import numpy as np

from solver.belief.lineup_memory import Level, level, p_correct
from solver.core import BadStateError, ConfigError
from solver.games.lineup.board import Board, Kind
from solver.games.lineup.rules import LineUpGame
from solver.games.lineup.turn import MAX_COUNT, MIN_COUNT, START_COUNT, TO_WIN

Held: TypeAlias = tuple[tuple[int, int], ...]
Key: TypeAlias = tuple[object, ...]
STATION: Final = 0
WIN: Final = ("win",)


def distances(board: Board, target: int) -> list[int]:
    """Steps from every space to ``target`` never passing through a building (-1: cannot reach)."""
    dist = [-1] * len(board.kinds)
    dist[target] = 0
    queue = deque([target])
    while queue:
        here = queue.popleft()
        if here != target and board.stops_move(here):
            continue  # a pawn cannot pass through it, so nothing lies beyond it
        for nxt in board.neighbours[here]:
            if dist[nxt] < 0:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def greedy_step(board: Board, here: int, roll: int, target: int, dist: list[int]) -> int:
    """Where a pawn heading for ``target`` moves with ``roll``: the target, else the nearest street."""
    options = board.reachable(here, roll)
    if target in options:
        return target
    streets = [s for s in options if not board.stops_move(s) and dist[s] >= 0] or list(options)
    return min(streets, key=lambda s: (dist[s] if dist[s] >= 0 else 10**6, s))


@dataclass(frozen=True)
class Choice:
    """A plan decision: ``kind`` "go" (to ``target``: a loc), "stay" or "lineup" (card ``card``), "stop"."""

    kind: str
    target: int = -1
    card: tuple[int, int] = (-1, -1)
    value: float = 0.0  # expected own turns to win after it


class Plan:
    """The solved plan for ``game``'s board and decks at memory ``level_name``."""

    def __init__(self, game: LineUpGame, level_name: str = "adult", to_win: int = TO_WIN,
                 max_held: int = 2, max_age: int = 5, tol: float = 1e-12) -> None:
        if not 1 <= to_win <= len(game.board.scenes) or not 1 <= max_held <= 3 or not 1 <= max_age <= 30:
            raise ConfigError(f"lineup plan: to_win {to_win}, max_held {max_held} or max_age {max_age} "
                              "out of range (1..scenes, 1..3, 1..30)")
        self.game = game
        self.board = game.board
        self.level: Level = level(level_name)
        self.to_win, self.max_held, self.max_age = to_win, max_held, max_age
        self.locs = (self.board.station, *self.board.scenes)  # loc -> space
        self._dist = [distances(self.board, s) for s in self.locs]
        self._travel: dict[tuple[int, int], tuple[tuple[int, float], ...]] = {}
        self._p: dict[tuple[int, int, int, int], float] = {}
        started = time.perf_counter()
        self.index: dict[Key, int] = {}
        self.values = self._solve(tol)
        self.seconds = time.perf_counter() - started

    # --- the model ------------------------------------------------------------------------------
    def travel(self, space: int, loc: int) -> tuple[tuple[int, float], ...]:
        """``(T, P(T))``: own turns to reach ``loc`` from ``space`` moving greedily (exact over the die)."""
        key = (space, loc)
        if key not in self._travel:
            target, dist = self.locs[loc], self._dist[loc]
            out: dict[int, float] = {}
            layer = {space: 1.0}
            turn = 0
            while layer:
                turn += 1
                nxt: dict[int, float] = {}
                for here, p in layer.items():
                    for roll in range(1, 7):
                        to = greedy_step(self.board, here, roll, target, dist)
                        if to == target:
                            out[turn] = out.get(turn, 0.0) + p / 6
                        elif self.board.stops_move(to):
                            raise ConfigError(f"lineup plan: no street path from {space} to {target}")
                        else:
                            nxt[to] = nxt.get(to, 0.0) + p / 6
                layer = nxt
            self._travel[key] = tuple(sorted(out.items()))
        return self._travel[key]

    def street_distances(self, loc: int) -> list[int]:
        """Steps from every space to ``loc`` by street paths (-1: only through a building)."""
        return self._dist[loc]

    def p_right(self, scene: int, age: int, load: int, count: int) -> float:
        """P(correct) of a card of scene number ``scene`` at ``age`` with ``load`` held, lineup ``count``."""
        key = (scene, age, load, count)
        if key not in self._p:
            s = self.level.retention(age, load)
            name = self.board.scene_names[scene]
            self._p[key] = p_correct(self.game.suspects, name, s, count)
        return self._p[key]

    def aged(self, held: Held, t: int) -> Held:
        """``held`` after ``t`` more turns (ages capped)."""
        return tuple(sorted((s, min(self.max_age, a + t)) for s, a in held))

    def actions(self, key: Key) -> list[tuple[Choice, float, list[tuple[float, Key]]]]:
        """Every action at ``key``: (choice, expected cost, [(probability, next key)])."""
        out: list[tuple[Choice, float, list[tuple[float, Key]]]] = []
        if key == WIN:
            return [(Choice("stop"), 0.0, [(1.0, WIN)])]
        if key[0] == "A":
            solved, held, count = _ints(key[1]), _held(key[2]), _ints(key[3])
            out.append((Choice("stop"), 0.0, [(1.0, ("E", STATION, solved, held, count))]))
            for i in sorted(set(range(len(held))), key=lambda i: held[i]):
                if i > 0 and held[i] == held[i - 1]:
                    continue
                out.append((Choice("lineup", card=held[i]), 0.0, self._lineup(solved, held, i, count)))
            return out
        loc, solved, held, count = _ints(key[1]), _ints(key[2]), _held(key[3]), _ints(key[4])
        space = self.locs[loc]
        if loc == STATION:
            older = self.aged(held, 1)
            for i in range(len(older)):
                if i == 0 or older[i] != older[i - 1]:
                    out.append((Choice("stay", card=older[i]), 1.0, self._lineup(solved, older, i, count)))
        else:
            out.append(self._go(space, STATION, solved, held, count))
        if len(held) < self.max_held:
            taken = {s for s, _ in held}
            for scene in range(len(self.board.scenes)):
                if (not solved >> scene & 1 and scene not in taken and scene + 1 != loc
                        and self._dist[scene + 1][space] > 0):  # a street path (not via the station)
                    out.append(self._go(space, scene + 1, solved, held, count))
        return out

    def _go(self, space: int, loc: int, solved: int, held: Held, count: int
            ) -> tuple[Choice, float, list[tuple[float, Key]]]:
        cost, branches = 0.0, []
        for t, p in self.travel(space, loc):
            cost += p * t
            later = self.aged(held, t)
            nxt: Key = (("A", solved, later, count) if loc == STATION
                        else ("E", loc, solved, tuple(sorted((*later, (loc - 1, 0)))), count))
            branches.append((p, nxt))
        return Choice("go", target=loc), cost, branches

    def _lineup(self, solved: int, held: Held, i: int, count: int) -> list[tuple[float, Key]]:
        scene, age = held[i]
        p = self.p_right(scene, age, len(held), count)
        rest = held[:i] + held[i + 1:]
        now = solved | 1 << scene
        won = bin(now).count("1") >= self.to_win
        right: Key = WIN if won else ("A", now, rest, min(MAX_COUNT, count + 1))
        wrong: Key = ("E", STATION, solved, rest, max(MIN_COUNT, count - 1))
        return [(p, right), (1 - p, wrong)]

    # --- solving --------------------------------------------------------------------------------
    def start(self) -> Key:
        """A seat's state at the start of the game: in the station, nothing held, count 4."""
        return ("E", STATION, 0, (), START_COUNT)

    def domain(self) -> list[Key]:
        """Every state of the model (all of them, not only those reachable from the start: Lucky
        Break cards and other seats' Hinder cards put a seat in any of them)."""
        n = len(self.board.scenes)
        out: list[Key] = [self.start()]
        for solved in range(1 << n):
            if bin(solved).count("1") >= self.to_win:
                continue
            free = [s for s in range(n) if not solved >> s & 1]
            hands: list[Held] = [()]
            for size in range(1, self.max_held + 1):
                for scenes in combinations(free, size):
                    for ages in product(range(self.max_age + 1), repeat=size):
                        hands.append(tuple(sorted(zip(scenes, ages, strict=True))))
            for count in range(MIN_COUNT, MAX_COUNT + 1):
                for held in hands:
                    out.append(("E", STATION, solved, held, count))
                    out.append(("A", solved, held, count))
                    for scene, age in held:
                        if age == 0:
                            out.append(("E", scene + 1, solved, held, count))
        return out

    def _solve(self, tol: float) -> np.ndarray:
        keys: list[Key] = [WIN, *dict.fromkeys(self.domain())]
        self.index = {k: i for i, k in enumerate(keys)}
        rows: list[int] = []
        cols: list[int] = []
        probs: list[float] = []
        costs: list[float] = []
        owner: list[int] = []
        i = 0
        while i < len(keys):
            for _, cost, branches in self.actions(keys[i]):
                row = len(costs)
                for p, nxt in branches:
                    if nxt not in self.index:
                        self.index[nxt] = len(keys)
                        keys.append(nxt)
                    rows.append(row)
                    cols.append(self.index[nxt])
                    probs.append(p)
                costs.append(cost)
                owner.append(i)
            i += 1
        self.keys = keys
        n = len(keys)
        # the transition matrix as coordinate lists: one row per (state, action), summed by bincount
        self._rows = np.array(rows, dtype=np.int64)
        self._cols = np.array(cols, dtype=np.int64)
        self._probs = np.array(probs)
        self._cost = np.array(costs)
        self._owner = np.array(owner)
        self._starts = np.flatnonzero(np.r_[True, self._owner[1:] != self._owner[:-1]])
        values = np.zeros(n)
        self.sweeps = 0
        while True:
            self.sweeps += 1
            new = np.minimum.reduceat(self._backup(values), self._starts)
            change = float(np.max(np.abs(new - values)))
            values = new
            # value iteration on a stochastic shortest path problem with positive costs converges;
            # the sweep cap only bounds a pathological user board
            if change <= tol * max(1.0, float(values.max())) or self.sweeps > 100_000:
                break
        return values

    def _backup(self, values: np.ndarray) -> np.ndarray:
        """``cost_a + sum_s' P(s' | a) V(s')`` for every (state, action) row."""
        weights = self._probs * values[self._cols]
        expected = np.bincount(self._rows, weights=weights, minlength=len(self._cost))
        return np.asarray(self._cost + expected)

    # --- using it -------------------------------------------------------------------------------
    def value(self, key: Key) -> float:
        """Expected own turns to win from ``key``; BadStateError outside the model's states."""
        return self._lookup(key)

    def ranked(self, key: Key) -> list[Choice]:
        """Every action at ``key`` with its expected turns to win, best first."""
        out = []
        for choice, cost, branches in self.actions(key):
            v = cost + sum(p * self._lookup(n) for p, n in branches)
            out.append(Choice(choice.kind, choice.target, choice.card, v))
        return sorted(out, key=lambda c: (c.value, c.kind, c.target, c.card))

    def _lookup(self, key: Key) -> float:
        if key not in self.index:
            raise BadStateError(f"lineup plan: {key} is not a state of the model "
                                f"(at most {self.max_held} held cards of distinct unsolved scenes)")
        return float(self.values[self.index[key]])

    def from_space(self, space: int, solved: int, held: Held, count: int) -> list[Choice]:
        """Where to head from a street ``space`` (a pawn between buildings), best first."""
        out = [self._go_value(space, STATION, solved, held, count)]
        if len(held) < self.max_held:
            taken = {s for s, _ in held}
            for scene in range(len(self.board.scenes)):
                if not solved >> scene & 1 and scene not in taken and self._dist[scene + 1][space] > 0:
                    out.append(self._go_value(space, scene + 1, solved, held, count))
        return sorted(out, key=lambda c: (c.value, c.target))

    def _go_value(self, space: int, loc: int, solved: int, held: Held, count: int) -> Choice:
        choice, cost, branches = self._go(space, loc, solved, held, count)
        return Choice("go", loc, value=cost + sum(p * self._lookup(n) for p, n in branches))

    def loc_of(self, space: int) -> int | None:
        """The loc of a building space (0 the station, 1 + scene number), None for a street."""
        if self.board.kinds[space] == Kind.STATION:
            return STATION
        if self.board.kinds[space] == Kind.SCENE:
            return self.board.scenes.index(space) + 1
        return None


def _ints(x: object) -> int:
    if not isinstance(x, int):
        raise BadStateError(f"lineup plan: {x!r} in a state key is not an int")
    return x


def _held(x: object) -> Held:
    if not isinstance(x, tuple):
        raise BadStateError(f"lineup plan: {x!r} in a state key is not a hand")
    return x


_PLANS: dict[tuple[object, ...], Plan] = {}


def cached_plan(game: LineUpGame, level_name: str) -> Plan:
    """One solved plan per board, decks and level (a process solves each once, whatever the players)."""
    key = (game.options["board"], game.options["suspects"], level_name)
    if key not in _PLANS:
        _PLANS[key] = Plan(game, level_name)
    return _PLANS[key]
