"""LineUp's bots, printer and hint; importing the package registers its bots."""

from bots.lineup import display, players

__all__ = ["display", "players"]

#: the bot that advises unless another is named: the planner beats greedy at every memory level
#: (bench/results/lineup.md)
ADVISOR = "planner"
#: the policy whose ranking stands where the search decides nothing
POLICY = "heuristic"
