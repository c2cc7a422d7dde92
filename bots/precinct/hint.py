"""What a Police Precinct hint adds: the seat's role and the board as that seat sees it.

``copsolver hint precinct`` prints ``seat 2 (good cop)`` or ``(dirty cop)`` from the seat's own loyalty
card (only that seat's view holds it), then the board printout of :func:`bots.precinct.display.board_lines`
before the ranked moves.
"""

from __future__ import annotations

from bots.base import Advice
from bots.hint import Asked, Extras
from solver.core import Game, View


def role(game: Game, view: View) -> str:
    """``good cop`` or ``dirty cop`` by the seat's loyalty card (``cop`` before the deal or without one)."""
    loyalty = view.to_json().get("my_loyalty")
    return f"{loyalty} cop" if loyalty else "cop"


def extras(game: Game, view: View, advice: Advice, asked: Asked | None = None) -> Extras:
    """The seat's board printout before the ranked moves."""
    from bots.precinct.display import board_lines

    return Extras(advice, lines=tuple(board_lines(game, view.to_json())))
