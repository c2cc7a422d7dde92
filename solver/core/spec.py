"""A game's declaration of itself: :class:`GameSpec`.

Each game's package defines one ``SPEC`` (``solver/games/<name>/spec.py``) and the registry
(:mod:`solver.games`) lists where it is; everything that would otherwise keep a per-game table
reads the spec instead: the CLI's variant flags, the arena's roles, the seat server's content
options, the bot registry's package and the adapters' bounds. A spec imports nothing of its game's
rules, so reading every game's spec loads no game's data.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from solver.core.errors import ConfigError
from solver.core.options import Option

if TYPE_CHECKING:
    from solver.core.game import Game


@dataclass(frozen=True)
class Bounds:
    """Bounds of one configured game, as the rules give them (OpenSpiel's ``GameInfo`` states these)."""

    #: every chance outcome id is below this (OpenSpiel masks chance ids by it); 0: no chance nodes
    max_chance_outcomes: int
    #: the most chance nodes in one game
    max_chance_nodes: int
    #: the most player decisions in one game (chance nodes not counted)
    max_game_length: int
    min_utility: float
    max_utility: float
    #: True when every game's returns sum to 0
    zero_sum: bool
    #: None when the rules end every game within the bounds above; otherwise the adapters end a game
    #: as a draw (every return 0) once its history holds this many actions, chance included
    move_cap: int | None = None


G = TypeVar("G", bound="Game")


def check_game(game: Game, cls: type[G], what: str) -> G:
    """``game`` as a ``cls``; ConfigError naming ``what`` when it is another game (bounds or an
    encoder asked of the wrong one)."""
    if not isinstance(game, cls):
        raise ConfigError(f"{what}: expected a {cls.__name__}, not {type(game).__name__}")
    return game


@dataclass(frozen=True)
class Role:
    """A named group of seats that play one side (Police 07's detectives) for a player count."""

    name: str
    seats: Callable[[int], tuple[int, ...]]


@dataclass(frozen=True)
class GameSpec:
    """What a game is, as data: its name, seats and roles, typed options, flags and bounds.

    ``options`` are the constructor's options other than ``players``, each an :class:`Option`
    (``file=True`` for those that name content files). ``flags`` maps a command-line variant flag
    (``--deck``) to the option it sets; a boolean option's flag takes no value. ``bot_flags`` maps a
    flag to a bot option it sets on every bot that takes it (LineUp's ``--memory``). ``roles``
    empty: every seat is a role of its own (``seat0``, ``seat1``, ...). ``num_distinct_actions``
    bounds the action ids; ``bounds`` names the function that gives one configuration's
    :class:`Bounds` (the most decisions and chance nodes in a game, the returns' range, the move
    cap of a game the rules do not bound). ``bots``: the package whose import registers the
    game's bots, printer, hint and adapter encoding.
    """

    name: str
    title: str
    #: "module:Class" of the game's :class:`~solver.core.game.Game`; imported only by :meth:`load`
    game: str
    min_players: int
    max_players: int
    default_players: int
    options: Mapping[str, Option] = field(default_factory=dict)
    flags: Mapping[str, str] = field(default_factory=dict)
    bot_flags: Mapping[str, str] = field(default_factory=dict)
    roles: tuple[Role, ...] = ()
    #: every action id (chance outcomes included) is below this, for any configuration
    num_distinct_actions: int = 0
    #: a one-line description for ``copsolver bots`` and the welcome message
    summary: str = ""
    #: "module:function" giving the :class:`Bounds` of one configured game ("": none declared)
    bounds: str = ""
    #: the bot package ("" = ``bots.<name>``; None = the game has no bots of its own)
    bots: str | None = ""
    #: a co-operative game names the team that plays against the game (``"good"``): the arena then
    #: fields one entrant at every seat, and a side wins a game when that team does (a traitor among
    #: them, dealt by chance, wins the games the team loses)
    cooperative: str = ""

    def __post_init__(self) -> None:
        if not self.min_players <= self.default_players <= self.max_players:
            raise ConfigError(
                f"{self.name} spec: default players outside {self.min_players}..{self.max_players}"
            )
        for flag, option in self.flags.items():
            if option != "players" and option not in self.options:
                raise ConfigError(f"{self.name} spec: flag {flag} sets unknown option {option!r}")
        if self.bots == "":
            object.__setattr__(self, "bots", f"bots.{self.name}")

    @property
    def players_option(self) -> Option:
        """``players`` as an option (range and default)."""
        return Option(self.default_players, int, "number of players",
                      minimum=self.min_players, maximum=self.max_players)

    @property
    def file_options(self) -> tuple[str, ...]:
        """The options whose value names a file (content), in declaration order."""
        return tuple(name for name, opt in self.options.items() if opt.file)

    def game_class(self) -> type[Game]:
        """The game's class (imports its rules)."""
        module_name, _, cls_name = self.game.partition(":")
        cls: type[Game] = getattr(importlib.import_module(module_name), cls_name)
        return cls

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked against the spec: unknown names and bad values are a ConfigError."""
        checked: dict[str, Any] = {}
        for name, value in options.items():
            opt = self.players_option if name == "players" else self.options.get(name)
            if opt is None:
                known = ", ".join(["players", *self.options]) or "none"
                raise ConfigError(f"{self.name}: unknown option {name!r} (its options: {known})")
            checked[name] = opt.check(self.name, name, value)
        return checked

    def game_bounds(self, game: Game) -> Bounds:
        """The bounds of ``game`` (a configured game of this spec): length, chance, utilities."""
        if not self.bounds:
            raise ConfigError(f"{self.name} spec declares no bounds")
        module_name, _, fn_name = self.bounds.partition(":")
        fn: Callable[[Game], Bounds] = getattr(importlib.import_module(module_name), fn_name)
        return fn(game)

    def check_names(self, options: Mapping[str, Any]) -> None:
        """ConfigError naming the first option the game does not take."""
        for name in options:
            if name != "players" and name not in self.options:
                known = ", ".join(["players", *self.options])
                raise ConfigError(f"{self.name}: unknown option {name!r} (its options: {known})")

    def load(self, **options: Any) -> Game:
        """The game configured with ``options``; ConfigError naming the fault.

        Option names are checked here; values by the game's constructor, which states each rule
        (the rulebook's player count, a content file's format) in its own message. A value of a
        type the constructor cannot use (a number where a list belongs) is a ConfigError too.
        """
        self.check_names(options)
        cls = self.game_class()
        try:
            return cls(**options)
        except TypeError as err:
            raise ConfigError(f"{self.name}: bad options {options!r}: {err}") from None

    def role_seats(self, players: int) -> dict[str, tuple[int, ...]]:
        """Role name -> its seats at ``players`` players (``seatN`` per seat when no roles)."""
        if self.cooperative:
            return {"team": tuple(range(players))}
        if self.roles:
            return {role.name: role.seats(players) for role in self.roles}
        return {f"seat{seat}": (seat,) for seat in range(players)}
