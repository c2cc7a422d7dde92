"""Good Cop Bad Cop positions for tests: a heuristic game stopped at a chosen point."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

import bots
from solver import games
from solver.core import Action, Seat, State, referee
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

    def act(st: State, seat: Seat) -> Action:
        nonlocal done
        done += 1
        return seated[seat].step(st.view(seat))

    def there(st: State) -> bool:  # a player's decision after ``decisions`` of them (an announcement)
        return done >= decisions and st.current_player() >= 0 and not (
            announce and isinstance(st, GCBCState) and st.stack[-1][0] != ops.ANNOUNCE)

    referee.play_out(state, act, rng, stop=there)
    if not isinstance(state, GCBCState):
        raise TypeError("gcbc game built another state type")
    return state


def play_out(state: GCBCState, seated: Mapping[int, bots.Bot], rng: np.random.Generator) -> GCBCState:
    """Play ``state`` to its end with ``seated[seat]`` at each seat (the checked ``apply``)."""
    referee.play_out(state, lambda st, seat: seated[seat].step(st.view(seat)), rng)
    return state
