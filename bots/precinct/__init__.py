"""Police Precinct's bots, printer and hint; importing the package registers its bots and printer."""

from bots.precinct import display, heuristic, ismcts, rhea

__all__ = ["display", "heuristic", "ismcts", "rhea"]

#: the bot that advises unless another is named: the ismcts team wins 80-96% against the heuristic team
#: (bench/results/precinct-search.md)
ADVISOR = "ismcts"
#: the policy whose ranking stands where the search decides nothing
POLICY = "heuristic"
