"""The pictures of a position: each game's drawing module, found by name, and the two pictures the
command line and the seat protocol ask of it.

A game draws itself in ``<its bot package>.draw`` (``bots/police07/draw.py``), whose ``render_svg(game,
view, advice=None, weights=None)`` returns a standalone SVG document made from the view alone
(docs/web.md, issue 25's contract). This module only finds that function and calls it, so that
``copsolver hint --svg`` and the protocol's ``"draw": true`` draw the same picture.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from bots import hint
from bots.base import Advice
from solver import games
from solver.core import Game, View


def drawing_module(name: str) -> ModuleType | None:
    """The drawing module of game ``name`` (``draw`` in its bot package, with ``render_svg``), or
    None when the game has none (yet)."""
    package = games.spec(name).bots
    if not package:
        return None
    module_name = f"{package}.draw"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is not None and (module_name == err.name or module_name.startswith(err.name + ".")):
            return None
        raise  # the module exists but something it imports does not: a real fault
    return module if callable(getattr(module, "render_svg", None)) else None


def view_svg(game: Game, view: View) -> str | None:
    """The position as ``view.seat`` sees it (no advice), or None for a game with no drawing."""
    module = drawing_module(game.name)
    if module is None:
        return None
    return str(module.render_svg(game, view, None))


def hint_svg(game: Game, view: View, advice: Advice) -> str | None:
    """``advice`` and the belief behind it drawn on ``view`` (what ``copsolver hint --svg`` writes),
    or None for a game with no drawing."""
    module = drawing_module(game.name)
    if module is None:
        return None
    # the heat map shades the possible stops by the same learnt probabilities the hint text lists
    weights = hint.heat_weights(game, view) or None
    return str(module.render_svg(game, view, advice, weights=weights))
