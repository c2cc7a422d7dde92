"""Police 07's bots, printer, hint and board drawing; importing the package registers its bots."""

from bots.police07 import display, heuristic, ismcts, nw2012

__all__ = ["display", "heuristic", "ismcts", "nw2012"]

#: the bot that advises unless another is named: Information Set MCTS beats nw2012 and the heuristic
#: (bench/results/README.md)
ADVISOR = "ismcts"
#: the policy whose ranking stands where the search decides nothing
POLICY = "heuristic"
