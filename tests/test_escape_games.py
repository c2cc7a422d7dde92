"""Escape Plan as a whole: random games end without an error, and no view shows another seat's secrets.

The slow tests play 10,000 uniformly random games (2,500 at each of 2-5 players, chance by its
probabilities) to the end. The leak tests take positions of seeded random games and check each seat's
view two ways: changing every fact the seat may not know (the other seats' Escape Plan cards, the
values of their Locker and Exit tiles, the contents of the face-down stacks and decks) leaves its view
unchanged; and in its history, every action another seat saw alone (a plan card dealt, a tile drawn in
secret) reads as the masked text, never the real one.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

import numpy as np
import pytest

from solver.games import load
from solver.games.escape.board import Piece
from solver.games.escape.bounds import MOVE_CAP
from solver.games.escape.rules import EscapeGame
from solver.games.escape.state import EscapeState, view_data
from tests.test_cli import assert_clean, last_line, run_cli
from tests.test_escape_rules import step

GAMES: dict[int, EscapeGame] = {n: load("escape", players=n) for n in (2, 3, 4, 5)}  # type: ignore[misc]


def play_random(
    game: EscapeGame, seed: int, keep_every: int = 0
) -> tuple[EscapeState, int, list[EscapeState]]:
    """A whole random game: the final state, its number of actions (chance included), and a clone of
    every ``keep_every``-th state on the way (none when 0)."""
    rng = np.random.default_rng(seed)
    st = game.new_initial_state()
    kept: list[EscapeState] = []
    steps = 0
    while not st.is_terminal() and steps <= MOVE_CAP:
        if keep_every and steps % keep_every == 0:
            kept.append(st.clone())
        step(st, rng)
        steps += 1
    return st, steps, kept


# --- random games -----------------------------------------------------------------------------------


def test_random_games_end_by_the_rules() -> None:
    """A few random games at every player count end by the rules, well inside the move cap, with
    returns of +1 for each winner and -1 for the others; only escaped players win ("Final Scoring")."""
    for players, game in GAMES.items():
        for seed in range(3):
            st, steps, _ = play_random(game, 100 * players + seed)
            assert st.is_terminal() and steps < MOVE_CAP
            winners = set(st.winners())
            assert all(st.escaped[s] for s in winners)
            assert st.returns() == [1.0 if s in winners else -1.0 for s in range(players)]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_ten_thousand_random_games(players: int) -> None:
    """10,000 random games in all (2,500 at each player count, one test each so that the slow run
    spreads them over its workers) end without an error and inside the cap."""
    started = time.perf_counter()
    faults: dict[str, list[int]] = {}
    longest = 0
    for seed in range(2_500):
        try:
            st, steps, _ = play_random(GAMES[players], 2_000_000 + 10 * seed + players)
            longest = max(longest, steps)
            if not st.is_terminal():
                faults.setdefault("past the move cap", []).append(seed)
        except Exception as exc:  # noqa: BLE001 - any error is a fault to report
            faults.setdefault(f"{type(exc).__name__}: {str(exc)[:100]}", []).append(seed)
    took = time.perf_counter() - started
    print(f"2,500 random {players}-player games: {took:.1f}s; longest {longest} actions")
    assert not faults, {k: (len(v), v[:3]) for k, v in faults.items()}


# --- leaks ------------------------------------------------------------------------------------------


def _other_value(values: list[int], value: int) -> int:
    """A value of the same stack other than ``value`` when there is one (a different secret)."""
    return next((v for v in sorted(set(values)) if v != value), value + 1)


def perturbed(st: EscapeState, seat: int) -> EscapeState:
    """A copy of ``st`` in which everything ``seat`` may not know is changed: the other seats'
    Escape Plan cards (swapped with each other and with the cards not dealt), the values of their
    Locker and Exit tiles, the face-down City tile stacks' order and the Locker and Exit tile stacks'
    contents (same sizes, other values)."""
    other = st.clone()
    content = st.game.content
    others = [p for p in range(st.n) if p != seat and other.plan[p] >= 0]
    pool = [other.plan[p] for p in others] + list(other.plans_left)
    if len(pool) > 1:
        rotated = pool[1:] + pool[:1]
        for p, card in zip(others, rotated, strict=False):
            other.plan[p] = card
        other.plans_left = rotated[len(others):]
    for p in others:
        board = other.boards[p]
        for i, slot in enumerate(board.items):
            if slot.piece == Piece.LOCKER:
                values = list(content.lockers[slot.ident].values)
                board.items[i] = dataclasses.replace(slot, value=_other_value(values, slot.value))
            elif slot.piece == Piece.EXIT:
                values = list(content.exit_tiles[slot.ident])
                board.items[i] = dataclasses.replace(slot, value=_other_value(values, slot.value))
    other.lockers = [[v + 1 for v in reversed(s)] for s in other.lockers]
    other.exit_stacks = [[v + 1 for v in reversed(s)] for s in other.exit_stacks]
    other.stacks = [list(reversed(s)) for s in other.stacks]
    return other


def _positions(players: int, games: int = 3, every: int = 37) -> list[EscapeState]:
    out: list[EscapeState] = []
    for seed in range(games):
        final, _, kept = play_random(GAMES[players], 500 + 10 * players + seed, keep_every=every)
        out += kept
        out.append(final)
    return out


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_view_does_not_change_with_what_the_seat_may_not_know(players: int) -> None:
    changed = 0
    for st in _positions(players):
        for seat in range(players):
            twin = perturbed(st, seat)
            if st.over:  # every plan card and tile is revealed at the end (Escape Plan Cards)
                continue
            mine = _canonical(view_data(st, seat))
            assert _canonical(view_data(twin, seat)) == mine, (st.day, st.part, seat)
            changed += any(twin.plan[p] != st.plan[p] for p in range(players))
            # the perturbation is real: another seat's view of the twin does change where it may
            for p in range(players):
                if p != seat and twin.plan[p] != st.plan[p]:
                    assert _canonical(view_data(twin, p)) != _canonical(view_data(st, p))
    assert changed > 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_history_masks_what_another_seat_saw_alone(players: int) -> None:
    masked = 0
    for st in _positions(players, games=2, every=0):
        for seat in range(players):
            entries = st.seat_entries(seat)
            assert len(entries) == len(st.records)
            for entry, (_, text, seen, hidden) in zip(entries, st.records, strict=True):
                if seen is not None and seat not in seen:
                    assert entry[1] == hidden and hidden != text, (seat, text, hidden)
                    masked += 1
                else:
                    assert entry[1] == text
    assert masked > 0


# --- the command line ---------------------------------------------------------------------------------


def test_a_human_plays_a_two_player_game_against_the_heuristic_and_sandra() -> None:
    """``copsolver play escape --players 2 --seat 0=human``: the human answers every prompt (here by
    the option number 1), Sandra plays herself, the game ends with a winner line and no traceback."""
    result = run_cli("play", "escape", "--players", "2", "--seat", "0=human", "--seed", "5",
                     stdin="1\n" * 3000)
    assert_clean(result)
    assert result.returncode == 0, result.stderr
    assert "Seat 0:" in result.stdout and "Sandra" in result.stdout
    assert any(line.startswith("  Sandra ") for line in result.stdout.splitlines())
    assert last_line(result.stdout).startswith("Winner: ")
