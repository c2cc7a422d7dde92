"""Police 07's bots, printer, hint and board drawing; importing the package registers its bots."""

from bots.police07 import display, heuristic, ismcts, nw2012

__all__ = ["display", "heuristic", "ismcts", "nw2012"]
