"""The game registry: ``load(name, **options)`` builds a configured :class:`~solver.core.Game`."""

from __future__ import annotations

import importlib
from typing import Any

from solver.core import ConfigError, Game

#: Game name -> "module:class" of its Game; imported lazily so one game's data never loads another's.
GAMES: dict[str, str] = {
    "police07": "solver.games.police07.rules:Police07Game",
    "gcbc": "solver.games.gcbc.rules:GCBCGame",
    "lineup": "solver.games.lineup.rules:LineUpGame",
}


def load(name: str, **options: Any) -> Game:
    """Return game ``name`` built with ``options``; raise :class:`ConfigError` naming the fault."""
    try:
        target = GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
    module_name, cls_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), cls_name)
    try:
        game: Game = cls(**options)
    except TypeError as err:
        raise ConfigError(f"{name}: bad options {options!r}: {err}") from None
    return game


def names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(GAMES)
