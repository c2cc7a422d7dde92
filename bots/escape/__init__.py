"""Escape Plan's bots, printer, drawing, hint and adapter encoder; importing the package registers its
printer (the generic ``random`` and ``ismcts`` play it from the start)."""

from bots.escape import display

__all__ = ["display"]
