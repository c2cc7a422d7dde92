"""Escape Plan's bots, printer, drawing, hint and adapter encoder; importing the package registers its
bots (the generic ``random`` and ``ismcts`` play it from the start)."""
