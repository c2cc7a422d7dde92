"""Escape Plan's review hook: there is no belief gap to measure, so :func:`belief_gap` is always None.

The hidden facts of Escape Plan are the other seats' Escape Plan cards and the Locker and Exit tiles
they keep face down; money behind the screens is tracked exactly from public changes, and deck and
stack orders are chance that no one knows. The bots hold no belief about the hidden facts that
their play turns on: the heuristic and the planner (the advisor) read only public facts and the
seat's own cards and turn (docs/escape-bots.md: their choices are the same in every world the exact
resample can draw), and the ``ismcts`` bot's worlds are that resample, a uniform draw among the
deals the public record allows, with playouts along the plan and the heuristic. The view carries no
estimate of another seat's card or tiles, so the hook, which sees only the view, reports no gap: one
would measure a uniform draw that nothing in the seat's play weighed.
"""

from __future__ import annotations

from bots.review import Gap
from solver.core import Game, State, View


def belief_gap(game: Game, view: View, truth: State) -> Gap | None:
    """Always None: no bot or view of Escape Plan believes anything about hidden facts (see the
    module docstring)."""
    return None
