"""The game registry: one line per game, naming the module that holds its :class:`GameSpec`.

``load(name, **options)`` builds a configured :class:`~solver.core.Game`; :func:`spec` gives a
game's declaration. Specs are imported lazily and import none of their game's rules, so reading one
game's spec (or all of them, for ``copsolver --help``) never loads another game's data.
"""

from __future__ import annotations

import importlib
from typing import Any

from solver.core import ConfigError, Game
from solver.core.spec import GameSpec

#: Game name -> the module whose ``SPEC`` declares it. Adding a game is adding its line here.
GAMES: dict[str, str] = {
    "police07": "solver.games.police07.spec",
    "gcbc": "solver.games.gcbc.spec",
    "lineup": "solver.games.lineup.spec",
    "precinct": "solver.games.precinct.spec",
    "escape": "solver.games.escape.spec",
}


def spec(name: str) -> GameSpec:
    """The declaration of game ``name``; ConfigError naming the known games for an unknown one."""
    try:
        module = GAMES[name]
    except KeyError:
        raise ConfigError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}") from None
    declared: GameSpec = importlib.import_module(module).SPEC
    if declared.name != name:
        raise ConfigError(f"the registry's game {name!r} is declared as {declared.name!r} in {module}")
    return declared


def load(name: str, **options: Any) -> Game:
    """Return game ``name`` built with ``options``; raise :class:`ConfigError` naming the fault."""
    return spec(name).load(**options)


def names() -> list[str]:
    """The registered game names, sorted."""
    return sorted(GAMES)
