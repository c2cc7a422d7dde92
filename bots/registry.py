"""The bot registry: which bots play which game, built lazily from data.

Generic bots (those that only use the protocol, like ``random``) play every game; a game's own bots
live in the package its spec names (``GameSpec.bots``, ``bots/<game>/`` by default), whose import
registers them with :func:`register`.
Modules are imported only when a game's bots are first asked for, so one game's bots never load
another's data (as :mod:`solver.games` does for games).

A game's bot package also names its **advisor**, the bot that answers ``copsolver hint``, the seat
protocol's ``hint`` and ``copsolver review`` unless another is asked for (``ADVISOR``: its strongest
bot at the hint's default budget, as measured in ``bench/results/``), and its **policy**, the bot
whose ranking stands where a search decides nothing (``POLICY``; default ``heuristic``).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from bots.base import Bot
from solver import games
from solver.core import ConfigError, Game, make_rng

#: Key under which a generic bot is registered: it plays every game.
ANY_GAME = "*"

#: The advisor of a game whose bot package names none.
DEFAULT_ADVISOR = "ismcts"
#: The policy of a game whose bot package names none (``random`` when the game has no such bot).
DEFAULT_POLICY = "heuristic"

#: Modules whose bots play every game.
GENERIC_MODULES: tuple[str, ...] = ("bots.random_bot", "bots.ismcts_bot")

_registry: dict[str, dict[str, type[Bot]]] = {}
_loaded: set[str] = set()


def register(game_name: str, cls: type[Bot]) -> None:
    """Register bot class ``cls`` under ``cls.name`` for ``game_name`` (:data:`ANY_GAME`: every game)."""
    table = _registry.setdefault(game_name, {})
    existing = table.get(cls.name)
    if existing is not None and existing is not cls:
        raise ConfigError(f"bot {cls.name!r} is already registered for {game_name!r} by {existing.__name__}")
    table[cls.name] = cls


def _load(game_name: str) -> None:
    if game_name in _loaded:
        return
    own = games.spec(game_name).bots
    for module in (*GENERIC_MODULES, *([own] if own else [])):
        importlib.import_module(module)
    _loaded.add(game_name)


def bots_for(game_name: str) -> dict[str, type[Bot]]:
    """Bot name -> class for ``game_name``; ConfigError for an unknown game."""
    if game_name not in games.names():
        raise ConfigError(f"unknown game {game_name!r}; known: {', '.join(games.names())}")
    _load(game_name)
    table = dict(_registry.get(ANY_GAME, {}))
    table.update(_registry.get(game_name, {}))
    return dict(sorted(table.items()))


def _declared(game_name: str, attribute: str, default: str) -> str:
    """``attribute`` of the game's bot package (``ADVISOR`` or ``POLICY``), checked to be a bot of it."""
    table = bots_for(game_name)
    own = games.spec(game_name).bots
    name = getattr(importlib.import_module(own), attribute, default) if own else default
    if name not in table:
        if attribute == "POLICY" and name == DEFAULT_POLICY:
            return "random"
        raise ConfigError(f"{own}.{attribute} names {name!r}, not a bot of {game_name}")
    return str(name)


def advisor(game_name: str) -> str:
    """The bot that advises on ``game_name`` unless another is named (its package's ``ADVISOR``)."""
    return _declared(game_name, "ADVISOR", DEFAULT_ADVISOR)


def policy(game_name: str) -> str:
    """The bot whose ranking stands where ``game_name``'s search decides nothing (``POLICY``)."""
    return _declared(game_name, "POLICY", DEFAULT_POLICY)


def available(game_name: str) -> dict[str, str]:
    """Bot name -> one-line description, for the bots that play ``game_name``."""
    return {name: cls.description for name, cls in bots_for(game_name).items()}


def make(
    game: Game | str,
    name: str,
    *,
    seat: int,
    rng: np.random.Generator | int | None = None,
    **options: Any,
) -> Bot:
    """Build bot ``name`` for ``seat`` of ``game`` (a Game, or a game name with default options)."""
    if isinstance(game, str):
        game = games.load(game)
    table = bots_for(game.name)
    cls = table.get(name)
    if cls is None:
        raise ConfigError(f"unknown bot {name!r} for {game.name}; available: {', '.join(table)}")
    return cls(game, seat, make_rng(rng), **options)
