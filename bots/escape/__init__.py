"""Escape Plan's bots, printer, drawing, hint and adapter encoder; importing the package registers the
``heuristic`` and ``planner`` bots and the printer (the generic ``random`` and ``ismcts`` play it from the
start)."""

from bots.escape import display, heuristic, planner

__all__ = ["display", "heuristic", "planner"]
