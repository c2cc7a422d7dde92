"""LineUp's bots, printer and hint; importing the package registers its bots."""

from bots.lineup import display, players

__all__ = ["display", "players"]
