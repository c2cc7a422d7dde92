"""The referee: the one place that draws chance outcomes and reads a finished game's result.

Every loop that plays a game (the CLI, the seat server, the arena, the conformance checks, the
adapters, benches and tests) draws chance through :func:`draw_chance`, so one seed gives one game
everywhere, and reports the end through :func:`outcome`.
"""

from __future__ import annotations

import numpy as np

from solver.core.game import State
from solver.core.types import Action


def draw_chance(state: State, rng: np.random.Generator) -> Action:
    """One chance outcome of ``state`` drawn with its probability (one ``rng.choice`` call)."""
    outcomes = state.chance_outcomes()
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
