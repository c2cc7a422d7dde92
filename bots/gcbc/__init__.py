"""Good Cop Bad Cop's bots, printer and hint; importing the package registers its bots."""

from bots.gcbc import display, heuristic, ismcts, rollout

__all__ = ["display", "heuristic", "ismcts", "rollout"]
