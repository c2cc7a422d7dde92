"""Escape Plan's bots, printer, drawing, hint and adapter encoder; importing the package registers the
``heuristic``, ``planner`` and ``ismcts`` bots (the last replaces the generic one) and the printer (the
generic ``random`` plays it from the start)."""

from bots.escape import display, heuristic, ismcts, planner

__all__ = ["display", "heuristic", "ismcts", "planner"]

#: the bot that advises unless another is named: the planner beats the heuristic; ismcts over it measured
#: no difference (bench/results/escape-planner.md)
ADVISOR = "planner"
#: the policy whose ranking stands where the search decides nothing
POLICY = "heuristic"
