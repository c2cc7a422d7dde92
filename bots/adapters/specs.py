"""What the OpenSpiel and PettingZoo adapters need to know about a game, found by the game's name.

The core protocol says nothing about the size of a game's action-id space, how long a game can
last, or how to flatten a view into numbers; OpenSpiel's ``GameInfo`` and PettingZoo's spaces need
all three. Each game therefore declares an :class:`AdapterSpec` in its own bot package, in the
module ``bots/<name>/adapter.py``, as a function ``adapter_spec() -> AdapterSpec``. A new game gets
both adapters by writing that one module; :func:`spec_for` finds it by the game's name.

Everything there is computed from views and the game's static configuration, so an encoder can
never show a seat more than its view holds.

Games the rules do not bound (a Good Cop Bad Cop table may investigate forever; LineUp players may
roll and move forever) carry a *move cap*: the adapters end such a game, as a draw with every return
0, once its history holds that many actions (chance outcomes included). Both adapters take a
``max_moves`` option to set the cap (0 or None: the game's default); it can cap any game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
import numpy.typing as npt

from solver import games
from solver.core import ConfigError, Game, View
from solver.core.spec import Bounds as Bounds  # re-exported: the adapters' name for it
from solver.core.spec import GameSpec
from solver.core.spec import check_game as check_game  # re-exported: the encoders check with it

Vector = npt.NDArray[np.float32]


class Encoder(Protocol):
    """Flattens a view into a fixed-length vector of floats in [0, 1]."""

    #: the vector's length (the same for every seat of one configured game)
    size: int

    def encode(self, view: View) -> Vector:
        """The view as a new float32 vector of length :attr:`size`."""
        ...


@dataclass(frozen=True)
class AdapterSpec:
    """One game's entry: its view encoder (from ``bots/<game>/adapter.py``); the player range, the
    action-id bound and the per-configuration bounds are the game's own declaration (its
    :class:`~solver.core.spec.GameSpec`), which :func:`spec_for` attaches."""

    encoder: Callable[[Game], Encoder]
    #: view keys that hold the seat's history: dropped from the (non-perfect-recall) observation string
    recall_keys: tuple[str, ...] = ("history",)
    #: the game's declaration; set by :func:`spec_for`
    game: GameSpec | None = None

    def _declared(self) -> GameSpec:
        if self.game is None:
            raise ConfigError("adapter spec without its game's declaration: get it with spec_for(name)")
        return self.game

    @property
    def bounds(self) -> Callable[[Game], Bounds]:
        """The game's bounds for one configuration (its spec's ``bounds`` function)."""
        return self._declared().game_bounds

    @property
    def min_players(self) -> int:
        """The fewest players the game takes (its spec's)."""
        return self._declared().min_players

    @property
    def max_players(self) -> int:
        """The most players the game takes (its spec's)."""
        return self._declared().max_players

    @property
    def num_distinct_actions(self) -> int:
        """Every action id (chance outcomes included) is below this, for every configuration."""
        return self._declared().num_distinct_actions

    def bounds_for(self, game: Game, max_moves: int | None = None) -> Bounds:
        """The game's bounds, capped at ``max_moves`` actions when given (None or 0: the default cap).

        A cap ends a game as a draw, so it needs 0 within the utility range; the capped bounds
        count every action, which bounds decisions and chance nodes alike.
        """
        bounds = self.bounds(game)
        if max_moves is None or max_moves == 0:
            return bounds
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise ConfigError(f"{game.name}: max_moves must be a positive int (0 or None: default), "
                              f"not {max_moves!r}")
        return capped(bounds, max_moves)


def capped(bounds: Bounds, cap: int) -> Bounds:
    """``bounds`` with the game ended as a draw after ``cap`` actions (chance outcomes included)."""
    if not bounds.min_utility <= 0.0 <= bounds.max_utility:
        raise ConfigError(f"a capped game ends as a draw (returns 0), outside [{bounds.min_utility}, "
                          f"{bounds.max_utility}]")
    if bounds.move_cap is not None:
        # the game's lengths were its default cap's, not the rules': the new cap replaces them
        return replace(bounds, max_chance_nodes=cap, max_game_length=cap, move_cap=cap)
    return replace(
        bounds,
        max_chance_nodes=min(bounds.max_chance_nodes, cap),
        max_game_length=min(bounds.max_game_length, cap),
        move_cap=cap,
    )


def ratio(count: int | None, cap: float) -> float:
    """``count / cap`` clipped to [0, 1]; None (an unlimited stock) reads 1."""
    return 1.0 if count is None else max(0.0, min(1.0, count / cap))


def one_hot(out: Vector, offset: int, index: int | None, size: int) -> None:
    """Set ``out[offset + index]`` when ``index`` is in 0..size-1 (None or out of range: nothing)."""
    if index is not None and 0 <= index < size:
        out[offset + index] = 1.0


def module_name(game_name: str) -> str:
    """The module that holds ``game_name``'s adapter spec: ``adapter`` in the game's bot package."""
    package = games.spec(game_name).bots
    if not package:
        raise ConfigError(f"no adapter spec for game {game_name!r}: its spec names no bot package")
    return f"{package}.adapter"


def spec_for(game_name: str) -> AdapterSpec:
    """The adapter spec of ``game_name`` from ``bots/<name>/adapter.py``; ConfigError when it has none."""
    if game_name not in games.names():
        raise ConfigError(f"no adapter spec for game {game_name!r}: not a registered game "
                          f"(have: {', '.join(games.names())})")
    name = module_name(game_name)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name is None or not (name == err.name or name.startswith(err.name + ".")):
            raise  # the module exists but something it imports does not: that is its own fault
        raise ConfigError(
            f"no adapter spec for game {game_name!r}: write {name.replace('.', '/')}.py "
            "with adapter_spec() -> AdapterSpec"
        ) from None
    build = getattr(module, "adapter_spec", None)
    if not callable(build):
        raise ConfigError(f"no adapter spec for game {game_name!r}: {name} has no adapter_spec()")
    spec = build()
    if not isinstance(spec, AdapterSpec):
        raise ConfigError(f"{name}.adapter_spec() returned {type(spec).__name__}, not an AdapterSpec")
    declared = games.spec(game_name)
    if declared.num_distinct_actions < 1:
        raise ConfigError(f"no adapter for game {game_name!r}: its spec declares no num_distinct_actions")
    return replace(spec, game=declared)
