"""A brute-force reference for Dr. Factor's possible locations, through the rules engine alone.

It shares no code with the location tracker (``solver/games/police07/locations.py``, ``bitsets.py``,
``ext/p07belief.pyx``): it never reads a ticket's lines, a neighbour mask or a cornered rule. It
replays a detective's public history (``view["history"]``, ``[piece, text]``) on engine states:

* every live branch tries **every legal action** of the engine (start cards at the deal, each of
  Dr. Factor's moves, ``double``, ``show``, ``take``, each detective move or ``pass``); a clone that
  applies it survives when the engine writes exactly the history's next entry for it
  (``State.public_action_text``, the text the detectives read, and the acting piece). A branch on
  which the game is over cannot act and dies: that is how a capture or a cornered Dr. Factor ends
  a path the real game went on from;
* at a checkpoint, the branches that show the detective **exactly the view** the real game shows
  him (the whole view JSON: decision, legal actions, ticket stocks, winner ...) are the consistent
  ones, and their Dr. Factor stops are the reference set.

Branches are merged when their states agree on every field the transition function reads
(:func:`fingerprint`): such states have the same legal actions, the same texts and the same views
from here on, so merging them drops no end stop; it only stops the count of paths from growing
exponentially. :class:`FactorPaths` with ``merge=False`` keeps every path apart, and
``tests/test_locations_bruteforce.py`` checks that both give the same sets on short games.

:func:`play_and_compare` plays a game (random, heuristic or mixed seats) and compares the
tracker's set with the reference at **every decision point**: each detective's decision, each of
Dr. Factor's (his turn start, after a ``double`` and between its two moves, after a show, each
take) and the end. ``bench/locations_bruteforce.py`` runs it over many games.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import bots
import solver.games
from solver.core import JSON
from solver.games.police07.locations import possible_locations
from tests.test_bitsets import random_board
from tests.test_police07_rules import MINI_BOARD

#: Issue 19's reproducer (Budapest, 4 players): at Dr. Factor's 7th move the detectives stand on
#: 130 and 138, the only neighbours of 133 (taxi); he cannot be at 133, or the game would be over.
REPRODUCER = [
    2187, 2176, 2059, 2072, 138, 134, 12, 22, 126, 141, 6, 302, 122, 621, 356, 561, 111, 360, 365, 420,
    122, 370, 637, 397, 126, 394, 130, 621,
]
CORNERED = 133

#: The policies :func:`play_and_compare` can seat: every seat random, every seat the heuristic bot,
#: or heuristic detectives hunting a random Dr. Factor (the one most often cornered).
POLICIES = ("random", "heuristic", "mixed")


def fingerprint(state: Any) -> tuple[Any, ...]:
    """Every field of a Police 07 state that ``legal_actions``, ``apply`` and ``view`` read, except
    Dr. Factor's past stops (the log's length is in; its stops are not): two branches with equal
    fingerprints and the same public history behave the same from here on."""
    return (
        tuple(state.pos), tuple(tuple(t) for t in state.tickets), state.phase, state.piece,
        state.double_steps, state.turn_moves, state.shown_this_turn, tuple(state.take_queue),
        state.visible_at, state.winner, len(state.log),
    )


class FactorPaths:
    """Every Dr. Factor path consistent with a detective's public history, as live engine states."""

    def __init__(self, game: Any, merge: bool = True) -> None:
        self.game = game
        self.merge = merge
        self.branches: list[Any] = [game.new_initial_state()]
        self.fed = 0  # history entries fed so far

    def feed(self, history: list[list[Any]]) -> None:
        """Feed the entries of ``history`` not fed yet (a view's history only ever grows)."""
        for piece, text in history[self.fed:]:
            self._step(piece, text)
        self.fed = len(history)

    def _step(self, piece: int, text: str) -> None:
        head = text.split()[0]
        out: dict[Any, Any] = {}
        kept: list[Any] = []
        for state in self.branches:
            if state.is_terminal():
                continue  # the game ended on this path (a capture, cornered) where the real one went on
            for action in state.legal_actions():
                # A cheap prefilter on the action's own notation (its first word is the ticket,
                # "double", "show", "take", "pass", "start" or "place" whatever is hidden), then the
                # engine's public text decides.
                if self.game.action_to_str(action).split()[0] != head:
                    continue
                branch = state.clone()
                branch.apply(action)
                index = len(branch.history) - 1
                if branch.records[index][0] != piece or branch.public_action_text(index) != text:
                    continue
                if self.merge:
                    out.setdefault(fingerprint(branch), branch)
                else:
                    kept.append(branch)
        self.branches = list(out.values()) if self.merge else kept

    def stops(self, seat: int, view: JSON) -> set[int]:
        """Dr. Factor's stop on every branch that shows ``seat`` exactly ``view``."""
        return {state.pos[0] for state in self.branches if state.view(seat).to_json() == view}


