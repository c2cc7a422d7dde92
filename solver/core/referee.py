"""The referee: the one place that draws chance outcomes, plays games on, and reads their result.

Every loop that plays a game (the CLI, the seat server, the arena, the conformance checks, the
adapters, benches and tests) goes through :func:`play_out` (or :func:`advance_chance`), which draws
chance through :func:`draw_chance`, so one seed gives one game everywhere, and reports the end
through :func:`outcome`. Search playouts (``solver.search``, the games' simulators) are not games
refereed here: they draw with their own fast generators.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from solver.core.errors import ConfigError
from solver.core.game import State
from solver.core.types import CHANCE, Action, Seat

Act = Callable[[State, Seat], Action]
"""A player's decision: ``act(state, seat)`` returns the move of ``seat``, who must act in ``state``."""

Apply = Callable[[State, Action], State]
"""How a step is made: ``apply(state, action)`` returns the state to go on from (the same or a new one)."""

OnStep = Callable[[State, Seat, Action], None]
"""Told after every step: the state after it, the seat that acted (:data:`CHANCE` for a draw), the action."""


def draw_chance(state: State, rng: np.random.Generator) -> Action:
    """One chance outcome of ``state`` drawn with its probability (one ``rng.choice`` call)."""
    return draw_outcome(state.chance_outcomes(), rng)


def draw_outcome(outcomes: Sequence[tuple[Action, float]], rng: np.random.Generator) -> Action:
    """One action of ``outcomes`` (pairs of action and probability) drawn with its probability.

    The draw of :func:`draw_chance`, for a caller that already holds the outcomes (the conformance
    checker validates them first). Probabilities are normalised, so rounding never fails a draw.
    """
    probs = np.array([p for _, p in outcomes], dtype=float)
    index = int(rng.choice(len(outcomes), p=probs / probs.sum()))
    return outcomes[index][0]


def outcome(state: State) -> tuple[str | None, str]:
    """``(winner, reason)`` of a finished game, read off the public view; ``(None, "")`` if unfinished.

    Views carry ``winner``/``reason`` (Police 07 does); a game whose views do not is summarised by
    its returns (the seats with the best payoff).
    """
    if not state.is_terminal():
        return None, ""
    data = state.view(0).to_json()
    winner = data.get("winner")
    if isinstance(winner, str):
        return winner, str(data.get("reason", ""))
    returns = state.returns()
    best = max(returns)
    seats = [str(s) for s, r in enumerate(returns) if r == best]
    return "seats " + ", ".join(seats), "best returns"


def _apply_checked(state: State, action: Action) -> State:
    state.apply(action)
    return state


def play_out(
    state: State,
    act: Act,
    chance_rng: np.random.Generator,
    *,
    on_step: OnStep | None = None,
    max_steps: int | None = None,
    stop: Callable[[State], bool] | None = None,
    apply: Apply | None = None,
) -> State:
    """Play ``state`` on until it ends; return the state reached (``state`` itself unless ``apply`` swaps it).

    At a chance node the outcome comes from :func:`draw_chance` with ``chance_rng``; a player's move
    from ``act(state, seat)``. Before each step the loop ends early once ``max_steps`` steps are made
    or ``stop(state)`` is true (e.g. a seat with no bot must act); a caller that needs the game over
    checks ``is_terminal()`` on the result. Steps go through ``apply`` (default: the checked
    ``State.apply``), then ``on_step(state, seat, action)`` sees the state after them. Draws happen in
    play order on the one ``chance_rng``, so a seeded game is the same game at every caller.
    """
    if max_steps is not None and max_steps < 0:
        raise ConfigError(f"max_steps must be at least 0, not {max_steps}")
    step = _apply_checked if apply is None else apply
    steps = 0
    while not state.is_terminal():
        if (max_steps is not None and steps >= max_steps) or (stop is not None and stop(state)):
            break
        seat = state.current_player()
        action = draw_chance(state, chance_rng) if seat == CHANCE else act(state, seat)
        state = step(state, action)
        steps += 1
        if on_step is not None:
            on_step(state, seat, action)
    return state


def advance_chance(state: State, chance_rng: np.random.Generator) -> State:
    """Resolve chance nodes with :func:`draw_chance` until a player must act or the game ends; ``state``.

    For environments that hand only player decisions to their caller (the PettingZoo adapter).
    """
    while state.is_chance_node():
        state.apply(draw_chance(state, chance_rng))
    return state
