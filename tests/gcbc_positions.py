"""Good Cop Bad Cop positions for tests: a heuristic game stopped at a chosen point."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

import bots
from solver import games
from solver.core.referee import draw_chance
from solver.games.gcbc import ops
from solver.games.gcbc.rules import GCBCState


def heuristic_position(players: int, seed: int, decisions: int, announce: bool = False) -> GCBCState:
    """Heuristic bots in every seat, stopped at the first decision after ``decisions`` decisions
    (with ``announce``: the first announcement after them)."""
    game = games.load("gcbc", players=players)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    seated = {s: bots.make(game, "heuristic", seat=s, rng=seed + s) for s in range(players)}
    done = 0
    while not state.is_terminal() and (
        done < decisions or state.current_player() < 0 or (announce and state.stack[-1][0] != ops.ANNOUNCE)
    ):
        seat = state.current_player()
        if seat < 0:
            state.apply(draw_chance(state, rng))
            continue
        state.apply(seated[seat].step(state.view(seat)))
        done += 1
    if not isinstance(state, GCBCState):
        raise TypeError("gcbc game built another state type")
    return state


def play_out(state: GCBCState, seated: Mapping[int, bots.Bot], rng: np.random.Generator) -> GCBCState:
    """Play ``state`` to its end with ``seated[seat]`` at each seat (the checked ``apply``)."""
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            state.apply(draw_chance(state, rng))
            continue
        state.apply(seated[seat].step(state.view(seat)))  # apply() rejects an illegal action
    return state