@dataclass
class Tally:
    """What :func:`play_and_compare` checked, and every disagreement it found."""

    counts: Counter[str] = field(default_factory=Counter)
    #: one line per disagreement, with the actions that reproduce it
    mismatches: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Fold ``other`` into this tally."""
        largest = max(self.counts["largest"], other.counts["largest"])
        self.counts.update(other.counts)
        self.counts["largest"] = largest
        self.mismatches.extend(other.mismatches)


def checkpoint_kind(state: Any) -> str:
    """Which decision point ``state`` is at, in the words of the rules."""
    if state.is_terminal():
        return "end"
    if state.current_player() != 0:
        return "detective"
    if state.take_queue:
        return "factor take"
    if state.double_steps == 1:
        return "factor between double moves"
    if state.double_steps == 2:
        return "factor after double"
    if state.shown_this_turn:
        return "factor after show"
    return "factor turn start"


def _players(game: Any, policy: str, rng: np.random.Generator) -> dict[int, Any]:
    if policy == "random":
        return {}
    seats = range(game.num_players) if policy == "heuristic" else range(1, game.num_players)
    return {seat: bots.make(game, "heuristic", seat=seat, rng=rng) for seat in seats}


def play_and_compare(
    game: Any, seed: int, policy: str = "random", resample_every: int = 5, sweep_every: int = 0,
    unmerged_up_to: int = 0,
) -> Tally:
    """Play one game and compare ``possible_locations`` with :class:`FactorPaths` at every decision.

    Every ``resample_every``-th checkpoint (0: none) of a live game also checks ``game.resample``
    (a live state, the same view) and ``game.view_from_json`` (the view is accepted); every
    ``sweep_every``-th one (0: none) resamples with each possible stop forced by the belief. With
    ``unmerged_up_to`` > 0 the paths are also followed apart (``merge=False``), and must give the
    same set, for as long as there are at most that many.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}, not {policy!r}")
    rng = np.random.default_rng(seed)
    checks = np.random.default_rng([seed, 1])  # resampling draws apart, so checks never change the game
    players = _players(game, policy, rng)
    state = game.new_initial_state()
    paths = FactorPaths(game)
    apart = FactorPaths(game, merge=False) if unmerged_up_to else None
    tally = Tally()
    while True:
        seat = state.current_player()
        # A decision point once he has his start stop (free start: he places last); not a deal.
        if (state.pos[0] and not state.is_chance_node()) or state.is_terminal():
            look = seat if seat > 0 else 1
            view = state.view(look)
            data = view.to_json()
            paths.feed(data["history"])
            kind = checkpoint_kind(state)
            actions = json.dumps(state.to_json()["actions"])
            where = f"{game.config()} {policy} seed {seed} at {kind}: {actions}"
            got = possible_locations(game, data)
            expected = paths.stops(look, data)
            if apart is not None:
                apart.feed(data["history"])
                if apart.stops(look, data) != expected:
                    tally.mismatches.append(f"merged and unmerged paths differ: {where}")
                tally.counts["unmerged checkpoints"] += 1
                tally.counts["paths merged"] += len(apart.branches) - len(paths.branches)
                if len(apart.branches) > unmerged_up_to:
                    apart = None
            if got != expected or state.pos[0] not in got:
                tally.mismatches.append(
                    f"tracker {sorted(got)} brute force {sorted(expected)} truth {state.pos[0]}: {where}"
                )
            n = tally.counts["checkpoints"]
            tally.counts["checkpoints"] += 1
            tally.counts[kind] += 1
            tally.counts["largest"] = max(tally.counts["largest"], len(expected))
            if not state.is_terminal() and resample_every and n % resample_every == 0:
                _check_resample(game, view, checks, None, where, tally)
                _check_view_from_json(game, data, where, tally)
            if (not state.is_terminal() and sweep_every and n % sweep_every == 0
                    and kind == "factor turn start"):
                for stop in sorted(expected):
                    _check_resample(game, view, checks, stop, where, tally)
        if state.is_terminal():
            tally.counts["games"] += 1
            return tally
        legal = state.legal_actions()
        if seat in players:
            action = players[seat].step(state.view(seat))
        else:
            action = legal[int(rng.integers(len(legal)))]
        state.apply(action)


