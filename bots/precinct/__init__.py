"""Police Precinct's bots, printer and hint; importing the package registers its bots and printer."""

from bots.precinct import display, heuristic, ismcts, rhea

__all__ = ["display", "heuristic", "ismcts", "rhea"]