def _check_resample(game: Any, view: Any, rng: np.random.Generator, stop: int | None, where: str,
                    tally: Tally) -> None:
    tally.counts["resamples"] += 1
    forced = "" if stop is None else f" forced to {stop}"
    try:
        drawn = game.resample(view, rng, belief=None if stop is None else {stop: 1.0})
    except ValueError as error:  # the engine refused the drawn path (e.g. the game was over on it)
        tally.mismatches.append(f"resample{forced} fails ({type(error).__name__}: {error}): {where}")
        return
    problems = []
    if drawn.is_terminal():
        problems.append(f"terminal ({drawn.reason})")
    if drawn.view(view.seat).to_json() != view.to_json():
        problems.append("a different view")
    if stop is not None and drawn.pos[0] != stop:
        problems.append(f"Dr. Factor at {drawn.pos[0]}")
    if problems:
        tally.mismatches.append(f"resample{forced}: {', '.join(problems)}: {where}")


def _check_view_from_json(game: Any, data: JSON, where: str, tally: Tally) -> None:
    tally.counts["view_from_json"] += 1
    try:
        game.view_from_json(data)
    except ValueError as error:  # BadStateError, or an engine error from its resample
        tally.mismatches.append(
            f"view_from_json rejects a genuine view ({type(error).__name__}: {error}): {where}"
        )


# --- many games -----------------------------------------------------------------------------------
#: Options per board, cycled through by :func:`run`: every player count and variant on Budapest;
#: on the 16-stop mini board up to four detective pieces, which crowd it and corner him often.
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "budapest": [
        {"players": 4}, {"players": 2}, {"players": 2, "pieces": [1]}, {"players": 3},
        {"players": 5}, {"players": 6}, {"players": 4, "voluntary_show": True},
        {"players": 3, "unlimited_tickets": True}, {"players": 4, "free_start": True},
        {"players": 5, "voluntary_show": True, "unlimited_tickets": True, "free_start": True},
    ],
    "mini": [
        {"players": 2, "pieces": [1]}, {"players": 2, "pieces": [2]}, {"players": 3, "pieces": [1, 1]},
        {"players": 3, "pieces": [2, 2]}, {"players": 4, "pieces": [1, 1, 1]},
        {"players": 2, "pieces": [1], "voluntary_show": True, "unlimited_tickets": True},
        {"players": 3, "pieces": [1, 1], "free_start": True},
        {"players": 3, "pieces": [1, 2], "voluntary_show": True},
    ],
}
#: Options on any other board (a board file given by path).
OTHER_CONFIGS: list[dict[str, Any]] = CONFIGS["budapest"]


def game_for(board: str, path: str, g: int, policies: tuple[str, ...]) -> tuple[Any, str]:
    """Game number ``g`` of a run on ``board`` (its file ``path``): its options and its policy."""
    configs = CONFIGS.get(board, OTHER_CONFIGS)
    options = configs[g % len(configs)]
    policy = policies[(g // len(configs)) % len(policies)]
    return solver.games.load("police07", board=path, **options), policy


def run(board: str, path: str, games: int, policies: tuple[str, ...] = POLICIES, first_seed: int = 0,
        resample_every: int = 5, sweep_every: int = 0) -> Tally:
    """Play ``games`` games on one board (seeds ``first_seed``..), cycling through its options and
    ``policies``, and compare at every decision (:func:`play_and_compare`)."""
    tally = Tally()
    for g in range(first_seed, first_seed + games):
        game, policy = game_for(board, path, g, policies)
        tally.add(play_and_compare(game, g, policy, resample_every, sweep_every))
    return tally


def board_files(folder: Path) -> dict[str, str]:
    """The boards of a run, each a path ``solver.games.load`` takes: Budapest (the board file the
    package ships) and the tests' boards written to files in ``folder``: the 16-stop ``mini`` board
    and ``random255`` (255 stops, every word of the bitsets in use)."""
    paths = {"budapest": "budapest"}
    for name, data in (("mini", MINI_BOARD), ("random255", random_board(7))):
        path = folder / f"{name}.json"
        path.write_text(json.dumps(data))
        paths[name] = str(path)
    return paths
